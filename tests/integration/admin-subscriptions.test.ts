import { describe, expect, it } from "vitest";
import { prisma } from "~/lib/db.server.ts";
import * as screen from "~/routes/admin/subscriptions.tsx";
import * as listApi from "~/routes/api/admin/subscriptions.ts";
import * as changeApi from "~/routes/api/admin/subscriptions.change.ts";
import { getAccess, hasGlobalAccess } from "~/services/licensing/access.server.ts";
import { publicUserSelect } from "~/services/auth/credentials.server.ts";
import { accessTokenFor, createPaidSubscription, createUser, sessionCookieFor } from "../helpers/factories.ts";
import { callRoute } from "../helpers/route.ts";

// /admin/subscriptions and its calls: the list with search, status and type filters; Cancel and
// Reactivate through the subscription lifecycle (access gone, then back), audited.

async function admin() {
  const user = await createUser({ role: "admin" });
  return { user, token: await accessTokenFor(user.id), cookie: await sessionCookieFor(user.id) };
}

async function hasPremium(userId: string) {
  const viewer = await prisma.user.findUniqueOrThrow({ where: { id: userId }, select: publicUserSelect });
  return hasGlobalAccess(await getAccess(viewer));
}

describe("GET /api/admin/subscriptions", () => {
  it("answers an array of the admin rows, filtered by search, status and type", async () => {
    const { token } = await admin();
    const member = await createUser({ email: `subs-${Date.now()}@example.test`, firstName: "Ada", lastName: "Lovelace" });
    await createPaidSubscription(member.id, { type: "global" });
    await createPaidSubscription(member.id, { type: "individual", status: "canceled" });
    const all = await callRoute(listApi, `/api/admin/subscriptions?search=${member.email}`, { token });
    expect(all.status).toBe(200);
    expect(Array.isArray(all.body)).toBe(true);
    expect(all.body).toHaveLength(2);
    expect(Object.keys(all.body[0]).sort()).toEqual(
      [
        "animationTitle",
        "categoryName",
        "endDate",
        "endedAfterFailedPayments",
        "firstName",
        "id",
        "lastName",
        "paymentRetryAt",
        "price",
        "startDate",
        "status",
        "type",
        "userEmail",
        "userId",
        "username",
      ].sort(),
    );
    const canceled = await callRoute(listApi, `/api/admin/subscriptions?search=lovelace&status=canceled`, { token });
    expect(canceled.body.map((row: { type: string }) => row.type)).toEqual(["individual"]);
    const global = await callRoute(listApi, `/api/admin/subscriptions?search=${member.email}&type=global`, { token });
    expect(global.body).toMatchObject([{ type: "global", status: "active", userEmail: member.email, price: 99 }]);
    // Nonsense filters are ignored, not a 500.
    expect((await callRoute(listApi, "/api/admin/subscriptions?status=weird&type=&page=x&limit=9999", { token })).status).toBe(200);
  });
});

describe("cancel and reactivate", () => {
  it("cancel ends access at once, reactivate brings it back to the original end date; both audited", async () => {
    const { token } = await admin();
    const member = await createUser();
    const { subscription } = await createPaidSubscription(member.id, { type: "global" });
    expect(await hasPremium(member.id)).toBe(true);

    const canceled = await callRoute(changeApi, `/api/admin/subscriptions/${subscription.id}/cancel`, {
      method: "PUT",
      params: { id: subscription.id },
      token,
    });
    expect(canceled.status).toBe(200);
    expect(canceled.body.status).toBe("canceled");
    expect(await hasPremium(member.id)).toBe(false);

    const back = await callRoute(changeApi, `/api/admin/subscriptions/${subscription.id}/reactivate`, {
      method: "PUT",
      params: { id: subscription.id },
      token,
    });
    expect(back.body).toMatchObject({ status: "active", endDate: subscription.endDate!.toISOString() });
    expect(await hasPremium(member.id)).toBe(true);

    const audit = await prisma.auditLog.findMany({ where: { entityId: subscription.id }, orderBy: { createdAt: "asc" } });
    expect(audit.map((row) => row.action)).toEqual(["subscription.cancel", "subscription.reactivate"]);
    expect(audit[0]!.changes).toMatchObject({ status: ["active", "canceled"] });
  });

  it("refuses what has no action (409) and unknown ids (404)", async () => {
    const { token } = await admin();
    const member = await createUser();
    const { subscription } = await createPaidSubscription(member.id, { status: "expired", endDate: new Date(Date.now() - 86_400_000) });
    const expired = await callRoute(changeApi, `/api/admin/subscriptions/${subscription.id}/cancel`, { method: "PUT", params: { id: subscription.id }, token });
    expect(expired.status).toBe(409);
    expect(expired.body.message).toBe("Only active subscriptions can be canceled.");
    const reactivate = await callRoute(changeApi, `/api/admin/subscriptions/${subscription.id}/reactivate`, {
      method: "PUT",
      params: { id: subscription.id },
      token,
    });
    expect(reactivate.status).toBe(409);
    for (const id of ["not-a-uuid", "00000000-0000-4000-8000-000000000000"]) {
      const missing = await callRoute(changeApi, `/api/admin/subscriptions/${id}/cancel`, { method: "PUT", params: { id }, token });
      expect(missing.status).toBe(404);
      expect(missing.body.message).toBe("Subscription not found");
    }
    expect(await prisma.auditLog.count({ where: { entityId: subscription.id } })).toBe(0);
  });
});

describe("the screen without JavaScript", () => {
  it("renders the confirm step and cancels with the second POST, keeping the filters", async () => {
    const { cookie } = await admin();
    const member = await createUser();
    const { subscription } = await createPaidSubscription(member.id, { type: "global" });
    const page = await callRoute(screen, `/admin/subscriptions?status=active&confirm=${subscription.id}&intent=cancel`, { cookie });
    expect(page.body.confirm).toMatchObject({ intent: "cancel", row: { id: subscription.id, status: "active" } });
    const done = await callRoute(screen, `/admin/subscriptions?status=active&confirm=${subscription.id}&intent=cancel`, {
      form: { intent: "cancel", id: subscription.id },
      cookie,
    });
    expect(done.status).toBe(302);
    expect(done.location).toBe("/admin/subscriptions?status=active");
    expect((await prisma.subscription.findUniqueOrThrow({ where: { id: subscription.id } })).status).toBe("canceled");
  });
});
