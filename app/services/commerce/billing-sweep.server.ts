import { prisma } from "~/lib/db.server.ts";
import { getPaymentProvider } from "~/lib/payments/index.server.ts";
import { lapsedWhere } from "../licensing/access.server.ts";
import { applyPaymentEvent } from "./fulfilment.server.ts";
import { runSubscriptionSweep } from "./subscriptions.server.ts";

// The hourly billing sweep (server.ts runs it at start and every hour, on every instance: each
// effect is claimed by a conditional update or keyed by a payment id, so it happens once).

const BATCH = 100;
const YEAR_MS = 365 * 24 * 60 * 60 * 1000;

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

/** Renewals first (a renewed term is not expired), then expiry and the 7-day reminders. */
export async function runBillingSweep(now = new Date()) {
  const { renewed } = await renewTestModeSubscriptions(now);
  return { renewed, ...(await runSubscriptionSweep(now)) };
}
