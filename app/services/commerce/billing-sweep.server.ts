import { prisma } from "~/lib/db.server.ts";
import { getPaymentProvider } from "~/lib/payments/index.server.ts";
import { lapsedWhere } from "../licensing/access.server.ts";
import { applyPaymentEvent } from "./fulfilment.server.ts";
import { sendRenewalNotices, sendRenewalReminders } from "./renewal-reminders.server.ts";
import { expireEndedSubscriptions } from "./subscriptions.server.ts";

// The hourly billing sweep (server.ts runs it at start and every hour, on every instance: each
// effect is claimed by a conditional update or keyed by a payment id, so it happens once).

const BATCH = 100;
const DAY_MS = 24 * 60 * 60 * 1000;
const YEAR_MS = 365 * DAY_MS;

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

/** Renewals first (a renewed term is not expired), then expiry (an ended term gets no reminder), then the reminders of ends and renewals. */
export async function runBillingSweep(now = new Date()) {
  const { renewed } = await renewTestModeSubscriptions(now);
  const { expired } = await expireEndedSubscriptions(now);
  const { sent: reminders } = await sendRenewalReminders(now);
  const { sent: renewalNotices } = await sendRenewalNotices(now);
  return { renewed, expired, reminders, renewalNotices };
}
