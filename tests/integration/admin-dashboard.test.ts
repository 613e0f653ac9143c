import { describe, expect, it } from "vitest";
import { prisma } from "~/lib/db.server.ts";
import * as dashboardApi from "~/routes/api/admin/dashboard.ts";
import { getDashboardStats, getRecentSubscriptions, getRevenueByMonth } from "~/services/admin/admin-dashboard.server.ts";
import { createAnimation } from "../helpers/catalogue.ts";
import { accessTokenFor, createPaidSubscription, createUser } from "../helpers/factories.ts";
import { callRoute } from "../helpers/route.ts";

// The dashboard's figures come from counters kept by triggers: they must stay equal to a real
// count through inserts (one by one and in bulk), status changes (a refund) and deletes.

async function truth(now: Date) {
  const monthStart = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
  const revenue = await prisma.payment.aggregate({ where: { status: "completed", createdAt: { gte: monthStart } }, _sum: { amount: true } });
  return {
    totalUsers: await prisma.user.count(),
    activeSubscriptions: await prisma.subscription.count({ where: { status: "active", endDate: { gt: now } } }),
    totalAnimations: await prisma.animation.count(),
    monthlyRevenue: Number(revenue._sum.amount ?? 0),
  };
}

describe("dashboard counters", () => {
  it("stay equal to the real counts through single and bulk inserts, refunds and deletes", async () => {
    const now = new Date();
    const member = await createUser();
    const { payment } = await createPaidSubscription(member.id, { amount: 99, paidDaysAgo: 0 });
    await prisma.user.createMany({
      data: Array.from({ length: 25 }, (_, i) => ({
        email: `bulk-${i}-${Date.now()}@x.test`,
        username: `bulk_${i}_${Date.now()}`,
        password: "x",
        firstName: "B",
        lastName: "K",
      })),
    });
    await prisma.payment.createMany({ data: Array.from({ length: 4 }, () => ({ userId: member.id, amount: 10, status: "completed" as const })) });
    await createAnimation({ title: `Counted ${Date.now()}` });
    expect(await getDashboardStats(now)).toEqual(await truth(now));

    await prisma.payment.update({ where: { id: payment.id }, data: { status: "refunded" } });
    await prisma.payment.create({ data: { userId: member.id, amount: 5, status: "failed" } });
    expect(await getDashboardStats(now)).toEqual(await truth(now));

    await prisma.user.deleteMany({ where: { email: { startsWith: "bulk-" } } });
    await prisma.animation.deleteMany({ where: { title: { startsWith: "Counted" } } });
    expect(await getDashboardStats(now)).toEqual(await truth(now));
  });

  it("Active Subscriptions follows status changes, bulk writes, a lapse not yet swept and a deleted member", async () => {
    const now = new Date();
    const day = 24 * 3600_000;
    const [a, b] = [await createUser(), await createUser()];
    const rows = (userId: string, n: number, endDate: Date) =>
      Array.from({ length: n }, () => ({
        userId,
        type: "global" as const,
        status: "active" as const,
        price: 99,
        startDate: new Date(now.getTime() - day),
        endDate,
      }));
    await prisma.subscription.createMany({
      data: [...rows(a.id, 3, new Date(now.getTime() + 300 * day)), ...rows(b.id, 2, new Date(now.getTime() + 300 * day))],
    });
    expect(await getDashboardStats(now)).toEqual(await truth(now));

    // One ends: still "active" until the sweep, but not counted; then the sweep expires it.
    const lapsed = await prisma.subscription.findFirstOrThrow({ where: { userId: a.id } });
    await prisma.subscription.update({ where: { id: lapsed.id }, data: { endDate: new Date(now.getTime() - 1000) } });
    expect((await getDashboardStats(now)).activeSubscriptions).toBe((await truth(now)).activeSubscriptions);
    await prisma.subscription.update({ where: { id: lapsed.id }, data: { status: "expired" } });
    await prisma.subscription.updateMany({ where: { userId: b.id }, data: { status: "canceled" } });
    expect(await getDashboardStats(now)).toEqual(await truth(now));
    await prisma.subscription.updateMany({ where: { userId: b.id }, data: { status: "active" } });
    await prisma.subscription.updateMany({ where: { userId: a.id }, data: { price: 89 } });
    expect(await getDashboardStats(now)).toEqual(await truth(now));

    // Deleting a member takes their subscriptions with them (ON DELETE CASCADE) and off the count.
    await prisma.user.delete({ where: { id: b.id } });
    expect(await getDashboardStats(now)).toEqual(await truth(now));
  });

  it("revenue by month: twelve months oldest first, empty months as 0, last year's payment counted in its month", async () => {
    const member = await createUser();
    const now = new Date(Date.UTC(2026, 10, 15));
    await prisma.payment.create({ data: { userId: member.id, amount: 120, status: "completed", createdAt: new Date(Date.UTC(2026, 0, 31, 23, 59)) } });
    await prisma.payment.create({ data: { userId: member.id, amount: 30, status: "completed", createdAt: new Date(Date.UTC(2025, 11, 1)) } });
    await prisma.payment.create({ data: { userId: member.id, amount: 999, status: "completed", createdAt: new Date(Date.UTC(2025, 10, 30)) } });
    const months = await getRevenueByMonth(now);
    expect(months).toHaveLength(12);
    expect(months[0]!.month).toBe("2025-12");
    expect(months.at(-1)!.month).toBe("2026-11");
    expect(months.find((m) => m.month === "2026-01")).toMatchObject({ amount: 120, payments: 1 });
    expect(months.find((m) => m.month === "2025-12")!.amount).toBeGreaterThanOrEqual(30);
    expect(months.find((m) => m.month === "2026-02")).toEqual({ month: "2026-02", amount: 0, payments: 0 });
  });

  it("recent subscriptions are real rows, newest first; GET /api/admin/dashboard has the contract's shape", async () => {
    const member = await createUser({ firstName: "Newest", lastName: "Member" });
    const { subscription } = await createPaidSubscription(member.id, { type: "global" });
    const recent = await getRecentSubscriptions();
    expect(recent[0]).toMatchObject({ id: subscription.id, member: "Newest Member", item: "Premium access (all animations)", price: 99 });

    const admin = await createUser({ role: "admin" });
    const res = await callRoute(dashboardApi, "/api/admin/dashboard", { token: await accessTokenFor(admin.id) });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body.stats).sort()).toEqual(["activeSubscriptions", "monthlyRevenue", "totalAnimations", "totalUsers"]);
    for (const animation of res.body.popularAnimations) expect(Object.keys(animation).sort()).toEqual(["categoryName", "id", "title", "views"]);
    expect(res.body.revenueByMonth).toHaveLength(12);
  });
});
