import { prisma } from "~/lib/db.server.ts";
import { listAnimationsDueForReview } from "../catalogue/medical-review.server.ts";
import { lapsedWhere } from "../licensing/access.server.ts";
import { describeSubscription } from "../commerce/subscriptions.server.ts";

// The admin dashboard (/admin and GET /api/admin/dashboard: stats and
// popularAnimations). Totals come from counters kept by triggers (RowCount, RevenueMonth:
// migration 20261124020000), so a view never counts a big table.

export const POPULAR_ANIMATIONS = 5;
export const RECENT_SUBSCRIPTIONS = 6;
export const REVENUE_MONTHS = 12;

const monthStart = (date: Date, monthsBack = 0) => new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth() - monthsBack, 1));

export async function getDashboardStats(now = new Date()) {
  const [counts, lapsed, revenue] = await Promise.all([
    prisma.rowCount.findMany({ where: { table: { in: ["User", "Animation", "Subscription:active"] } } }),
    // Active and not yet ended: the counter of active ones, less those past their end date that
    // the hourly billing sweep has not expired yet (a few, found through the (status, endDate) index).
    prisma.subscription.count({ where: lapsedWhere(now) }),
    prisma.revenueMonth.findUnique({ where: { month: monthStart(now) } }),
  ]);
  const count = (table: string) => Number(counts.find((row) => row.table === table)?.count ?? 0);
  return {
    totalUsers: count("User"),
    activeSubscriptions: Math.max(0, count("Subscription:active") - lapsed),
    totalAnimations: count("Animation"),
    monthlyRevenue: Number(revenue?.amount ?? 0),
  };
}

export async function getPopularAnimations(limit = POPULAR_ANIMATIONS) {
  const rows = await prisma.animation.findMany({
    orderBy: [{ views: "desc" }, { id: "asc" }],
    take: limit,
    select: { id: true, title: true, views: true, category: { select: { name: true } } },
  });
  return rows.map(({ category, ...row }) => ({ ...row, categoryName: category?.name ?? null }));
}

/** The latest subscriptions (real rows, never sample rows: docs/architecture.md, "Product decisions"). */
export async function getRecentSubscriptions(limit = RECENT_SUBSCRIPTIONS) {
  const rows = await prisma.subscription.findMany({
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: limit,
    select: {
      id: true,
      type: true,
      status: true,
      price: true,
      createdAt: true,
      user: { select: { firstName: true, lastName: true, email: true } },
      category: { select: { name: true } },
      animation: { select: { title: true } },
    },
  });
  return rows.map((row) => ({
    id: row.id,
    member: `${row.user.firstName} ${row.user.lastName}`.trim(),
    email: row.user.email,
    item: describeSubscription(row),
    type: row.type,
    status: row.status,
    price: Number(row.price),
    createdAt: row.createdAt,
  }));
}

/** Revenue of the last twelve calendar months, oldest first, months without payments as 0. */
export async function getRevenueByMonth(now = new Date(), months = REVENUE_MONTHS) {
  const first = monthStart(now, months - 1);
  const rows = await prisma.revenueMonth.findMany({ where: { month: { gte: first } } });
  const byMonth = new Map(rows.map((row) => [row.month.toISOString().slice(0, 7), row]));
  return Array.from({ length: months }, (_, i) => {
    const month = monthStart(now, months - 1 - i)
      .toISOString()
      .slice(0, 7);
    const row = byMonth.get(month);
    return { month, amount: Number(row?.amount ?? 0), payments: row?.payments ?? 0 };
  });
}

export async function getDashboard(now = new Date()) {
  const [stats, popularAnimations, recentSubscriptions, revenueByMonth, reviewsDue] = await Promise.all([
    getDashboardStats(now),
    getPopularAnimations(),
    getRecentSubscriptions(),
    getRevenueByMonth(now),
    listAnimationsDueForReview({ now, limit: 8 }),
  ]);
  return { stats, popularAnimations, recentSubscriptions, revenueByMonth, reviewsDue };
}
