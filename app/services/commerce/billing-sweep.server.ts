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

/**
 * Test mode stands in for Stripe's yearly charge: a test-mode subscription that still renews
 * when its term ends is renewed through the same fulfilment as Stripe's `invoice.paid`
 * (a payment row, the end date a year on). The payment id is the subscription and the end of
 * the term it pays for, so a sweep run twice, or on two instances, renews once.
 */
export async function renewTestModeSubscriptions(now = new Date()) {
  if (getPaymentProvider().name !== "test") return { renewed: 0 };
  let renewed = 0;
  for (;;) {
    const due = await prisma.subscription.findMany({
      where: lapsedWhere(now, { autoRenew: true, stripeSubscriptionId: { startsWith: "test_sub_" } }),
      orderBy: { endDate: "asc" },
      take: BATCH,
      select: { id: true, price: true, endDate: true, stripeSubscriptionId: true },
    });
    for (const subscription of due) {
      const term = subscription.endDate!.getTime();
      const { applied } = await applyPaymentEvent(
        {
          kind: "payment.succeeded",
          eventId: `test_evt_renewal_${subscription.id}_${term}`,
          checkoutId: null,
          paymentId: `test_in_${subscription.id}_${term}`,
          paymentIntentId: `test_pi_${subscription.id}_${term}`,
          providerSubscriptionId: subscription.stripeSubscriptionId,
          providerCustomerId: null,
          amountCents: Math.round(Number(subscription.price) * 100),
          reason: "renewal",
          periodEnd: new Date(term + YEAR_MS),
        },
        "test",
      );
      if (applied) renewed += 1;
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
