import { describe, expect, it } from "vitest";
import { prisma } from "~/lib/db.server.ts";
import * as screen from "~/routes/admin/settings.tsx";
import * as listApi from "~/routes/api/admin/settings.ts";
import * as putApi from "~/routes/api/settings.key.ts";
import * as publicSettings from "~/routes/api/settings.ts";
import * as premium from "~/routes/public/premium.tsx";
import { startCheckout } from "~/services/checkout.server.ts";
import { getLayoutData } from "~/services/content.server.ts";
import { PLATFORM_NAME_REQUIRED, PRICE_INVALID, roundedYearlyPrice } from "~/validation/admin-settings.ts";
import { accessTokenFor, createPaidSubscription, createUser, sessionCookieFor } from "../helpers/factories.ts";
import { callRoute } from "../helpers/route.ts";

// /admin/settings, GET /api/admin/settings and PUT /api/settings/{key}: each value checked by its
// key's rule, both saved at once with an audit row per change, and a new premium price used by
// new checkouts only.

async function admin() {
  const user = await createUser({ role: "admin" });
  return { user, token: await accessTokenFor(user.id), cookie: await sessionCookieFor(user.id) };
}

describe("settings calls", () => {
  it("GET /api/admin/settings lists every editable setting with its default", async () => {
    const { token } = await admin();
    const res = await callRoute(listApi, "/api/admin/settings", { token });
    expect(res.status).toBe(200);
    expect(res.body).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ key: "platform_name", value: "Medanim" }),
        expect.objectContaining({ key: "global_subscription_yearly_price", value: "99" }),
      ]),
    );
    for (const row of res.body) expect(typeof row.description).toBe("string");
  });

  it("PUT /api/settings/{key}: the rule of the key, 404 for an unknown key, public reads at once", async () => {
    const { token } = await admin();
    const put = (key: string, json: unknown) => callRoute(putApi, `/api/settings/${key}`, { method: "PUT", json, params: { key }, token });
    for (const value of ["-5", "0", "abc", "12.345", "1000001"]) {
      const bad = await put("global_subscription_yearly_price", { value });
      expect(bad.status, value).toBe(400);
      expect(bad.body.message).toBe(PRICE_INVALID);
    }
    expect((await put("platform_name", { value: "   " })).body.message).toBe(PLATFORM_NAME_REQUIRED);
    expect((await put("stripe_secret", { value: "x" })).status).toBe(404);
    expect((await put("platform_name", {})).status).toBe(400);

    const ok = await put("platform_name", { value: "  Medanim Pro ", description: "Shown everywhere" });
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ key: "platform_name", value: "Medanim Pro", description: "Shown everywhere" });
    expect((await getLayoutData()).platformName).toBe("Medanim Pro");
    const pub = await callRoute(publicSettings, "/api/settings");
    expect(pub.body).toContainEqual({ key: "platform_name", value: "Medanim Pro" });
    expect((await put("global_subscription_yearly_price", { value: 120 })).body.value).toBe("120");

    const audit = await prisma.auditLog.findMany({ where: { entityType: "setting" }, orderBy: { createdAt: "asc" } });
    expect(audit.map((row) => [row.entityId, row.changes])).toEqual([
      ["platform_name", { value: ["Medanim", "Medanim Pro"], description: [null, "Shown everywhere"] }],
      ["global_subscription_yearly_price", { value: ["99", "120"], description: [null, "Premium yearly price in USD (new subscriptions only)"] }],
    ]);
    await put("platform_name", { value: "Medanim" });
    await put("global_subscription_yearly_price", { value: "99" });
  });
});

describe("the settings screen", () => {
  it("Save All Settings saves both; a bad price saves neither; new checkouts use the new price, old subscriptions keep theirs", async () => {
    const { cookie } = await admin();
    const member = await createUser();
    const { subscription } = await createPaidSubscription(member.id, { type: "global", amount: 99 });

    const bad = await callRoute(screen, "/admin/settings", { form: { platformName: "Renamed", annualPrice: "-1" }, cookie });
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.body)).toContain(PRICE_INVALID);
    expect((await callRoute(screen, "/admin/settings", { cookie })).body).toEqual({ platformName: "Medanim", annualPrice: "99" });

    const saved = await callRoute(screen, "/admin/settings", { form: { platformName: "Medanim", annualPrice: "$149.50" }, cookie });
    expect(saved.status).toBe(302);
    expect((await callRoute(screen, "/admin/settings", { cookie })).body.annualPrice).toBe("149.50");
    expect((await callRoute(premium, "/premium")).body.price).toMatchObject({ yearly: 149.5 });

    const buyer = await createUser();
    await startCheckout(buyer, { type: "global" }, "hosted");
    const checkout = await prisma.checkoutSession.findFirstOrThrow({ where: { userId: buyer.id } });
    expect(Number(checkout.amount)).toBe(149.5);
    expect(Number((await prisma.subscription.findUniqueOrThrow({ where: { id: subscription.id } })).price)).toBe(99);
    await callRoute(screen, "/admin/settings", { form: { platformName: "Medanim", annualPrice: "99" }, cookie });
  });

  it("rounds the preview to a whole number", () => {
    expect(roundedYearlyPrice("149.50")).toBe(150);
    expect(roundedYearlyPrice("99.49")).toBe(99);
    expect(roundedYearlyPrice("abc")).toBeNull();
  });
});
