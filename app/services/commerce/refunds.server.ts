import { prisma } from "~/lib/db.server.ts";
import type { Prisma } from "~/generated/prisma/client.ts";
import { conflict, notFound, ServiceError } from "~/lib/errors.server.ts";
import { logger } from "~/lib/logger.server.ts";
import { metrics } from "~/lib/metrics.server.ts";
import { getPaymentProvider } from "~/lib/payments/index.server.ts";
import { formatMoney } from "~/lib/format.ts";
import { sendTemplatedEmail } from "~/lib/mail.server.ts";
import { type RefundRequestInput, UUID_RE } from "~/validation/account.ts";
import type { PublicUser } from "../auth/credentials.server.ts";
import { findOwnPayment } from "./payments.server.ts";
import { type Actor, recordAudit } from "../admin/audit.server.ts";
import { ADMIN_NOTES_REQUIRED, downloadsNotConfirmed } from "~/validation/admin-refunds.ts";
import { downloadedFileCount } from "../media/package-delivery.server.ts";
import { describeSubscription, HISTORY_LIMIT, subscriptionSelect, syncAccountType, toSubscriptionJson } from "./subscriptions.server.ts";
import { issueCreditNote } from "./invoices.server.ts";

// Refund requests by the member (/refund and POST /api/refunds/request; decision 004): what
// may be refunded, and the request filed for the admin; the admin's decision, and the refund
// through the payment provider.

const DAY_MS = 24 * 60 * 60 * 1000;
/** Refund window 30 days: a payment older than that cannot be refunded. */
export const REFUND_WINDOW_DAYS = 30;
export const REFUND_WINDOW_MESSAGE = "Refunds are available within 30 days of purchase.";

export const NO_COMPLETED_PAYMENT = "There is no completed payment to refund for this subscription.";
export const REFUND_ALREADY_PENDING = "A refund request for this payment is already pending.";
export const ALREADY_REFUNDED = "This payment has already been refunded.";

/**
 * Why a payment cannot be refunded now, or null: the one rule behind both the form's offer and
 * the request itself. `openRequest` is the status of a pending, approved or processed request.
 */
function refundRefusal(payment: { status: string; createdAt: Date } | null, openRequest: string | null, now: Date) {
  if (payment?.status === "refunded" || (openRequest && openRequest !== "pending")) return new ServiceError(ALREADY_REFUNDED, 409);
  if (payment?.status !== "completed") return new ServiceError(NO_COMPLETED_PAYMENT, 400, "subscriptionId");
  if (openRequest) return new ServiceError(REFUND_ALREADY_PENDING, 409);
  if (now.getTime() > refundWindowEnd(payment.createdAt).getTime()) return new ServiceError(REFUND_WINDOW_MESSAGE, 400);
  return null;
}

/** The moment a payment made at `paidAt` leaves the refund window (30 days): the rule's one statement. */
export function refundWindowEnd(paidAt: Date) {
  return new Date(paidAt.getTime() + REFUND_WINDOW_DAYS * DAY_MS);
}

/**
 * What the refund form shows (subscriptions with status active or paid). "Paid" is read as
 * "has a payment": the user's subscriptions that are active or were paid at some time, newest
 * first, bounded. Each is either refundable (its latest completed payment is inside the 30-day
 * window and has no open request) and offered, or listed with the reason it cannot be, so the
 * member learns it before writing an explanation rather than after submitting it.
 */
export async function getRefundOptions(userId: string, now = new Date()) {
  const rows = await prisma.subscription.findMany({
    where: { userId, OR: [{ status: "active" }, { payments: { some: { status: { in: ["completed", "refunded"] } } } }] },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: HISTORY_LIMIT,
    select: {
      ...subscriptionSelect,
      payments: {
        where: { status: { in: ["completed", "refunded"] } },
        orderBy: { createdAt: "desc" },
        take: 1,
        select: {
          id: true,
          amount: true,
          status: true,
          createdAt: true,
          description: true,
          refundRequests: { where: { status: { in: ["pending", "approved", "processed"] } }, take: 1, select: { status: true } },
        },
      },
    },
  });
  const refundable = [];
  const unavailable = [];
  for (const s of rows) {
    const payment = s.payments[0] ?? null;
    const refusal = refundRefusal(payment, payment?.refundRequests[0]?.status ?? null, now);
    const option = {
      ...toSubscriptionJson(s),
      label: describeSubscription(s),
      latestPayment: payment && { id: payment.id, amount: Number(payment.amount), createdAt: payment.createdAt, description: payment.description },
    };
    if (refusal) unavailable.push({ ...option, reason: refusal.message });
    else refundable.push(option);
  }
  return { refundable, unavailable };
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
  const refusal = refundRefusal(payment, null, now);
  if (refusal) throw refusal;

  const request = await prisma.$transaction(async (tx) => {
    await tx.$queryRaw`SELECT "id" FROM "Payment" WHERE "id" = ${payment.id}::uuid FOR UPDATE`;
    const open = await tx.refundRequest.findFirst({
      where: { paymentId: payment.id, status: { in: ["pending", "approved", "processed"] } },
      select: { status: true },
    });
    const refused = refundRefusal(payment, open?.status ?? null, now);
    if (refused) throw refused;
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

  metrics().refundDecisions.inc({ outcome: "requested" });
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

/**
 * What the refund form offers: the refundable subscriptions and, when the form was opened from
 * a payment (`/refund?payment=`), that payment. Someone else's payment id is answered like a
 * missing one (404). The payment preselects its subscription only when that one may be refunded.
 */
export async function getRefundForm(userId: string, paymentId: string | null) {
  const [{ refundable, unavailable }, payment] = await Promise.all([
    getRefundOptions(userId),
    paymentId && UUID_RE.test(paymentId) ? findOwnPayment(userId, paymentId) : Promise.resolve(null),
  ]);
  if (paymentId && !payment) throw notFound("Payment not found");
  const selectable = payment?.status === "completed" && refundable.some((s) => s.latestPayment?.id === payment.id);
  return {
    subscriptions: refundable,
    unavailable,
    payment: payment && {
      id: payment.id,
      subscriptionId: selectable ? payment.subscriptionId : null,
      description: payment.description,
      amount: payment.amount,
      status: payment.status,
      createdAt: payment.createdAt,
    },
  };
}

/**
 * The provider has returned a payment's money (Stripe's charge.refunded, or test mode at once):
 * the payment is refunded, the subscription it paid for ends now, an approved request for it is
 * processed, and accountType follows. Idempotent: a second call changes nothing.
 */
export async function completeRefund(tx: Prisma.TransactionClient, paymentIntentId: string, now = new Date()) {
  const payment = await tx.payment.findUnique({ where: { stripePaymentIntentId: paymentIntentId }, select: refundedPaymentSelect });
  if (!payment) return null;
  return applyRefund(tx, payment, now);
}

const refundedPaymentSelect = { id: true, userId: true, status: true, subscriptionId: true } satisfies Prisma.PaymentSelect;

/** completeRefund's effects for a payment found by our own id (one with no provider payment intent). */
async function completeLocalRefund(tx: Prisma.TransactionClient, paymentId: string, now: Date) {
  const payment = await tx.payment.findUnique({ where: { id: paymentId }, select: refundedPaymentSelect });
  if (!payment) return null;
  return applyRefund(tx, payment, now);
}

async function applyRefund(tx: Prisma.TransactionClient, payment: Prisma.PaymentGetPayload<{ select: typeof refundedPaymentSelect }>, now: Date) {
  if (payment.status !== "refunded") await tx.payment.update({ where: { id: payment.id }, data: { status: "refunded" } });
  if (payment.subscriptionId) {
    await tx.subscription.updateMany({ where: { id: payment.subscriptionId, status: { in: ["active", "pending"] } }, data: { status: "canceled" } });
  }
  await tx.refundRequest.updateMany({ where: { paymentId: payment.id, status: "approved" }, data: { status: "processed", processedAt: now } });
  await syncAccountType(tx, payment.userId, now);
  await issueCreditNote(tx, payment.id, now);
  return payment;
}

// ---- the admin's decision (/admin/refunds) ----

/** A refund decision requires admin notes ("Admin notes are required"). */
export { ADMIN_NOTES_REQUIRED };
export const REFUND_REQUEST_NOT_FOUND = "Refund request not found";
export const REFUND_PROVIDER_FAILED = "The payment provider could not refund this payment. The request is still pending; please try again.";
/** Notes are stored and mailed: bounded like the refund form's description. */
export const ADMIN_NOTES_MAX = 2000;

const decisionSelect = {
  id: true,
  status: true,
  adminNotes: true,
  processedById: true,
  processedAt: true,
  contactEmail: true,
  user: { select: { id: true, email: true, firstName: true } },
  payment: {
    select: {
      id: true,
      amount: true,
      status: true,
      description: true,
      stripePaymentIntentId: true,
      subscriptionId: true,
      createdAt: true,
      subscription: { select: { type: true, category: { select: { name: true } }, animation: { select: { title: true } } } },
    },
  },
} satisfies Prisma.RefundRequestSelect;

type DecisionRow = Prisma.RefundRequestGetPayload<{ select: typeof decisionSelect }>;

function requireNotes(adminNotes: string | null | undefined) {
  const notes = (adminNotes ?? "").trim();
  if (!notes) throw new ServiceError(ADMIN_NOTES_REQUIRED, 400, "adminNotes");
  if (notes.length > ADMIN_NOTES_MAX) throw new ServiceError(`Admin notes must be at most ${ADMIN_NOTES_MAX} characters.`, 400, "adminNotes");
  return notes;
}

/**
 * Only pending requests are decided: approved, rejected and processed are final.
 * A decided request is answered 409 with what it already is, for approve and reject alike, so a
 * double click or a second admin cannot decide it twice.
 */
async function loadPending(requestId: string) {
  const request = UUID_RE.test(requestId) ? await prisma.refundRequest.findUnique({ where: { id: requestId }, select: decisionSelect }) : null;
  if (!request) throw notFound(REFUND_REQUEST_NOT_FOUND);
  if (request.status !== "pending") throw alreadyDecided(request.status);
  return request;
}

const alreadyDecided = (status: string) => conflict(`This refund request has already been ${status}.`);

async function findDecision(requestId: string) {
  return prisma.refundRequest.findUniqueOrThrow({
    where: { id: requestId },
    select: { id: true, status: true, adminNotes: true, processedById: true, processedAt: true, paymentId: true },
  });
}

/** Transactional mail to the address the member asked to be contacted at; sent after commit. */
async function sendDecision(request: DecisionRow, decision: "approved" | "rejected", notes: string) {
  await sendTemplatedEmail({
    template: "refund_decision",
    to: request.contactEmail ?? request.user.email,
    userId: request.user.id,
    variables: {
      firstName: request.user.firstName,
      amount: formatMoney(request.payment.amount),
      itemName: request.payment.description ?? (request.payment.subscription ? describeSubscription(request.payment.subscription) : "your purchase"),
      decision,
      adminNotes: notes,
    },
  });
}

/**
 * Downloads are the buyer's to keep (the licence terms), so a refund of a licence whose files
 * were downloaded since it was paid is approved only when the admin says so, knowing how many:
 * the decision form's checkbox and the API's `confirmDownloads` (409 without it).
 */
async function requireDownloadsConfirmed(payment: { subscriptionId: string | null; createdAt: Date }, confirmed: boolean) {
  if (confirmed || !payment.subscriptionId) return;
  const files = await downloadedFileCount(payment.subscriptionId, payment.createdAt);
  if (files > 0) throw new ServiceError(downloadsNotConfirmed(files), 409, "confirmDownloads");
}

/**
 * pending → approved or rejected, conditional (one of two concurrent decisions wins), with its
 * audit row in the same transaction.
 */
async function claimDecision(actor: Actor, request: DecisionRow, status: "approved" | "rejected", notes: string, now: Date) {
  await prisma.$transaction(async (tx) => {
    const claim = await tx.refundRequest.updateMany({
      where: { id: request.id, status: "pending" },
      data: { status, adminNotes: notes, processedById: actor.id, processedAt: now },
    });
    if (claim.count !== 1) throw alreadyDecided((await tx.refundRequest.findUniqueOrThrow({ where: { id: request.id }, select: { status: true } })).status);
    await recordAudit(tx, actor, {
      action: status === "approved" ? "refund.approve" : "refund.reject",
      entityType: "refund",
      entityId: request.id,
      summary: `${status === "approved" ? "Approved" : "Rejected"} a refund of ${formatMoney(request.payment.amount)} for ${request.user.email}`,
      before: { status: "pending", adminNotes: null },
      after: { status, adminNotes: notes },
    });
  });
}

/**
 * Approve: the request is claimed (pending → approved, conditional, so one of two concurrent
 * approvals wins), then the provider refunds with the key `refund-<requestId>` (a retry never
 * refunds twice). "succeeded" (test mode at once) completes the refund in one transaction:
 * request processed, payment refunded, subscription canceled, accountType synced. "pending"
 * leaves the request approved until Stripe's charge.refunded reaches fulfilment, which calls
 * completeRefund. If the provider call fails, the request goes back to pending: an approved
 * request is final in the admin screen, so one left approved without a refund could never be
 * retried; pending keeps Approve on offer, and the idempotency key makes the retry safe even
 * when the failed call did reach the provider.
 * A payment with no provider payment intent (seeded or imported history) is refunded here alone.
 */
export async function approveRefund(
  actor: Actor,
  requestId: string,
  adminNotes: string,
  { confirmDownloads = false, now = new Date() }: { confirmDownloads?: boolean; now?: Date } = {},
) {
  const notes = requireNotes(adminNotes);
  const request = await loadPending(requestId);
  await requireDownloadsConfirmed(request.payment, confirmDownloads);
  await claimDecision(actor, request, "approved", notes, now);

  const intent = request.payment.stripePaymentIntentId;
  let confirmed = !intent || request.payment.status === "refunded";
  if (!confirmed && intent) {
    try {
      const refund = await getPaymentProvider().refund(intent, `refund-${request.id}`);
      confirmed = refund.status === "succeeded";
    } catch (error) {
      logger.error({ err: error, requestId: request.id, adminId: actor.id }, "provider refund failed");
      // Conditional: a charge.refunded that arrived meanwhile has already processed it.
      await prisma.$transaction(async (tx) => {
        const reverted = await tx.refundRequest.updateMany({
          where: { id: request.id, status: "approved" },
          data: { status: "pending", adminNotes: request.adminNotes, processedById: null, processedAt: null },
        });
        if (reverted.count > 0) {
          await recordAudit(tx, actor, {
            action: "refund.revert",
            entityType: "refund",
            entityId: request.id,
            summary: `The payment provider refused the refund for ${request.user.email}; the request is pending again`,
            before: { status: "approved" },
            after: { status: "pending" },
          });
        }
      });
      metrics().refundDecisions.inc({ outcome: "provider_failed" });
      throw new ServiceError(REFUND_PROVIDER_FAILED, 502);
    }
  }
  if (confirmed) {
    await prisma.$transaction((tx) => (intent ? completeRefund(tx, intent, now) : completeLocalRefund(tx, request.payment.id, now)));
  }
  metrics().refundDecisions.inc({ outcome: "approved" });
  await sendDecision(request, "approved", notes);
  return findDecision(request.id);
}

/** Reject: pending → rejected with the notes (required), in one conditional update; mail after. */
export async function rejectRefund(actor: Actor, requestId: string, adminNotes: string, now = new Date()) {
  const notes = requireNotes(adminNotes);
  const request = await loadPending(requestId);
  await claimDecision(actor, request, "rejected", notes, now);
  metrics().refundDecisions.inc({ outcome: "rejected" });
  await sendDecision(request, "rejected", notes);
  return findDecision(request.id);
}
