import { prisma } from "~/lib/db.server.ts";
import type { Prisma } from "~/generated/prisma/client.ts";

// A user's subscriptions: their rows as the /api and the account screens show them, and which
// count as active (spec public-and-user-side.md sections 2, 3, 7). Granting, extending and
// cancelling subscriptions belong here too. Every query is scoped to one user and bounded.

/** Lists are bounded: a user's own history, newest first. */
export const HISTORY_LIMIT = 100;

export const subscriptionSelect = {
  id: true,
  type: true,
  status: true,
  animationId: true,
  categoryId: true,
  startDate: true,
  endDate: true,
  price: true,
  createdAt: true,
  category: { select: { name: true } },
  animation: { select: { title: true } },
} satisfies Prisma.SubscriptionSelect;

type SubscriptionRow = Prisma.SubscriptionGetPayload<{ select: typeof subscriptionSelect }>;

/** The /api shape (spec: id, type, status, animationId, categoryId, startDate, endDate, price). */
export function toSubscriptionJson(s: SubscriptionRow) {
  return {
    id: s.id,
    type: s.type,
    status: s.status,
    animationId: s.animationId,
    categoryId: s.categoryId,
    startDate: s.startDate,
    endDate: s.endDate,
    price: Number(s.price),
    categoryName: s.category?.name ?? null,
    animationTitle: s.animation?.title ?? null,
  };
}

export type SubscriptionJson = ReturnType<typeof toSubscriptionJson>;

/** What a subscription is, in words: "Premium (all animations)", "Cardiology licence". */
export function describeSubscription(s: { type: string; category?: { name: string } | null; animation?: { title: string } | null }) {
  if (s.type === "global") return "Premium access (all animations)";
  if (s.type === "category") return `Category licence: ${s.category?.name ?? "deleted category"}`;
  return `Individual licence: ${s.animation?.title ?? "deleted animation"}`;
}

export async function listSubscriptions(userId: string) {
  const rows = await prisma.subscription.findMany({
    where: { userId },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: HISTORY_LIMIT,
    select: subscriptionSelect,
  });
  return rows.map(toSubscriptionJson);
}

/** Spec: a subscription counts only when its status is active and its endDate is in the future. */
export function activeWhere(userId: string, now: Date): Prisma.SubscriptionWhereInput {
  return { userId, status: "active", endDate: { gt: now } };
}

export async function listActiveSubscriptions(userId: string, now = new Date()) {
  const rows = await prisma.subscription.findMany({
    where: activeWhere(userId, now),
    orderBy: [{ endDate: "asc" }, { id: "asc" }],
    take: HISTORY_LIMIT,
    select: subscriptionSelect,
  });
  return rows.map((s) => ({ ...toSubscriptionJson(s), label: describeSubscription(s) }));
}

/**
 * accountType follows the subscriptions: every item sold includes premium access (spec: licences
 * "include premium access"), so a user is premium while any subscription is active and
 * unexpired, free once none is. Called in the same transaction as every change of a user's
 * subscriptions (fulfilment, expiry, cancellation, refund, reactivation).
 */
export async function syncAccountType(tx: Prisma.TransactionClient, userId: string, now = new Date()) {
  const active = await tx.subscription.findFirst({ where: activeWhere(userId, now), select: { id: true } });
  await tx.user.update({ where: { id: userId }, data: { accountType: active ? "premium" : "free" } });
}
