import { prisma } from "../db.server.ts";
import { type Card, type PaymentEvent, type PaymentProvider, type RenewalCharge, WebhookSignatureError } from "./provider.server.ts";

// The local test mode (no STRIPE_SECRET_KEY: the embedded default of `npm start`). Nothing is
// charged. The "hosted page" is our own /checkout/test/{checkoutId} with Pay and Decline
// buttons; pressing one turns into the same PaymentEvent values a Stripe webhook would, and they
// go through the same fulfilment. Its ids are derived from the checkout id (test_in_…, test_pi_…,
// test_sub_…), so a button pressed twice, or a confirmation after the button, is one payment.

export const TEST_DECLINE_MESSAGE = "Your card was declined. (Test mode: the Decline button was pressed.)";
export const TEST_RENEWAL_DECLINE_MESSAGE = "Your card was declined. (Test mode: the card on file ends in 0341.)";

/**
 * The cards test mode's page offers, after Stripe's own test cards: 4242 pays, 0341 is saved but
 * every charge to it is declined, so a renewal goes through dunning.
 */
export const TEST_CARDS = {
  "4242": { brand: "Visa", last4: "4242", label: "Visa ending in 4242 (pays)" },
  "0341": { brand: "Visa", last4: "0341", label: "Visa ending in 0341 (renewals are declined)" },
} as const;
export type TestCardNumber = keyof typeof TEST_CARDS;

/** A test card saved today expires in December four years on. */
export function testCard(number: TestCardNumber, now = new Date()): Card {
  return { brand: TEST_CARDS[number].brand, last4: TEST_CARDS[number].last4, expMonth: 12, expYear: now.getUTCFullYear() + 4 };
}

export const testIds = (checkoutId: string) => ({
  sessionId: `test_cs_${checkoutId}`,
  clientSecret: `test_secret_${checkoutId}`,
  invoiceId: `test_in_${checkoutId}`,
  paymentIntentId: `test_pi_${checkoutId}`,
  subscriptionId: `test_sub_${checkoutId}`,
  customerId: (userId: string) => `test_cus_${userId}`,
});

/** The checkout id inside a test-mode payment intent or client secret id, or null. */
export function checkoutIdFromTestId(value: string) {
  const match = /^test_(?:pi|secret|cs|in)_([0-9a-f-]{36})$/i.exec(value);
  return match ? match[1]! : null;
}

/** The events of a test-mode button: Pay (the first payment) or Decline. */
export function testModeEvents(checkout: { id: string; amountCents: number; userId: string }, outcome: "pay" | "decline"): PaymentEvent[] {
  const ids = testIds(checkout.id);
  if (outcome === "decline") {
    return [
      {
        kind: "payment.failed",
        eventId: `test_evt_decline_${checkout.id}`,
        checkoutId: checkout.id,
        providerSubscriptionId: null,
        message: TEST_DECLINE_MESSAGE,
        nextAttemptAt: null,
      },
    ];
  }
  return [
    {
      kind: "payment.succeeded",
      eventId: `test_evt_paid_${checkout.id}`,
      checkoutId: checkout.id,
      paymentId: ids.invoiceId,
      paymentIntentId: ids.paymentIntentId,
      providerSubscriptionId: ids.subscriptionId,
      providerCustomerId: ids.customerId(checkout.userId),
      amountCents: checkout.amountCents,
      reason: "first",
      periodEnd: null,
      // Test mode's Pay button stands for Stripe's card that pays.
      card: testCard("4242"),
    },
  ];
}

/**
 * Test mode's renewal charge: paid, as Stripe's invoice.paid of a `subscription_cycle` would be.
 * The ids are the subscription and the term it renews, so a sweep run twice, or on two
 * instances, pays once.
 */
export function testModeRenewalEvents(renewal: RenewalCharge): PaymentEvent[] {
  const term = renewal.term.getTime();
  return [
    {
      kind: "payment.succeeded",
      eventId: `test_evt_renewal_${renewal.subscriptionId}_${term}`,
      checkoutId: null,
      paymentId: `test_in_${renewal.subscriptionId}_${term}`,
      paymentIntentId: `test_pi_${renewal.subscriptionId}_${term}`,
      providerSubscriptionId: renewal.providerSubscriptionId,
      providerCustomerId: null,
      amountCents: renewal.amountCents,
      reason: "renewal",
      periodEnd: renewal.periodEnd,
    },
  ];
}

export function createTestModeProvider(appUrl: () => string): PaymentProvider {
  return {
    name: "test",
    publishableKey: null,
    async startCheckout(input) {
      const ids = testIds(input.checkoutId);
      return input.mode === "hosted"
        ? { providerSessionId: ids.sessionId, url: `${appUrl()}/checkout/test/${input.checkoutId}` }
        : { providerSessionId: ids.sessionId, clientSecret: ids.clientSecret };
    },
    async confirmPayment(paymentIntentId) {
      const checkoutId = checkoutIdFromTestId(paymentIntentId);
      const checkout = checkoutId
        ? await prisma.checkoutSession.findUnique({ where: { id: checkoutId }, select: { id: true, userId: true, amount: true, status: true } })
        : null;
      if (!checkout || checkout.status === "open" || checkout.status === "expired") return [];
      const amountCents = Math.round(Number(checkout.amount) * 100);
      return testModeEvents({ id: checkout.id, userId: checkout.userId, amountCents }, checkout.status === "completed" ? "pay" : "decline");
    },
    // Test mode holds no money: a refund is confirmed at once, renewal switches and
    // cancellations live only in our own Subscription rows.
    async refund(paymentIntentId) {
      return { refundId: `test_re_${paymentIntentId.replace(/^test_pi_/, "")}`, status: "succeeded" };
    },
    async setAutoRenew() {},
    async cancelNow() {},
    async chargeRenewal(renewal) {
      const owner = await prisma.subscription.findUnique({ where: { id: renewal.subscriptionId }, select: { user: { select: { cardLast4: true } } } });
      if (owner?.user.cardLast4 !== TEST_CARDS["0341"].last4) return testModeRenewalEvents(renewal);
      return [
        {
          kind: "payment.failed",
          eventId: `test_evt_renewal_failed_${renewal.subscriptionId}_${renewal.term.getTime()}_${renewal.attempt}`,
          checkoutId: null,
          providerSubscriptionId: renewal.providerSubscriptionId,
          message: TEST_RENEWAL_DECLINE_MESSAGE,
          nextAttemptAt: renewal.nextAttemptAt,
        },
      ];
    },
    async startCardSetup(input) {
      return { providerSetupId: `test_seti_${input.setupId}`, url: `${appUrl()}/checkout/test/card/${input.setupId}` };
    },
    async completeCardSetup() {
      return null;
    },
    async billingPortalUrl() {
      return null;
    },
    async parseWebhook() {
      throw new WebhookSignatureError("Webhooks are not used in test mode (no STRIPE_SECRET_KEY is set)");
    },
  };
}
