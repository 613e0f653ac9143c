import { prisma } from "~/lib/db.server.ts";
import { Prisma } from "~/generated/prisma/client.ts";
import { formatLongDate, formatMoney } from "~/lib/format.ts";
import { logger } from "~/lib/logger.server.ts";
import { metrics } from "~/lib/metrics.server.ts";
import { appUrl } from "~/lib/mail.server.ts";
import type { PaymentEvent, ProviderName } from "~/lib/payments/provider.server.ts";
import { issueInvoice } from "./invoices.server.ts";
import { recordSavedCard } from "./payment-methods.server.ts";
import { completeRefund } from "./refunds.server.ts";
import { autoRenewChangedMail, sendSubscriptionMail, type SubscriptionMail } from "./subscription-mail.server.ts";
import { describeSubscription, syncAccountType } from "./subscriptions.server.ts";

// Fulfilment, exactly once (docs/architecture.md, "Payments"; decision 007): every PaymentEvent — a
// Stripe webhook, a client-side confirmation, a test-mode button — goes through applyPaymentEvent.
// One transaction per event first records it in ProcessedEvent; a second delivery (replayed or
// concurrent) hits the primary key and changes nothing. A successful payment is keyed by the
// provider's payment id, so the webhook and the confirmation of one payment make one payment.

type Tx = Prisma.TransactionClient;
type Mail = SubscriptionMail;

/** One year on, by the calendar (a leap day lands on 1 March). */
export function oneYearAfter(date: Date) {
  const next = new Date(date);
  next.setUTCFullYear(next.getUTCFullYear() + 1);
  return next;
}

/** The ProcessedEvent key of an event: the payment for a success (whatever delivered it), else the event. */
export function eventKey(event: PaymentEvent) {
  return event.kind === "payment.succeeded" ? `payment:${event.paymentId}` : event.eventId;
}

// Events that arrive before the subscription they are about (Stripe does not order webhooks):
// kept as ProcessedEvent rows keyed by the provider's subscription id, applied on creation.
const pendingEndKey = (providerSubscriptionId: string) => `ended:${providerSubscriptionId}`;
const pendingRenewalKey = (providerSubscriptionId: string) => `renewal:${providerSubscriptionId}`;

export async function applyPaymentEvent(event: PaymentEvent, provider: ProviderName, now = new Date()): Promise<{ applied: boolean }> {
  const counted = (outcome: "applied" | "duplicate" | "ignored" | "error") => metrics().paymentEvents.inc({ kind: event.kind, outcome });
  if (event.kind === "ignored") {
    counted("ignored");
    return { applied: false };
  }
  // A saved card asks the provider what was saved before recording it, once per card setup.
  if (event.kind === "card.saved") {
    const applied = await recordSavedCard(event.setupId);
    counted(applied ? "applied" : "duplicate");
    return { applied };
  }
  const mails: Mail[] = [];
  try {
    await prisma.$transaction(async (tx) => {
      await tx.processedEvent.create({ data: { id: eventKey(event), provider, type: event.kind } });
      await apply(tx, event, provider, now, mails);
    });
  } catch (error) {
    // Already applied: a replay, or a concurrent delivery that committed first (its row is
    // there now). Any other failure propagates: the webhook answers 5xx and Stripe retries.
    if (isUniqueViolation(error) && (await prisma.processedEvent.findUnique({ where: { id: eventKey(event) }, select: { id: true } }))) {
      counted("duplicate");
      return { applied: false };
    }
    counted("error");
    throw error;
  }
  counted("applied");
  // Mail leaves after commit: a rolled-back event never told anyone it was paid.
  for (const mail of mails) await sendSubscriptionMail(mail);
  return { applied: true };
}

/** P2002, or the driver adapter's own error when the violation happens inside a transaction. */
function isUniqueViolation(error: unknown): boolean {
  if (error instanceof Prisma.PrismaClientKnownRequestError) return error.code === "P2002";
  if (!(error instanceof Error)) return false;
  const cause = (error as { cause?: { kind?: string; originalCode?: string; code?: string } }).cause;
  return (
    cause?.kind === "UniqueConstraintViolation" ||
    cause?.originalCode === "23505" ||
    cause?.code === "23505" ||
    /duplicate key value violates unique constraint/.test(error.message)
  );
}

async function apply(tx: Tx, event: Exclude<PaymentEvent, { kind: "ignored" | "card.saved" }>, provider: ProviderName, now: Date, mails: Mail[]) {
  switch (event.kind) {
    case "payment.succeeded":
      return event.reason === "first" ? applyFirstPayment(tx, event, provider, now, mails) : applyRenewal(tx, event, now, mails);
    case "payment.failed":
      return applyFailure(tx, event, now, mails);
    case "subscription.renewal_changed":
      return applyRenewalSwitch(tx, event, provider, now, mails);
    case "subscription.ended": {
      const subscription = await tx.subscription.findFirst({ where: { stripeSubscriptionId: event.providerSubscriptionId }, select: { id: true } });
      if (!subscription) return remember(tx, pendingEndKey(event.providerSubscriptionId), provider, "subscription.ended");
      return endSubscription(tx, subscription.id, now, event.afterFailedPayments === true);
    }
    case "payment.refunded":
      await completeRefund(tx, event.paymentIntentId, now);
      return;
  }
}

async function remember(tx: Tx, id: string, provider: string, type: string) {
  await tx.processedEvent.upsert({ where: { id }, create: { id, provider, type }, update: { type } });
}

/**
 * Ended by the provider: canceled when before its end date, expired at or after it. After failed
 * payments (the provider gave up on the renewal) it ends now, marked so, whatever grace was left.
 */
async function endSubscription(tx: Tx, subscriptionId: string, now: Date, afterFailedPayments = false) {
  const subscription = await tx.subscription.findUniqueOrThrow({ where: { id: subscriptionId }, select: { userId: true, status: true, endDate: true } });
  if (subscription.status === "active" || subscription.status === "pending") {
    const ended = afterFailedPayments || (subscription.endDate && subscription.endDate.getTime() <= now.getTime()) ? "expired" : "canceled";
    await tx.subscription.update({
      where: { id: subscriptionId },
      data: afterFailedPayments
        ? { status: ended, autoRenew: false, nextRenewalAttemptAt: null, endedAfterFailedPayments: true, endDate: now }
        : { status: ended, autoRenew: false },
    });
  }
  await syncAccountType(tx, subscription.userId, now);
}

/**
 * The renewal switch changed at the provider (our own /billing call, or its portal). The member
 * is told only when our row changes here: when /billing made the change, whichever of its update
 * and this webhook comes second finds the row already switched, so one confirmation goes out.
 */
async function applyRenewalSwitch(
  tx: Tx,
  event: Extract<PaymentEvent, { kind: "subscription.renewal_changed" }>,
  provider: ProviderName,
  now: Date,
  mails: Mail[],
) {
  const subscription = await tx.subscription.findFirst({
    where: { stripeSubscriptionId: event.providerSubscriptionId },
    include: { user: true, category: true, animation: true },
  });
  if (!subscription) return remember(tx, pendingRenewalKey(event.providerSubscriptionId), provider, event.autoRenew ? "renewal:on" : "renewal:off");
  const { count } = await tx.subscription.updateMany({ where: { id: subscription.id, autoRenew: !event.autoRenew }, data: { autoRenew: event.autoRenew } });
  if (count === 1 && subscription.status === "active" && subscription.endDate && subscription.endDate > now) {
    mails.push(
      autoRenewChangedMail(
        subscription.user,
        { itemName: describeSubscription(subscription), endDate: subscription.endDate, price: subscription.price },
        event.autoRenew,
      ),
    );
  }
}

type Succeeded = Extract<PaymentEvent, { kind: "payment.succeeded" }>;

async function applyFirstPayment(tx: Tx, event: Succeeded, provider: ProviderName, now: Date, mails: Mail[]) {
  const checkout = event.checkoutId ? await tx.checkoutSession.findUnique({ where: { id: event.checkoutId }, include: { user: true } }) : null;
  if (!checkout) {
    // Nothing of ours to fulfil (another environment's checkout on a shared Stripe account):
    // recorded as seen so the provider stops retrying, and logged for a person to look at.
    logger.error({ paymentId: event.paymentId, checkoutId: event.checkoutId }, "a first payment for an unknown checkout was not fulfilled");
    return;
  }
  if (checkout.status === "completed" && checkout.subscriptionId) {
    // A checkout is fulfilled once, even if the provider reports its first payment under two ids.
    logger.warn({ paymentId: event.paymentId, checkoutId: checkout.id }, "a second first payment for a completed checkout was ignored");
    return;
  }
  const endDate = event.periodEnd ?? oneYearAfter(now);
  const subscription = await tx.subscription.create({
    data: {
      userId: checkout.userId,
      type: checkout.type,
      status: "active",
      startDate: now,
      endDate,
      price: checkout.amount,
      animationId: checkout.animationId,
      categoryId: checkout.categoryId,
      stripeSubscriptionId: event.providerSubscriptionId,
      practiceId: checkout.practiceId,
      seats: checkout.seats,
    },
    select: { id: true },
  });
  const payment = await tx.payment.create({
    data: {
      userId: checkout.userId,
      subscriptionId: subscription.id,
      amount: checkout.amount,
      currency: checkout.currency,
      status: "completed",
      subscriptionType: checkout.type,
      stripePaymentIntentId: event.paymentIntentId,
      stripeInvoiceId: event.paymentId,
      description: checkout.description,
      // The terms its checkout named: accepted by paying, printed on its receipt and certificate.
      licenceTermsVersion: checkout.licenceTermsVersion,
      practiceId: checkout.practiceId,
    },
    select: { id: true },
  });
  await tx.checkoutSession.update({ where: { id: checkout.id }, data: { status: "completed", failureMessage: null, subscriptionId: subscription.id } });
  if (event.providerCustomerId && !checkout.user.stripeCustomerId && provider === "stripe") {
    await tx.user.update({ where: { id: checkout.userId }, data: { stripeCustomerId: event.providerCustomerId } });
  }
  // The card it was paid with renews it: /billing shows it as the card on file.
  if (event.card) {
    const { brand, last4, expMonth, expYear } = event.card;
    await tx.user.update({ where: { id: checkout.userId }, data: { cardBrand: brand, cardLast4: last4, cardExpMonth: expMonth, cardExpYear: expYear } });
  }

  if (event.providerSubscriptionId) {
    const renewal = await tx.processedEvent.findUnique({ where: { id: pendingRenewalKey(event.providerSubscriptionId) } });
    if (renewal) await tx.subscription.update({ where: { id: subscription.id }, data: { autoRenew: renewal.type === "renewal:on" } });
    const ended = await tx.processedEvent.findUnique({ where: { id: pendingEndKey(event.providerSubscriptionId) } });
    if (ended) await endSubscription(tx, subscription.id, now);
  }
  await syncAccountType(tx, checkout.userId, now);
  const invoice = await issueInvoice(tx, payment.id, now, event.tax ?? null);

  mails.push({
    template: "purchase_receipt",
    to: checkout.user.email,
    userId: checkout.userId,
    invoiceId: invoice.id,
    variables: {
      firstName: checkout.user.firstName,
      itemName: checkout.description,
      description: checkout.description,
      amount: formatMoney(checkout.amount),
      date: formatLongDate(now),
      endDate: formatLongDate(endDate),
      receiptUrl: `${appUrl()}/billing/receipts/${payment.id}`,
    },
  });
}

async function applyRenewal(tx: Tx, event: Succeeded, now: Date, mails: Mail[]) {
  const subscription = event.providerSubscriptionId
    ? await tx.subscription.findFirst({
        where: { stripeSubscriptionId: event.providerSubscriptionId },
        include: { user: true, category: true, animation: true },
      })
    : null;
  if (!subscription) {
    logger.error({ paymentId: event.paymentId, providerSubscriptionId: event.providerSubscriptionId }, "a renewal for an unknown subscription was not applied");
    return;
  }
  // A retried renewal pays from the end of the term it renews, not from the grace it was given.
  const due = subscription.renewalDueAt ?? subscription.endDate;
  const from = due && due > now ? due : now;
  const endDate = event.periodEnd ?? oneYearAfter(from);
  const amount = new Prisma.Decimal(event.amountCents).div(100);
  const description = `Renewal: ${itemName(subscription)}`;
  await tx.subscription.update({
    where: { id: subscription.id },
    data: {
      status: "active",
      endDate,
      renewalReminderAt: null,
      renewalNoticeDays: null,
      renewalDueAt: null,
      failedRenewalAttempts: 0,
      nextRenewalAttemptAt: null,
    },
  });
  const payment = await tx.payment.create({
    data: {
      userId: subscription.userId,
      subscriptionId: subscription.id,
      amount,
      status: "completed",
      subscriptionType: subscription.type,
      stripePaymentIntentId: event.paymentIntentId,
      stripeInvoiceId: event.paymentId,
      description,
      practiceId: subscription.practiceId,
    },
    select: { id: true },
  });
  await syncAccountType(tx, subscription.userId, now);
  const invoice = await issueInvoice(tx, payment.id, now, event.tax ?? null);
  mails.push({
    template: "renewal_receipt",
    to: subscription.user.email,
    userId: subscription.userId,
    invoiceId: invoice.id,
    variables: {
      firstName: subscription.user.firstName,
      itemName: itemName(subscription),
      amount: formatMoney(amount),
      date: formatLongDate(now),
      endDate: formatLongDate(endDate),
      receiptUrl: `${appUrl()}/billing/receipts/${payment.id}`,
      billingUrl: `${appUrl()}/billing`,
    },
  });
}

function itemName(s: { type: string; category: { name: string } | null; animation: { title: string } | null }) {
  if (s.type === "global") return "Premium yearly subscription";
  if (s.type === "category") return `Category license: ${s.category?.name ?? "deleted category"}`;
  return `Individual license: ${s.animation?.title ?? "deleted animation"}`;
}

/**
 * A renewal's grace while its payment is retried: access runs to a day past the next try, so
 * the try (Stripe's, or the hourly billing sweep's) and its webhook land before access would end.
 */
const RETRY_GRACE_MS = 24 * 60 * 60 * 1000;

async function applyFailure(tx: Tx, event: Extract<PaymentEvent, { kind: "payment.failed" }>, now: Date, mails: Mail[]) {
  if (event.checkoutId) {
    // A first payment refused: the attempt is declined and nothing is granted. A checkout that
    // was paid meanwhile (a retry with another card succeeded) stays completed.
    await tx.checkoutSession.updateMany({
      where: { id: event.checkoutId, status: { in: ["open", "expired"] } },
      data: { status: "declined", failureMessage: event.message },
    });
    return;
  }
  if (!event.providerSubscriptionId) return;
  const subscription = await tx.subscription.findFirst({
    where: { stripeSubscriptionId: event.providerSubscriptionId },
    include: { user: true, category: true, animation: true },
  });
  if (!subscription || subscription.status !== "active" || !subscription.endDate) return;
  const variables = {
    firstName: subscription.user.firstName,
    itemName: itemName(subscription),
    amount: formatMoney(subscription.price),
    message: event.message,
    billingUrl: `${appUrl()}/billing`,
  };
  const dunning = {
    renewalDueAt: subscription.renewalDueAt ?? subscription.endDate,
    failedRenewalAttempts: subscription.failedRenewalAttempts + 1,
  };
  if (event.nextAttemptAt) {
    // Dunning: the provider tries again; access continues until a day past that try.
    const graceEnd = new Date(event.nextAttemptAt.getTime() + RETRY_GRACE_MS);
    await tx.subscription.update({
      where: { id: subscription.id },
      data: { ...dunning, nextRenewalAttemptAt: event.nextAttemptAt, endDate: graceEnd > subscription.endDate ? graceEnd : subscription.endDate },
    });
    mails.push({
      template: "payment_failed",
      to: subscription.user.email,
      userId: subscription.userId,
      variables: { ...variables, retryDate: formatLongDate(event.nextAttemptAt) },
    });
    return;
  }
  // The last try failed: the licence ends now, and nothing renews it any more.
  await tx.subscription.update({
    where: { id: subscription.id },
    data: { ...dunning, nextRenewalAttemptAt: null, status: "expired", autoRenew: false, endDate: now, endedAfterFailedPayments: true },
  });
  await syncAccountType(tx, subscription.userId, now);
  mails.push({ template: "renewal_ended_unpaid", to: subscription.user.email, userId: subscription.userId, variables });
}
