import crypto from "node:crypto";
import { afterEach, describe, expect, it, vi } from "vitest";
import { prisma } from "~/lib/db.server.ts";
import { setPaymentProvider } from "~/lib/payments/index.server.ts";
import type { PaymentEvent, RenewalCharge } from "~/lib/payments/provider.server.ts";
import { testModeRenewalEvents } from "~/lib/payments/test-mode.server.ts";
import * as billingPage from "~/routes/account/billing.tsx";
import * as adminListApi from "~/routes/api/admin/subscriptions.ts";
import { runBillingSweep } from "~/services/commerce/billing-sweep.server.ts";
import { accessTokenFor, createPaidSubscription, createUser, sessionCookieFor } from "../helpers/factories.ts";
import { useFakeProvider } from "../helpers/payments.ts";
import { callRoute } from "../helpers/route.ts";
import { DAY_MS, useMailCapture } from "./account-helpers.ts";

// Dunning in the local test mode: the billing sweep charges an auto-renewing term when it ends
// and, when the charge fails, tries again 1, 3 and 5 days after the term's end, telling the payer
// each time; access continues meanwhile and ends only when the last retry fails. The provider's
// charge is replaced by one whose card is refused (test mode's own always pays).

const mail = useMailCapture();
afterEach(() => setPaymentProvider(null));

const DECLINED = "Your card was declined.";

/** A test-mode provider whose renewal charges are refused while `refuse()` says so. */
function renewalCard(refuse: (charge: RenewalCharge) => boolean) {
  const charges: RenewalCharge[] = [];
  useFakeProvider({
    name: "test",
    chargeRenewal: async (charge): Promise<PaymentEvent[]> => {
      charges.push(charge);
      if (!refuse(charge)) return testModeRenewalEvents(charge);
      return [
        {
          kind: "payment.failed",
          eventId: `test_evt_renewal_failed_${charge.subscriptionId}_${charge.term.getTime()}_${charge.attempt}`,
          checkoutId: null,
          providerSubscriptionId: charge.providerSubscriptionId,
          message: DECLINED,
          nextAttemptAt: charge.nextAttemptAt,
        },
      ];
    },
  });
  return charges;
}

async function renewingTerm(endDate: Date) {
  const user = await createUser();
  const { subscription } = await createPaidSubscription(user.id, { endDate });
  await prisma.subscription.update({ where: { id: subscription.id }, data: { stripeSubscriptionId: `test_sub_${crypto.randomUUID()}`, autoRenew: true } });
  await prisma.user.update({ where: { id: user.id }, data: { accountType: "premium" } });
  return { user, subscription, cookie: await sessionCookieFor(user.id) };
}

const at = (date: Date, days: number) => new Date(date.getTime() + days * DAY_MS + 60_000);
const accountType = async (userId: string) => (await prisma.user.findUniqueOrThrow({ where: { id: userId } })).accountType;
const failuresTo = (email: string) => mail.to(email).filter((m) => m.subject.includes("did not go through") || m.subject.includes("after failed payments"));

describe("a renewal whose payment fails", () => {
  it("is retried after 1, 3 and 5 days, mailing the payer each failure, and the licence ends only when the last retry fails", async () => {
    const charges = renewalCard(() => true);
    const term = new Date(Date.now() + 2 * DAY_MS);
    const { user, subscription, cookie } = await renewingTerm(term);
    const billing = async () => (await callRoute(billingPage, "/billing", { cookie })).body;

    // Each sweep runs twice at once, as two instances would.
    const sweep = (days: number) => Promise.all([runBillingSweep(at(term, days)), runBillingSweep(at(term, days))]);
    for (const [days, retry] of [
      [0, 1],
      [1, 3],
      [3, 5],
    ] as const) {
      await sweep(days);
      const row = await prisma.subscription.findUniqueOrThrow({ where: { id: subscription.id } });
      expect(row).toMatchObject({ status: "active", failedRenewalAttempts: retry === 1 ? 1 : retry === 3 ? 2 : 3 });
      expect(row.nextRenewalAttemptAt!.getTime()).toBe(term.getTime() + retry * DAY_MS);
      // Access continues while the renewal is retried, and /billing says when the next try is.
      expect(await accountType(user.id)).toBe("premium");
      const [shown] = (await billing()).subscriptions;
      expect(new Date(shown.paymentRetryAt).getTime()).toBe(term.getTime() + retry * DAY_MS);
      // A sweep in between changes nothing.
      await runBillingSweep(at(term, retry - 0.5));
    }
    await vi.waitFor(() => expect(failuresTo(user.email)).toHaveLength(3));
    const first = failuresTo(user.email)[0]!;
    expect(first.subject).toBe("Your payment for Premium yearly subscription did not go through");
    expect(first.text).toContain(`The payment provider said: ${DECLINED}`);
    expect(first.text).toMatch(/We'll retry on \w+ \d{1,2}, \d{4}, and your access continues until then\./);

    await sweep(5);
    const ended = await prisma.subscription.findUniqueOrThrow({ where: { id: subscription.id } });
    expect(ended).toMatchObject({ status: "expired", autoRenew: false, endedAfterFailedPayments: true, nextRenewalAttemptAt: null });
    expect(await accountType(user.id)).toBe("free");
    // Two sweeps at once may both ask for an attempt; its events are keyed by the attempt, so each counts once.
    expect([...new Set(charges.map((c) => c.attempt))]).toEqual([1, 2, 3, 4]);
    await vi.waitFor(() => expect(failuresTo(user.email)).toHaveLength(4));
    expect(failuresTo(user.email)[3]!.subject).toBe("Your Premium yearly subscription ended after failed payments");
    expect(await prisma.payment.count({ where: { subscriptionId: subscription.id } })).toBe(1);

    const page = await billing();

    expect(page.subscriptions).toEqual([]);
    expect(page.endedUnpaid).toEqual([expect.objectContaining({ id: subscription.id, label: "Premium access (all animations)" })]);
    const admin = await createUser({ role: "admin" });
    const list = await callRoute(adminListApi, `/api/admin/subscriptions?search=${user.email}`, { token: await accessTokenFor(admin.id) });
    expect(list.body).toEqual([expect.objectContaining({ id: subscription.id, status: "expired", endedAfterFailedPayments: true, paymentRetryAt: null })]);

    const asked = charges.length;
    await sweep(30);
    expect(charges).toHaveLength(asked);
  });

  it("that succeeds on a retry renews a year on from the term's end, with its receipt, and leaves dunning", async () => {
    let refusing = true;
    renewalCard(() => refusing);
    const term = new Date(Date.now() + 2 * DAY_MS);
    const { user, subscription } = await renewingTerm(term);

    await runBillingSweep(at(term, 0));
    refusing = false;
    await runBillingSweep(at(term, 1));
    const row = await prisma.subscription.findUniqueOrThrow({ where: { id: subscription.id } });
    expect(row).toMatchObject({ status: "active", failedRenewalAttempts: 0, nextRenewalAttemptAt: null, renewalDueAt: null });
    expect(row.endDate!.getTime()).toBe(term.getTime() + 365 * DAY_MS);
    await vi.waitFor(() => expect(mail.to(user.email).filter((m) => m.subject.includes("renewal receipt"))).toHaveLength(1));
    expect(failuresTo(user.email)).toHaveLength(1);
  });
});
