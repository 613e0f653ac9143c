import { prisma } from "~/lib/db.server.ts";
import type { Prisma } from "~/generated/prisma/client.ts";
import { conflict, notFound, ServiceError } from "~/lib/errors.server.ts";
import { formatLongDate } from "~/lib/format.ts";
import { logger } from "~/lib/logger.server.ts";
import { type Actor, recordAudit } from "../admin/audit.server.ts";
import { activeLicenceWhere, activeWhere, lapsedWhere } from "../licensing/access.server.ts";
import { mayHaveRecord } from "../practices/practices.server.ts";
import { getPaymentProvider } from "~/lib/payments/index.server.ts";
import { autoRenewChangedMail, sendSubscriptionMail } from "./subscription-mail.server.ts";

// A user's subscriptions: their rows as the /api and the account screens show them, and which
// count as active (docs/architecture.md, "Access rules"). Granting, extending and
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
  autoRenew: true,
  createdAt: true,
  category: { select: { name: true } },
  animation: { select: { title: true } },
} satisfies Prisma.SubscriptionSelect;

type SubscriptionRow = Prisma.SubscriptionGetPayload<{ select: typeof subscriptionSelect }>;

/** The /api shape (id, type, status, animationId, categoryId, startDate, endDate, price). */
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
  if (s.type === "category") return `Category license: ${s.category?.name ?? "deleted category"}`;
  return `Individual license: ${s.animation?.title ?? "deleted animation"}`;
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

export async function listActiveSubscriptions(userId: string, now = new Date()) {
  const rows = await prisma.subscription.findMany({
    where: activeWhere(userId, now),
    orderBy: [{ endDate: "asc" }, { id: "asc" }],
    take: HISTORY_LIMIT,
    select: { ...subscriptionSelect, stripeSubscriptionId: true, nextRenewalAttemptAt: true },
  });
  return rows.map(({ stripeSubscriptionId, nextRenewalAttemptAt, ...s }) => ({
    ...toSubscriptionJson(s),
    autoRenew: s.autoRenew,
    // Set while a failed renewal payment is retried ("Payment failed — we'll retry on …").
    paymentRetryAt: nextRenewalAttemptAt,
    // Only a subscription some provider renews has a renewal switch (seeded history and an
    // admin-reactivated term simply end).
    renewable: stripeSubscriptionId !== null,
    label: describeSubscription(s),
  }));
}

/** The member's terms that ended after failed renewal payments, newest first (a few: /billing says so). */
export async function listEndedAfterFailedPayments(userId: string) {
  const rows = await prisma.subscription.findMany({
    where: { userId, endedAfterFailedPayments: true },
    orderBy: [{ endDate: "desc" }, { id: "desc" }],
    take: 10,
    select: subscriptionSelect,
  });
  return rows.map((s) => ({ id: s.id, label: describeSubscription(s), endDate: s.endDate }));
}

/**
 * accountType follows the subscriptions: every item sold includes premium access (licences
 * "include premium access"), so a user is premium while any subscription is active and
 * unexpired, free once none is. Called in the same transaction as every change of a user's
 * subscriptions (fulfilment, expiry, cancellation, refund, reactivation).
 */
export async function syncAccountType(tx: Prisma.TransactionClient, userId: string, now = new Date()) {
  const active = await tx.subscription.findFirst({ where: activeWhere(userId, now), select: { id: true } });
  await tx.user.update({ where: { id: userId }, data: { accountType: active ? "premium" : "free" } });
}

// ---- after the purchase: renewal switch, admin cancel / reactivate, expiry ----
// (The reminders before an end or a renewal are in renewal-reminders.server.ts.)

/** Sweeps work in bounded batches, so one run never loads an unbounded set of rows. */
export const SWEEP_BATCH = 100;

export const SUBSCRIPTION_NOT_FOUND = "Subscription not found";
export const AUTO_RENEW_PROVIDER_FAILED = "We could not change auto-renew with the payment provider. Nothing was changed; please try again.";
export const CANCEL_PROVIDER_FAILED = "The payment provider could not cancel this subscription. Nothing was changed; please try again.";
export const ONLY_ACTIVE_CAN_BE_CANCELED = "Only active subscriptions can be canceled.";
export const ONLY_CANCELED_CAN_BE_REACTIVATED = "Only canceled subscriptions can be reactivated.";

const managedSelect = {
  id: true,
  userId: true,
  practiceId: true,
  type: true,
  price: true,
  user: { select: { id: true, email: true, firstName: true } },
  category: { select: { name: true } },
  animation: { select: { title: true } },
  status: true,
  endDate: true,
  autoRenew: true,
  stripeSubscriptionId: true,
  updatedAt: true,
} satisfies Prisma.SubscriptionSelect;

/**
 * The provider subscription to tell, if any. Ids made by the local test mode (test_sub_…) have
 * nothing at a provider behind them: after a switch to Stripe keys they stay ours alone.
 */
const providerSubscriptionId = (stripeSubscriptionId: string | null) =>
  stripeSubscriptionId && !stripeSubscriptionId.startsWith("test_sub_") ? stripeSubscriptionId : null;

/**
 * The member's renewal switch on one of their own active subscriptions (404 otherwise, with no
 * hint whether someone else's exists). The provider is told first: if it refuses, nothing
 * changes here and the member can try again; if our update then failed, Stripe's
 * customer.subscription.updated webhook brings the row to the same state. Calling it twice with
 * the same flag changes nothing the second time (and does not call the provider again).
 */

/** The practice's active licences as billing lists them, for its owners and managers (decision 030). */
export async function listPracticeSubscriptions(practiceId: string, now = new Date()) {
  const rows = await prisma.subscription.findMany({
    where: activeLicenceWhere(now, { practiceId }),
    orderBy: [{ endDate: "asc" }, { id: "asc" }],
    take: HISTORY_LIMIT,
    select: { ...subscriptionSelect, seats: true, stripeSubscriptionId: true, nextRenewalAttemptAt: true },
  });
  return rows.map(({ stripeSubscriptionId, nextRenewalAttemptAt, seats, ...s }) => ({
    ...toSubscriptionJson(s),
    autoRenew: s.autoRenew,
    paymentRetryAt: nextRenewalAttemptAt,
    renewable: stripeSubscriptionId !== null,
    label: describeSubscription(s),
    seats,
  }));
}

export async function setAutoRenew(user: { id: string }, subscriptionId: string, autoRenew: boolean, now = new Date()) {
  const row = await prisma.subscription.findUnique({ where: { id: subscriptionId }, select: managedSelect }).catch(() => null);
  if (!row || !(await mayHaveRecord({ id: user.id }, row, "billing")) || row.status !== "active" || !row.endDate || row.endDate <= now) {
    throw notFound(SUBSCRIPTION_NOT_FOUND);
  }
  if (row.autoRenew === autoRenew) return { id: row.id, autoRenew, endDate: row.endDate };

  const providerId = providerSubscriptionId(row.stripeSubscriptionId);
  if (providerId) {
    try {
      // The key names this change of this row's state: a retried request is one change at the
      // provider, a later change (a new updatedAt) is a new one.
      await getPaymentProvider().setAutoRenew(providerId, autoRenew, `auto-renew-${row.id}-${autoRenew ? "on" : "off"}-${row.updatedAt.getTime()}`);
    } catch (error) {
      logger.error({ err: error, subscriptionId: row.id }, "provider setAutoRenew failed");
      throw new ServiceError(AUTO_RENEW_PROVIDER_FAILED, 502);
    }
  }
  // Turned back on, the term has a renewal again: a later "off" earns a fresh reminder.
  // Conditional on the old state: the provider's webhook for this change may have switched the
  // row first, and then it sent the confirmation (fulfilment.server.ts).
  const { count } = await prisma.subscription.updateMany({
    where: { id: row.id, autoRenew: !autoRenew },
    data: autoRenew ? { autoRenew: true, renewalReminderAt: null } : { autoRenew: false },
  });
  if (count === 1) {
    await sendSubscriptionMail(autoRenewChangedMail(row.user, { itemName: describeSubscription(row), endDate: row.endDate, price: row.price }, autoRenew));
  }
  return { id: row.id, autoRenew, endDate: row.endDate };
}

/**
 * Admin Cancel: an active subscription becomes canceled, premium access is lost
 * immediately, the payment provider's subscription is cancelled automatically, and the step is
 * reversible (Reactivate). The provider is asked first, outside the transaction: if it fails,
 * nothing changed and the admin can retry ("Failed to cancel subscription"); the other order
 * could leave a row canceled here while the provider keeps charging renewals. If our
 * transaction then failed, the provider has stopped renewals and the member keeps the access
 * they paid for until the admin retries. A second call on a canceled row returns it unchanged.
 */
export async function cancelSubscription(actor: Actor, subscriptionId: string, now = new Date()) {
  const row = await prisma.subscription.findUnique({ where: { id: subscriptionId }, select: managedSelect }).catch(() => null);
  if (!row) throw notFound(SUBSCRIPTION_NOT_FOUND);
  if (row.status === "canceled") return { id: row.id, status: row.status, endDate: row.endDate };
  if (row.status !== "active") throw conflict(ONLY_ACTIVE_CAN_BE_CANCELED);

  const providerId = providerSubscriptionId(row.stripeSubscriptionId);
  if (providerId) {
    try {
      await getPaymentProvider().cancelNow(providerId, `cancel-${row.id}-${row.updatedAt.getTime()}`);
    } catch (error) {
      logger.error({ err: error, subscriptionId: row.id, adminId: actor.id }, "provider cancelNow failed");
      throw new ServiceError(CANCEL_PROVIDER_FAILED, 502);
    }
  }
  return prisma.$transaction(async (tx) => {
    // Conditional: a concurrent cancel (or expiry) that got here first leaves nothing to do.
    // The provider's subscription is gone for good: unlinked, so its late "deleted" webhook finds
    // nothing to end after a reactivation, and no renewal switch is ever sent to it again.
    const { count } = await tx.subscription.updateMany({
      where: { id: row.id, status: "active" },
      data: { status: "canceled", autoRenew: false, stripeSubscriptionId: null },
    });
    await syncAccountType(tx, row.userId, now);
    const after = await tx.subscription.findUniqueOrThrow({ where: { id: row.id }, select: { id: true, status: true, endDate: true } });
    if (count > 0) {
      await recordAudit(tx, actor, {
        action: "subscription.cancel",
        entityType: "subscription",
        entityId: row.id,
        summary: `Canceled a ${row.type} subscription of ${row.user.email}`,
        before: { status: row.status, autoRenew: row.autoRenew },
        after: { status: after.status, autoRenew: false },
      });
    }
    logger.info({ subscriptionId: row.id, adminId: actor.id }, "subscription canceled by admin");
    return after;
  });
}

/**
 * Admin Reactivate: a canceled subscription becomes active again; access returns and continues
 * until the original end date, with no extra charge. Only our row changes: the
 * provider's subscription was ended by the cancel and is not resumed, so the term does not
 * renew (autoRenew stays off and the member gets the renewal reminder). A term that has already
 * ended cannot come back (409). A second call on an active row returns it unchanged.
 */
export async function reactivateSubscription(actor: Actor, subscriptionId: string, now = new Date()) {
  const row = await prisma.subscription.findUnique({ where: { id: subscriptionId }, select: managedSelect }).catch(() => null);
  if (!row) throw notFound(SUBSCRIPTION_NOT_FOUND);
  if (row.status === "active") return { id: row.id, status: row.status, endDate: row.endDate };
  if (row.status !== "canceled") throw conflict(ONLY_CANCELED_CAN_BE_REACTIVATED);
  if (!row.endDate || row.endDate <= now) {
    throw conflict(
      row.endDate
        ? `This subscription ended on ${formatLongDate(row.endDate)} and cannot be reactivated. The member needs a new purchase.`
        : "This subscription has no end date and cannot be reactivated.",
    );
  }
  return prisma.$transaction(async (tx) => {
    const { count } = await tx.subscription.updateMany({
      where: { id: row.id, status: "canceled", endDate: { gt: now } },
      data: { status: "active", autoRenew: false },
    });
    await syncAccountType(tx, row.userId, now);
    const after = await tx.subscription.findUniqueOrThrow({ where: { id: row.id }, select: { id: true, status: true, endDate: true } });
    if (count > 0) {
      await recordAudit(tx, actor, {
        action: "subscription.reactivate",
        entityType: "subscription",
        entityId: row.id,
        summary: `Reactivated a ${row.type} subscription of ${row.user.email} until ${formatLongDate(row.endDate)}`,
        before: { status: row.status },
        after: { status: after.status },
      });
    }
    logger.info({ subscriptionId: row.id, adminId: actor.id }, "subscription reactivated by admin");
    return after;
  });
}

/**
 * Marks active subscriptions whose endDate has passed `expired`, a batch per transaction, and
 * brings each affected user's accountType along (premium stays while another subscription is
 * active). The update is conditional, so two instances sweeping at once expire each row once.
 */
export async function expireEndedSubscriptions(now = new Date()) {
  let expired = 0;
  for (;;) {
    const batch = await prisma.subscription.findMany({
      where: lapsedWhere(now),
      orderBy: { endDate: "asc" },
      take: SWEEP_BATCH,
      select: { id: true, userId: true },
    });
    if (!batch.length) break;
    expired += await prisma.$transaction(async (tx) => {
      const { count } = await tx.subscription.updateMany({
        where: lapsedWhere(now, { id: { in: batch.map((s) => s.id) } }),
        data: { status: "expired" },
      });
      for (const userId of new Set(batch.map((s) => s.userId))) await syncAccountType(tx, userId, now);
      return count;
    });
    if (batch.length < SWEEP_BATCH) break;
  }
  return { expired };
}

/**
 * The provider's page for the member's payment methods ("Manage payment method" on /billing),
 * or null when there is none: test mode has no portal, and a member who never paid through
 * Stripe has no Stripe customer to manage.
 */
export async function getBillingPortalUrl(userId: string, returnUrl: string) {
  const provider = getPaymentProvider();
  if (provider.name !== "stripe") return null;
  const user = await prisma.user.findUnique({ where: { id: userId }, select: { stripeCustomerId: true } });
  if (!user?.stripeCustomerId) return null;
  return provider.billingPortalUrl(user.stripeCustomerId, returnUrl);
}

/** Whether /billing offers "Manage payment method" (the same conditions, without calling the provider). */
export async function hasBillingPortal(userId: string) {
  if (getPaymentProvider().name !== "stripe") return false;
  const user = await prisma.user.findUnique({ where: { id: userId }, select: { stripeCustomerId: true } });
  return !!user?.stripeCustomerId;
}
