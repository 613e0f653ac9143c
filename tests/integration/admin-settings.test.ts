import { DEFAULT_SEARCH_SYNONYMS } from "~/validation/search.ts";
import { describe, expect, it } from "vitest";
import { prisma } from "~/lib/db.server.ts";
import * as screen from "~/routes/admin/settings.tsx";
import * as listApi from "~/routes/api/admin/settings.ts";
import * as putApi from "~/routes/api/settings.key.ts";
import * as publicSettings from "~/routes/api/settings.ts";
import * as premium from "~/routes/public/premium.tsx";
import { startCheckout } from "~/services/commerce/checkout.server.ts";
import { getLayoutData } from "~/services/site/content.server.ts";
import { PLATFORM_NAME_REQUIRED, PRICE_INVALID, roundedYearlyPrice, TESTIMONIAL_AUTHOR_REQUIRED } from "~/validation/admin-settings.ts";
import { DEMO_SETTING_VALUES } from "~/services/site/settings.server.ts";
import { sendToApp } from "../helpers/app.ts";
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
    expect((await callRoute(screen, "/admin/settings", { cookie })).body).toMatchObject({ platformName: "Medanim", annualPrice: "99" });
    // The licence terms in effect are shown beside the settings (a new version has no form yet).
    expect((await callRoute(screen, "/admin/settings", { cookie })).body.licenceTerms).toMatch(/^License terms, version 1 \(in effect from /);

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

  it("keeps playback events as long as the form says: a bad number is refused beside its field, an empty one leaves the setting", async () => {
    // Through the app as npm start builds it: the admin guard, its step-up, the edge and CSRF.
    const { cookie } = await admin();
    const origin = new URL(process.env.APP_URL ?? "http://localhost:3000").origin;
    const save = (fields: Record<string, string>) =>
      sendToApp("/admin/settings", {
        method: "POST",
        headers: new Headers({ "Content-Type": "application/x-www-form-urlencoded", Origin: origin, Cookie: cookie }),
        body: new URLSearchParams({ platformName: "Medanim", annualPrice: "99", ...fields }).toString(),
      });
    const kept = async () => (await prisma.appSetting.findUnique({ where: { key: "analytics_retention_days" } }))?.value ?? "90";
    const page = (await sendToApp("/admin/settings", { headers: new Headers({ Cookie: cookie }) })).body.toString();
    expect(page).toMatch(/<input[^>]*name="analyticsRetentionDays"[^>]*value="90"/);
    const bad = await save({ analyticsRetentionDays: "0" });
    expect(bad.status).toBe(400);
    expect(bad.body.toString()).toContain("Retention must be a whole number of days from 1 to 3650");
    expect(await kept()).toBe("90");
    expect((await save({ analyticsRetentionDays: "30" })).status).toBe(302);
    expect(await kept()).toBe("30");
    expect((await save({})).status).toBe(302);
    expect(await kept()).toBe("30");
    // Not an admin: refused by the server.
    const member = await sessionCookieFor((await createUser()).id);
    const refused = await sendToApp("/admin/settings", {
      method: "POST",
      headers: new Headers({ "Content-Type": "application/x-www-form-urlencoded", Origin: origin, Cookie: member }),
      body: "analyticsRetentionDays=1",
    });
    expect([302, 403, 404]).toContain(refused.status);
    expect(await kept()).toBe("30");
    await save({ analyticsRetentionDays: "90" });
  });

  it("rounds the preview to a whole number", () => {
    expect(roundedYearlyPrice("149.50")).toBe(150);
    expect(roundedYearlyPrice("99.49")).toBe(99);
    expect(roundedYearlyPrice("abc")).toBeNull();
  });
});

describe("contact details and the testimonial (from settings; the demo's marked)", () => {
  const details = {
    intent: "public-details",
    supportEmail: "help@clinic-animations.example",
    supportPhone: "+44 20 7946 0000",
    supportAddress: "1 Harley Street, London",
    testimonialQuote: "My patients finally understand their knee surgery.",
    testimonialAuthor: "Dr. Ana Ruiz, Orthopaedic Surgeon",
  };
  const html = async (url: string) => (await sendToApp(url, {})).body.toString("utf8");

  it("without a testimonial set, the sales pages show none; the demo's contact details are labelled demo content", async () => {
    expect((await callRoute(premium, "/premium")).body.testimonial).toBeNull();
    for (const url of ["/premium", "/individual-license", "/category-license"]) {
      expect(await html(url), url).not.toContain('data-testid="testimonial"');
    }
    const contact = await html("/contact");
    expect(contact).toContain(DEMO_SETTING_VALUES.support_phone);
    expect(contact).toContain("Demo content");
  });

  it("the demo's testimonial is labelled demo content", async () => {
    await prisma.appSetting.createMany({
      data: [
        { key: "testimonial_quote", value: DEMO_SETTING_VALUES.testimonial_quote! },
        { key: "testimonial_author", value: DEMO_SETTING_VALUES.testimonial_author! },
      ],
    });
    expect((await callRoute(premium, "/premium")).body.testimonial).toMatchObject({ author: DEMO_SETTING_VALUES.testimonial_author, demo: true });
    const page = await html("/individual-license");
    expect(page).toContain('data-testid="testimonial"');
    expect(page).toContain("Demo content");
  });

  it("an admin's own details replace the demo's everywhere, without the label; bad input is a 400 naming the field", async () => {
    const { cookie } = await admin();
    const bad = await callRoute(screen, "/admin/settings", { form: { ...details, supportEmail: "not-an-email", testimonialAuthor: "" }, cookie });
    expect(bad.status).toBe(400);
    expect(bad.body.result.error).toMatchObject({ supportEmail: ["Must be a valid email"], testimonialAuthor: [TESTIMONIAL_AUTHOR_REQUIRED] });
    expect((await callRoute(screen, "/admin/settings", { cookie })).body.publicDetails.supportPhone).toBe(DEMO_SETTING_VALUES.support_phone);

    const saved = await callRoute(screen, "/admin/settings", { form: { ...details, searchSynonyms: DEFAULT_SEARCH_SYNONYMS }, cookie });
    expect(saved.status).toBe(302);
    const { intent: _, ...stored } = details;
    expect((await callRoute(screen, "/admin/settings", { cookie })).body.publicDetails).toEqual({ ...stored, searchSynonyms: DEFAULT_SEARCH_SYNONYMS });
    const contact = await html("/contact");
    expect(contact).toContain("+44 20 7946 0000");
    expect(contact).toContain("1 Harley Street, London");
    expect(contact).not.toContain("Demo content");
    const sales = await html("/category-license");
    expect(sales).toContain("My patients finally understand their knee surgery.");
    expect(sales).toContain("Dr. Ana Ruiz, Orthopaedic Surgeon");
    expect(sales).not.toContain("Demo content");
    expect(await prisma.auditLog.count({ where: { entityType: "setting", entityId: "testimonial_quote" } })).toBeGreaterThan(0);

    // Emptied: no testimonial at all, and no lay words (an emptied textarea is not "keep the old table").
    await callRoute(screen, "/admin/settings", { form: { ...details, testimonialQuote: "", testimonialAuthor: "", searchSynonyms: "" }, cookie });
    expect(await html("/premium")).not.toContain('data-testid="testimonial"');
    expect((await callRoute(screen, "/admin/settings", { cookie })).body.publicDetails.searchSynonyms).toBe("");
  });
});
