import { prisma } from "~/lib/db.server.ts";
import { ServiceError } from "~/lib/errors.server.ts";
import { formatMoney } from "~/lib/format.ts";
import { sendTemplatedEmail } from "~/lib/mail.server.ts";
import type { Prisma } from "~/generated/prisma/client.ts";
import type { RefundRequestInput } from "~/validation/account.ts";
import type { PublicUser } from "./auth/credentials.server.ts";

// The signed-in user's money and licences: subscriptions, payments, dashboard stats, the library
// of licensed animations and refund requests (spec public-and-user-side.md sections 2, 3, 7;
// admin-and-support.md "Request Refund", sections 3, 5, 8). Every query is scoped to one user and
// bounded; nothing here loops over rows with further queries.

const DAY_MS = 24 * 60 * 60 * 1000;
/** Spec: "Refund window 30 days". */
export const REFUND_WINDOW_DAYS = 30;
export const REFUND_WINDOW_MESSAGE = "Refunds are available within 30 days of purchase.";

/** Lists are bounded: a user's own history, newest first. */
const HISTORY_LIMIT = 100;

const subscriptionSelect = {
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
function activeWhere(userId: string, now: Date): Prisma.SubscriptionWhereInput {
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

/** The /api shape (spec: id, description, subscriptionType, amount, status, createdAt). */
export async function listPayments(userId: string) {
  const rows = await prisma.payment.findMany({
    where: { userId },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: HISTORY_LIMIT,
    select: { id: true, description: true, subscriptionType: true, amount: true, status: true, createdAt: true },
  });
  return rows.map((p) => ({ ...p, amount: Number(p.amount) }));
}

export type PaymentJson = Awaited<ReturnType<typeof listPayments>>[number];

/** The billing screen's history: each payment with its open refund request, if any. */
export async function listPaymentsWithRefunds(userId: string) {
  const rows = await prisma.payment.findMany({
    where: { userId },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: HISTORY_LIMIT,
    select: {
      id: true,
      description: true,
      subscriptionType: true,
      amount: true,
      status: true,
      createdAt: true,
      refundRequests: {
        where: { status: { in: ["pending", "approved"] } },
        orderBy: { createdAt: "desc" },
        take: 1,
        select: { status: true },
      },
    },
  });
  return rows.map(({ refundRequests, ...p }) => ({ ...p, amount: Number(p.amount), refundStatus: refundRequests[0]?.status ?? null }));
}

// ---------------------------------------------------------------------------------------------
// Library of licensed animations

/**
 * The library lists what the user holds a licence for: individual licences and category
 * licences (every animation of a licensed category and of its sub-categories). A global
 * subscription or a premium account streams the whole catalogue, which the home page already
 * lists; the library does not repeat it (docs/decisions: "My Animations lists licences").
 */
async function activeLicences(userId: string, now: Date) {
  return prisma.subscription.findMany({
    where: { ...activeWhere(userId, now), type: { in: ["individual", "category"] } },
    select: { type: true, animationId: true, categoryId: true, endDate: true },
  });
}

type Licence = Awaited<ReturnType<typeof activeLicences>>[number];

function libraryWhere(licences: Licence[], q?: string): Prisma.AnimationWhereInput | null {
  const animationIds = [...new Set(licences.filter((l) => l.type === "individual" && l.animationId).map((l) => l.animationId!))];
  const categoryIds = [...new Set(licences.filter((l) => l.type === "category" && l.categoryId).map((l) => l.categoryId!))];
  const or: Prisma.AnimationWhereInput[] = [];
  if (animationIds.length) or.push({ id: { in: animationIds } });
  if (categoryIds.length) or.push({ categoryId: { in: categoryIds } }, { category: { parentId: { in: categoryIds } } });
  if (!or.length) return null;
  const where: Prisma.AnimationWhereInput = { isActive: true, OR: or };
  if (q) {
    where.AND = [{ OR: [{ title: { contains: q, mode: "insensitive" } }, { description: { contains: q, mode: "insensitive" } }] }];
  }
  return where;
}

const libraryAnimationSelect = {
  id: true,
  slug: true,
  title: true,
  description: true,
  coverImage: true,
  duration: true,
  categoryId: true,
  category: { select: { name: true, parentId: true } },
} satisfies Prisma.AnimationSelect;

type LibraryRow = Prisma.AnimationGetPayload<{ select: typeof libraryAnimationSelect }>;

/**
 * Which licence gives the animation, and until when: the licence that lasts longest among those
 * that cover it (an individual licence wins a tie).
 */
function licenceFor(animation: LibraryRow, licences: Licence[]) {
  let best: { licenseType: "individual" | "category"; expiryDate: Date | null } | null = null;
  const categories = [animation.categoryId, animation.category?.parentId].filter(Boolean);
  for (const l of licences) {
    const covers =
      (l.type === "individual" && l.animationId === animation.id) ||
      (l.type === "category" && l.categoryId !== null && categories.includes(l.categoryId));
    if (!covers) continue;
    const type = l.type as "individual" | "category";
    const later = !best || (l.endDate?.getTime() ?? 0) > (best.expiryDate?.getTime() ?? 0);
    const tieIndividual = best && (l.endDate?.getTime() ?? 0) === (best.expiryDate?.getTime() ?? 0) && type === "individual";
    if (later || tieIndividual) best = { licenseType: type, expiryDate: l.endDate };
  }
  return best ?? { licenseType: "category" as const, expiryDate: null };
}

function toLibraryJson(animation: LibraryRow, licences: Licence[]) {
  const licence = licenceFor(animation, licences);
  return {
    id: animation.id,
    slug: animation.slug,
    title: animation.title,
    description: animation.description,
    coverImage: animation.coverImage,
    duration: animation.duration,
    categoryName: animation.category?.name ?? null,
    licenseType: licence.licenseType as "individual" | "category" | "global",
    expiryDate: licence.expiryDate,
  };
}

export type LibraryAnimation = ReturnType<typeof toLibraryJson>;

export async function getLibrary(userId: string, options: { q?: string; page?: number; pageSize?: number; now?: Date } = {}) {
  const { q, page = 1, pageSize = 24, now = new Date() } = options;
  const licences = await activeLicences(userId, now);
  const where = libraryWhere(licences, q);
  if (!where) return { animations: [] as LibraryAnimation[], total: 0, page, pageSize };
  const [rows, total] = await Promise.all([
    prisma.animation.findMany({
      where,
      orderBy: [{ title: "asc" }, { id: "asc" }],
      skip: (page - 1) * pageSize,
      take: pageSize,
      select: libraryAnimationSelect,
    }),
    prisma.animation.count({ where }),
  ]);
  return { animations: rows.map((r) => toLibraryJson(r, licences)), total, page, pageSize };
}

// ---------------------------------------------------------------------------------------------
// Dashboard

/** Sum of the user's completed payments, in dollars. */
export async function getTotalSpent(userId: string) {
  const spent = await prisma.payment.aggregate({ where: { userId, status: "completed" }, _sum: { amount: true } });
  return Number(spent._sum.amount ?? 0);
}

/** totalSpent: completed payments; activeSubscriptions: active and unexpired; licensed animations. */
export async function getDashboardStats(userId: string, now = new Date()) {
  const [totalSpent, activeSubscriptions, library] = await Promise.all([
    getTotalSpent(userId),
    prisma.subscription.count({ where: activeWhere(userId, now) }),
    getLibrary(userId, { pageSize: 3, now }),
  ]);
  return {
    totalSpent,
    activeSubscriptions,
    licensedAnimations: library.total,
    recentAnimations: library.animations,
  };
}

// ---------------------------------------------------------------------------------------------
// Refund requests

export const NO_COMPLETED_PAYMENT = "There is no completed payment to refund for this subscription.";
export const REFUND_ALREADY_PENDING = "A refund request for this payment is already pending.";
export const ALREADY_REFUNDED = "This payment has already been refunded.";

/**
 * The subscriptions the refund form offers (spec: status active or paid). "Paid" is read as
 * "has a completed payment": active subscriptions, and others whose completed payment is still
 * inside the 30-day window. Each comes with its latest completed payment.
 */
export async function getRefundableSubscriptions(userId: string, now = new Date()) {
  const windowStart = new Date(now.getTime() - REFUND_WINDOW_DAYS * DAY_MS);
  const rows = await prisma.subscription.findMany({
    where: {
      userId,
      OR: [{ status: "active" }, { payments: { some: { status: "completed", createdAt: { gte: windowStart } } } }],
    },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: HISTORY_LIMIT,
    select: {
      ...subscriptionSelect,
      payments: {
        where: { status: "completed" },
        orderBy: { createdAt: "desc" },
        take: 1,
        select: { id: true, amount: true, createdAt: true, description: true },
      },
    },
  });
  return rows.map((s) => {
    const payment = s.payments[0] ?? null;
    return {
      ...toSubscriptionJson(s),
      label: describeSubscription(s),
      latestPayment: payment && { ...payment, amount: Number(payment.amount) },
    };
  });
}

/** A payment of this user, for /refund?payment={id}; null when it is not theirs. */
export async function findOwnPayment(userId: string, paymentId: string) {
  const payment = await prisma.payment.findUnique({
    where: { id: paymentId },
    select: { id: true, userId: true, subscriptionId: true, status: true, amount: true, description: true, createdAt: true },
  });
  return payment && payment.userId === userId ? { ...payment, amount: Number(payment.amount) } : null;
}

/**
 * Files a refund request for the admin. Only the user's own subscription and payment (404
 * otherwise: no hint whether someone else's exists), a completed payment, at most 30 days old,
 * and no open request for the same payment. The payment row is locked while the request is
 * written, so two simultaneous submissions cannot both pass the duplicate check.
 */
export async function requestRefund(user: PublicUser, input: RefundRequestInput, now = new Date()) {
  const subscription = await prisma.subscription.findUnique({
    where: { id: input.subscriptionId },
    select: { id: true, userId: true, type: true, category: { select: { name: true } }, animation: { select: { title: true } } },
  });
  if (!subscription || subscription.userId !== user.id) throw new ServiceError("Subscription not found", 404, "subscriptionId");

  const payment = input.paymentId
    ? await prisma.payment.findUnique({ where: { id: input.paymentId } })
    : await prisma.payment.findFirst({
        where: { subscriptionId: subscription.id, userId: user.id, status: "completed" },
        orderBy: { createdAt: "desc" },
      });
  if (input.paymentId && (!payment || payment.userId !== user.id)) throw new ServiceError("Payment not found", 404);
  if (!payment || (payment.subscriptionId && payment.subscriptionId !== subscription.id)) {
    throw new ServiceError(NO_COMPLETED_PAYMENT, 400, "subscriptionId");
  }
  if (payment.status === "refunded") throw new ServiceError(ALREADY_REFUNDED, 409);
  if (payment.status !== "completed") throw new ServiceError(NO_COMPLETED_PAYMENT, 400, "subscriptionId");
  if (payment.createdAt.getTime() < now.getTime() - REFUND_WINDOW_DAYS * DAY_MS) throw new ServiceError(REFUND_WINDOW_MESSAGE, 400);

  const request = await prisma.$transaction(async (tx) => {
    await tx.$queryRaw`SELECT "id" FROM "Payment" WHERE "id" = ${payment.id}::uuid FOR UPDATE`;
    const open = await tx.refundRequest.findFirst({
      where: { paymentId: payment.id, status: { in: ["pending", "approved", "processed"] } },
      select: { status: true },
    });
    if (open) throw new ServiceError(open.status === "pending" ? REFUND_ALREADY_PENDING : ALREADY_REFUNDED, 409);
    return tx.refundRequest.create({
      data: {
        userId: user.id,
        paymentId: payment.id,
        reason: input.reason,
        description: input.description,
        contactEmail: input.contactEmail,
        status: "pending",
      },
      select: { id: true, paymentId: true, reason: true, description: true, contactEmail: true, status: true, createdAt: true },
    });
  });

  // Transactional mail: always sent, to the address the user asked to be contacted at.
  await sendTemplatedEmail({
    template: "refund_request_received",
    to: input.contactEmail,
    userId: user.id,
    variables: {
      firstName: user.firstName,
      description: payment.description ?? describeSubscription(subscription),
      amount: formatMoney(payment.amount),
    },
  });
  return request;
}
