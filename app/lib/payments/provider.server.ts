// The payment provider port (docs/architecture.md, "Payments"; decision 007). Two adapters
// implement it: Stripe (`stripe.server.ts`, when STRIPE_SECRET_KEY is set) and the local test
// mode (`test-mode.server.ts`, otherwise). Nothing here knows animations or licences: a checkout
// sells one yearly item with a name, an amount and the metadata that names what it is.
// Every adapter turns what the provider tells us (a webhook, a confirmed payment, a test-mode
// button) into the same PaymentEvent values, and one fulfilment service applies them.

export type ProviderName = "stripe" | "test";

export type Customer = {
  userId: string;
  email: string;
  name: string;
  /** The provider's customer id, when one was made before (User.stripeCustomerId). */
  providerCustomerId: string | null;
};

export type StartCheckoutInput = {
  /** Our CheckoutSession id: travels in the provider's metadata, comes back in every event. */
  checkoutId: string;
  customer: Customer;
  item: { name: string; description: string; amountCents: number; currency: "usd" };
  /** Names the buyer and the item for the provider's own dashboard (userId, type, animationId…). */
  metadata: Record<string, string>;
  /** Where the buyer is taxed, from their invoice details (a practice's, or their own); null when they gave none. */
  taxLocation?: { country: string; address: string } | null;
  /** "hosted": the provider's page (no JavaScript needed); "embedded": a client secret for a form on our page. */
  mode: "hosted" | "embedded";
  /** Absolute URLs: where the hosted page returns after paying, or after giving up. */
  successUrl: string;
  cancelUrl: string;
};

export type StartCheckoutResult = {
  /** The provider's id for this attempt (Stripe: the Checkout Session or the subscription). */
  providerSessionId: string;
  /** hosted mode: where to send the buyer (303). */
  url?: string;
  /** embedded mode: what the payment form confirms. */
  clientSecret?: string;
  /** Set when the provider made a customer for this user: store it on the user. */
  providerCustomerId?: string;
};

/**
 * What happened at the provider, in its terms. `eventId` is unique per delivery source (the
 * webhook event id, or a stable id derived from the payment for confirmations), and
 * `paymentId` is the provider's id of the money movement (Stripe: the invoice id): fulfilment
 * is idempotent by it, so a webhook and a confirmation of the same payment make one payment.
 */
export type PaymentEvent =
  | {
      kind: "payment.succeeded";
      eventId: string;
      /** Our CheckoutSession id from the metadata; absent on renewals. */
      checkoutId: string | null;
      paymentId: string;
      paymentIntentId: string | null;
      providerSubscriptionId: string | null;
      providerCustomerId: string | null;
      amountCents: number;
      /** "first": the purchase; "renewal": a yearly renewal of providerSubscriptionId. */
      reason: "first" | "renewal";
      /** End of the term this payment pays for, when the provider says (else one year on). */
      periodEnd: Date | null;
      /** The card a first payment was made with, when the provider says: it becomes the card on file. */
      card?: Card | null;
      /** The tax the provider computed in the amount (Stripe Tax); absent when it computed none. */
      tax?: ProviderTax | null;
    }
  | {
      kind: "payment.failed";
      eventId: string;
      checkoutId: string | null;
      providerSubscriptionId: string | null;
      message: string;
      /** A renewal's payment: when the provider tries again, null after its last try. */
      nextAttemptAt: Date | null;
    }
  | { kind: "subscription.renewal_changed"; eventId: string; providerSubscriptionId: string; autoRenew: boolean }
  /** `afterFailedPayments`: the provider gave up on a renewal's payment (its last retry failed). */
  | { kind: "subscription.ended"; eventId: string; providerSubscriptionId: string; afterFailedPayments?: boolean }
  | { kind: "payment.refunded"; eventId: string; paymentIntentId: string; amountCents: number }
  /** A card saved on the provider's card page (our CardSetup id), reported even when the member never came back. */
  | { kind: "card.saved"; eventId: string; setupId: string }
  /** A type we do not act on: answered 200, changes nothing. */
  | { kind: "ignored"; eventId: string; type: string };

/** Tax the provider computed inside a payment's amount (Stripe Tax), in cents, and whether it was a reverse charge. */
export type ProviderTax = { amountCents: number; reverseCharge: boolean };

/** A card as the provider describes it: never its number, only what /billing shows. */
export type Card = { brand: string; last4: string; expMonth: number; expYear: number };

export type StartCardSetupInput = {
  /** Our CardSetup id: names the attempt at the provider and on the way back. */
  setupId: string;
  customer: Customer;
  /** Absolute URLs: where the hosted page returns after saving a card, or after giving up. */
  successUrl: string;
  cancelUrl: string;
};

export type RenewalCharge = {
  /** Our Subscription id and the end of the term being renewed: together they key the payment. */
  subscriptionId: string;
  term: Date;
  providerSubscriptionId: string;
  amountCents: number;
  /** 1 for the charge at the end of the term, then one more per retry. */
  attempt: number;
  /** When the next try would be if this one fails, null when it is the last. */
  nextAttemptAt: Date | null;
  periodEnd: Date;
};

export interface PaymentProvider {
  readonly name: ProviderName;
  /** Stripe.js needs this in the browser (null in test mode). */
  readonly publishableKey: string | null;
  startCheckout(input: StartCheckoutInput, idempotencyKey: string): Promise<StartCheckoutResult>;
  /**
   * The events a client-side confirmation stands for (POST /api/payments/success with a
   * payment intent id): the provider is asked, the client is never believed.
   */
  confirmPayment(paymentIntentId: string): Promise<PaymentEvent[]>;
  /** Starts a full refund of a payment; "succeeded" when the provider confirms at once. */
  refund(paymentIntentId: string, idempotencyKey: string): Promise<{ refundId: string; status: "succeeded" | "pending" }>;
  /** Renewal at the end of the term on or off (Stripe: cancel_at_period_end). */
  setAutoRenew(providerSubscriptionId: string, autoRenew: boolean, idempotencyKey: string): Promise<void>;
  /** Ends the provider's subscription now (admin cancel): no further renewals. */
  cancelNow(providerSubscriptionId: string, idempotencyKey: string): Promise<void>;
  /**
   * One attempt at a renewal's payment, for a provider that leaves charging to us (test mode, run
   * by the billing sweep): the events it makes. Null for a provider that charges renewals on its
   * own schedule and reports them by webhook (Stripe).
   */
  chargeRenewal(renewal: RenewalCharge): Promise<PaymentEvent[] | null>;
  /**
   * Starts replacing the customer's card on the provider's hosted page (no JavaScript needed):
   * where to send the member (Stripe: a Checkout Session in setup mode, which makes a SetupIntent).
   */
  startCardSetup(input: StartCardSetupInput, idempotencyKey: string): Promise<{ providerSetupId: string; url: string; providerCustomerId?: string }>;
  /**
   * Back from the hosted page: the card saved, made the default of the customer and of the given
   * provider subscriptions (their renewals are charged to it); null when none was saved. Test
   * mode's page saves the card itself and answers null here.
   */
  completeCardSetup(providerSetupId: string, providerSubscriptionIds: string[], idempotencyKey: string): Promise<Card | null>;
  /** The provider's page to manage payment methods, or null when it has none (test mode). */
  billingPortalUrl(providerCustomerId: string, returnUrl: string): Promise<string | null>;
  /**
   * A webhook delivery, verified (signature, 300 s tolerance) and parsed; rejects with
   * WebhookSignatureError. May ask the provider for what the payload leaves out (Stripe's
   * invoice events do not name their payment intent, which refunds need).
   */
  parseWebhook(rawBody: string, signature: string | null): Promise<PaymentEvent>;
}

export class WebhookSignatureError extends Error {}

/** A refusal from the provider that the buyer should read (a declined card, …). */
export class ProviderDeclinedError extends Error {}
