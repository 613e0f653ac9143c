import { prisma } from "~/lib/db.server.ts";

// The admin dashboard's figures (spec section 3 "Admin dashboard": stats and popularAnimations).

export const POPULAR_ANIMATIONS = 5;

export async function getDashboardStats(now = new Date()) {
  const monthStart = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
  const [totalUsers, activeSubscriptions, totalAnimations, revenue] = await Promise.all([
    prisma.user.count(),
    prisma.subscription.count({ where: { status: "active", endDate: { gt: now } } }),
    prisma.animation.count(),
    prisma.payment.aggregate({ where: { status: "completed", createdAt: { gte: monthStart } }, _sum: { amount: true } }),
  ]);
  return { totalUsers, activeSubscriptions, totalAnimations, monthlyRevenue: Number(revenue._sum.amount ?? 0) };
}

export async function getPopularAnimations(limit = POPULAR_ANIMATIONS) {
  const rows = await prisma.animation.findMany({
    orderBy: [{ views: "desc" }, { id: "asc" }],
    take: limit,
    select: { id: true, title: true, views: true, category: { select: { name: true } } },
  });
  return rows.map(({ category, ...row }) => ({ ...row, categoryName: category?.name ?? null }));
}
