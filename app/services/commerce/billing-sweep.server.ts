import { prisma } from "~/lib/db.server.ts";
import { formatLongDate, formatMoney } from "~/lib/format.ts";
import { appUrl, sendTemplatedEmail } from "~/lib/mail.server.ts";
import { getPaymentProvider } from "~/lib/payments/index.server.ts";
import { unsubscribeUrl } from "../admin/email-campaigns.server.ts";
import { activeLicenceWhere, lapsedWhere } from "../licensing/access.server.ts";
import { applyPaymentEvent } from "./fulfilment.server.ts";
import { describeSubscription, renewalScopes, runSubscriptionSweep, WANTS_RENEWAL_REMINDERS } from "./subscriptions.server.ts";

// The hourly billing sweep (server.ts runs it at start and every hour, on every instance: each
// effect is claimed by a conditional update or keyed by a payment id, so it happens once).

const BATCH = 100;
const DAY_MS = 24 * 60 * 60 * 1000;
const YEAR_MS = 365 * DAY_MS;

/** Reminder e-mails 30 and 7 days before the renewal of an auto-renewing term, largest first. */
export const RENEWAL_NOTICE_DAYS = [30, 7] as const;

/** Test mode's dunning: a failed renewal is tried again 1, 3 and 5 days after the term's end, then ends. */
export const RENEWAL_RETRY_DAYS = [1, 3, 5] as const;

/**
 * Test mode stands in for Stripe's yearly charge: a test-mode subscription that still renews is
 * charged when its term ends, and again on each retry after a failure (RENEWAL_RETRY_DAYS), by
 * the provider's chargeRenewal, whose events go through the same fulfilment as Stripe's
 * webhooks (a payment row and the end date a year on; or dunning). Two sweeps at once may both
 * ask for an attempt (test mode charges nothing); its events are keyed by the subscription, the
 * term it renews and the attempt, so each attempt has one effect.
 */
export async function renewTestModeSubscriptions(now = new Date()) {
  const provider = getPaymentProvider();
  if (provider.name !== "test") return { renewed: 0 };
  let renewed = 0;
  const seen = new Set<string>();
  for (;;) {
    const due = await prisma.subscription.findMany({
      where: {
        autoRenew: true,
        stripeSubscriptionId: { startsWith: "test_sub_" },
        id: seen.size ? { notIn: [...seen] } : undefined,
        // A term that has just ended, or a failed renewal whose retry is due.
        OR: [lapsedWhere(now, { nextRenewalAttemptAt: null }), { status: "active", nextRenewalAttemptAt: { lte: now } }],
      },
      orderBy: { endDate: "asc" },
      take: BATCH,
      select: { id: true, price: true, endDate: true, renewalDueAt: true, failedRenewalAttempts: true, stripeSubscriptionId: true },
    });
    for (const subscription of due) {
      seen.add(subscription.id);
      const term = subscription.renewalDueAt ?? subscription.endDate!;
      const retryDays = RENEWAL_RETRY_DAYS[subscription.failedRenewalAttempts];
      const events = await provider.chargeRenewal({
        subscriptionId: subscription.id,
        term,
        providerSubscriptionId: subscription.stripeSubscriptionId!,
        amountCents: Math.round(Number(subscription.price) * 100),
        attempt: subscription.failedRenewalAttempts + 1,
        nextAttemptAt: retryDays === undefined ? null : new Date(term.getTime() + retryDays * DAY_MS),
        periodEnd: new Date(term.getTime() + YEAR_MS),
      });
      for (const event of events ?? []) {
        const { applied } = await applyPaymentEvent(event, "test");
        if (applied && event.kind === "payment.succeeded") renewed += 1;
      }
    }
    if (due.length < BATCH) break;
  }
  return { renewed };
}

/**
 * The notices of a coming renewal, for terms that renew by themselves (renewalScopes), to owners
 * who want renewal reminders: one at 30 days before the renewal, one at 7. A stage is due while
 * the renewal is within its days and beyond the next stage's, so a term first seen 5 days out
 * gets the 7-day notice only, not both. Each is claimed by a conditional update of
 * renewalNoticeDays (a larger stage or none → this one) before the mail goes, so two instances
 * sweeping at once send it once; a mail that could not go gives the claim back for the next sweep.
 */
export async function sendRenewalNotices(now = new Date()) {
  const { renews } = renewalScopes(getPaymentProvider().name === "test");
  let sent = 0;
  for (const [stage, days] of RENEWAL_NOTICE_DAYS.entries()) {
    const nextDays = RENEWAL_NOTICE_DAYS[stage + 1] ?? 0;
    const notYetSent = { OR: [{ renewalNoticeDays: null }, { renewalNoticeDays: { gt: days } }] };
    const skipped = new Set<string>();
    for (;;) {
      const batch = await prisma.subscription.findMany({
        where: {
          AND: [
            renews,
            activeLicenceWhere(now),
            { endDate: { gt: new Date(now.getTime() + nextDays * DAY_MS), lte: new Date(now.getTime() + days * DAY_MS) } },
            notYetSent,
            skipped.size ? { id: { notIn: [...skipped] } } : {},
          ],
          user: WANTS_RENEWAL_REMINDERS,
        },
        orderBy: { endDate: "asc" },
        take: BATCH,
        select: {
          id: true,
          endDate: true,
          price: true,
          renewalNoticeDays: true,
          type: true,
          category: { select: { name: true } },
          animation: { select: { title: true } },
          user: { select: { id: true, email: true, firstName: true } },
        },
      });
      for (const s of batch) {
        const claim = await prisma.subscription.updateMany({ where: { id: s.id, ...notYetSent }, data: { renewalNoticeDays: days } });
        if (claim.count !== 1) continue;
        const ok = await sendTemplatedEmail({
          template: "renewal_upcoming",
          to: s.user.email,
          userId: s.user.id,
          variables: {
            firstName: s.user.firstName,
            itemName: describeSubscription(s),
            renewalDate: formatLongDate(s.endDate),
            amount: formatMoney(s.price),
            days: String(days),
            billingUrl: `${appUrl()}/billing`,
          },
          unsubscribeUrl: unsubscribeUrl(s.user.id, "renewal_reminders"),
        });
        if (ok) sent += 1;
        else {
          await prisma.subscription.updateMany({ where: { id: s.id, renewalNoticeDays: days }, data: { renewalNoticeDays: s.renewalNoticeDays } });
          skipped.add(s.id);
        }
      }
      if (batch.length < BATCH) break;
    }
  }
  return { sent };
}

/** Renewals first (a renewed term is not expired), then expiry and the reminders of ends and renewals. */
export async function runBillingSweep(now = new Date()) {
  const { renewed } = await renewTestModeSubscriptions(now);
  const swept = await runSubscriptionSweep(now);
  const { sent } = await sendRenewalNotices(now);
  return { renewed, ...swept, renewalNotices: sent };
}
