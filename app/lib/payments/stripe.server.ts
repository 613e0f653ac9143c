import { randomUUID } from "node:crypto";
import Stripe from "stripe";
import { logger } from "../logger.server.ts";
import {
  type Card,
  ProviderDeclinedError,
  type PaymentEvent,
  type PaymentProvider,
  type ProviderTax,
  type StartCheckoutInput,
  type StartCheckoutResult,
  WebhookSignatureError,
} from "./provider.server.ts";

// The Stripe adapter of the payment port, written against the API version stripe 23.1.0 pins
// (2026-10-28.endive). Since the "basil" versions an invoice no longer names its payment intent
// or its subscription directly: the subscription is under `invoice.parent.subscription_details`
// (with a snapshot of the subscription's metadata, where our checkout id travels), a payment
// intent is tied to its invoice through invoice payments, and the first invoice's client secret
// is `latest_invoice.confirmation_secret`.
//
// Every item is sold as a yearly subscription made from `price_data`, so no price has to be set
// up in the Stripe dashboard and the amount is the one fixed in our CheckoutSession.

/** The signature tolerance the issue asks for: a delivery older than 300 s is refused. */
const WEBHOOK_TOLERANCE_SECONDS = 300;

const PAYMENT_FAILED_FALLBACK = "Your payment could not be completed. Please check your payment method and try again.";

export type StripeProviderConfig = {
  secretKey: string;
  publishableKey: string | null;
  webhookSecret: string;
  /** STRIPE_TAX: Stripe Tax computes the tax inside each (tax-inclusive) price. */
  automaticTax?: boolean;
};

export function createStripeProvider({ secretKey, publishableKey, webhookSecret, automaticTax = false }: StripeProviderConfig): PaymentProvider {
  const stripe = new Stripe(secretKey, {
    // A buyer waits on these calls: two quick retries (safe, every write carries an idempotency
    // key) and a bounded wait, instead of the SDK's 80 s default.
    maxNetworkRetries: 2,
    timeout: 15_000,
    telemetry: false,
  });

  async function ensureCustomer(input: StartCheckoutInput, idempotencyKey: string) {
    if (input.customer.providerCustomerId) return { id: input.customer.providerCustomerId, created: false };
    const customer = await stripe.customers.create(
      { email: input.customer.email, name: input.customer.name, metadata: { userId: input.customer.userId } },
      { idempotencyKey: `${idempotencyKey}:customer` },
    );
    return { id: customer.id, created: true };
  }

  async function startHosted(input: StartCheckoutInput, customerId: string, idempotencyKey: string): Promise<StartCheckoutResult> {
    const metadata = { ...input.metadata, checkoutId: input.checkoutId };
    const session = await stripe.checkout.sessions.create(
      {
        mode: "subscription",
        customer: customerId,
        client_reference_id: input.checkoutId,
        line_items: [
          {
            quantity: 1,
            price_data: {
              currency: input.item.currency,
              unit_amount: input.item.amountCents,
              recurring: { interval: "year" },
              product_data: { name: input.item.name, description: input.item.description, metadata: input.metadata },
              ...(automaticTax ? { tax_behavior: "inclusive" as const } : {}),
            },
          },
        ],
        // Stripe Tax: the page asks for the billing address (and a business's tax id) it needs.
        ...(automaticTax
          ? {
              automatic_tax: { enabled: true },
              billing_address_collection: "required" as const,
              customer_update: { address: "auto" as const, name: "auto" as const },
              tax_id_collection: { enabled: true },
            }
          : {}),
        metadata,
        // The subscription's metadata is copied onto each of its invoices, so invoice.paid
        // names the checkout too.
        subscription_data: { metadata },
        success_url: input.successUrl,
        cancel_url: input.cancelUrl,
      },
      { idempotencyKey: `${idempotencyKey}:session` },
    );
    if (!session.url) throw new Error(`Stripe returned Checkout Session ${session.id} without a URL`);
    return { providerSessionId: session.id, url: session.url };
  }

  async function startEmbedded(input: StartCheckoutInput, customerId: string, idempotencyKey: string): Promise<StartCheckoutResult> {
    const metadata = { ...input.metadata, checkoutId: input.checkoutId };
    // A subscription's price_data needs a product id (no inline product_data there).
    const product = await stripe.products.create(
      { name: input.item.name, description: input.item.description, metadata: input.metadata },
      { idempotencyKey: `${idempotencyKey}:product` },
    );
    // Stripe Tax needs the customer's location: the invoice details' country and address. Without
    // them the embedded form is sold as before and the invoice uses the tax_rates table.
    const taxed = automaticTax && Boolean(input.taxLocation);
    if (taxed) {
      await stripe.customers.update(
        customerId,
        { address: { country: input.taxLocation!.country, line1: input.taxLocation!.address.split("\n")[0] } },
        { idempotencyKey: `${idempotencyKey}:tax-location` },
      );
    }
    const subscription = await stripe.subscriptions.create(
      {
        customer: customerId,
        items: [
          {
            quantity: 1,
            price_data: {
              currency: input.item.currency,
              product: product.id,
              unit_amount: input.item.amountCents,
              recurring: { interval: "year" },
              ...(taxed ? { tax_behavior: "inclusive" as const } : {}),
            },
          },
        ],
        ...(taxed ? { automatic_tax: { enabled: true } } : {}),
        // The first invoice waits for the Payment Element to confirm its payment intent.
        payment_behavior: "default_incomplete",
        payment_settings: { save_default_payment_method: "on_subscription" },
        metadata,
        expand: ["latest_invoice.confirmation_secret"],
      },
      { idempotencyKey: `${idempotencyKey}:subscription` },
    );
    const invoice = subscription.latest_invoice;
    const clientSecret = typeof invoice === "object" ? invoice?.confirmation_secret?.client_secret : undefined;
    if (!clientSecret) throw new Error(`Stripe returned subscription ${subscription.id} without its first invoice's confirmation secret`);
    return { providerSessionId: subscription.id, clientSecret };
  }

  /** The invoice a payment intent paid (or tried to), found through its invoice payment. */
  async function invoiceOfPaymentIntent(paymentIntentId: string) {
    const payments = await stripe.invoicePayments.list({
      payment: { type: "payment_intent", payment_intent: paymentIntentId },
      expand: ["data.invoice"],
      limit: 1,
    });
    const invoice = payments.data[0]?.invoice;
    if (!invoice || typeof invoice === "string" || invoice.deleted) return null;
    return invoice as Stripe.Invoice;
  }

  return {
    name: "stripe",
    publishableKey,

    startCheckout: (input, idempotencyKey) =>
      asProviderError(async () => {
        const customer = await ensureCustomer(input, idempotencyKey);
        const result =
          input.mode === "hosted" ? await startHosted(input, customer.id, idempotencyKey) : await startEmbedded(input, customer.id, idempotencyKey);
        return customer.created ? { ...result, providerCustomerId: customer.id } : result;
      }),

    confirmPayment: (paymentIntentId) =>
      asProviderError(async () => {
        const intent = await stripe.paymentIntents.retrieve(paymentIntentId, { expand: ["payment_method"] });
        if (intent.status !== "succeeded" && intent.status !== "requires_payment_method" && intent.status !== "canceled") return [];
        const invoice = await invoiceOfPaymentIntent(intent.id);
        // A payment intent that pays none of our invoices is not a purchase of ours.
        if (!invoice) return [];
        const subscription = subscriptionOf(invoice);
        if (intent.status === "succeeded") {
          const event = paidInvoiceEvent(invoice, `confirm_${invoice.id}`, intent.id);
          if (event.kind === "ignored") return [];
          return [event.kind === "payment.succeeded" && event.reason === "first" ? { ...event, card: cardOf(intent.payment_method) } : event];
        }
        return [
          {
            kind: "payment.failed",
            eventId: `confirm_failed_${intent.id}_${intent.last_payment_error?.code ?? intent.status}`,
            checkoutId: subscription.metadata.checkoutId ?? null,
            providerSubscriptionId: subscription.id,
            message: intent.last_payment_error?.message ?? PAYMENT_FAILED_FALLBACK,
            nextAttemptAt: null,
          },
        ];
      }),

    refund: (paymentIntentId, idempotencyKey) =>
      asProviderError(async () => {
        const refund = await stripe.refunds.create({ payment_intent: paymentIntentId }, { idempotencyKey });
        return { refundId: refund.id, status: refund.status === "succeeded" ? "succeeded" : "pending" };
      }),

    setAutoRenew: (providerSubscriptionId, autoRenew, idempotencyKey) =>
      asProviderError(async () => {
        await stripe.subscriptions.update(providerSubscriptionId, { cancel_at_period_end: !autoRenew }, { idempotencyKey });
      }),

    // Stripe charges renewals itself and reports them by webhook (invoice.paid, invoice.payment_failed).
    chargeRenewal: async () => null,

    cancelNow: (providerSubscriptionId, idempotencyKey) =>
      asProviderError(async () => {
        await stripe.subscriptions.cancel(providerSubscriptionId, {}, { idempotencyKey });
      }),

    startCardSetup: (input, idempotencyKey) =>
      asProviderError(async () => {
        const customer = input.customer.providerCustomerId
          ? { id: input.customer.providerCustomerId, created: false }
          : {
              id: (
                await stripe.customers.create(
                  { email: input.customer.email, name: input.customer.name, metadata: { userId: input.customer.userId } },
                  { idempotencyKey: `${idempotencyKey}:customer` },
                )
              ).id,
              created: true,
            };
        const session = await stripe.checkout.sessions.create(
          {
            mode: "setup",
            currency: "usd",
            customer: customer.id,
            client_reference_id: input.setupId,
            metadata: { setupId: input.setupId, userId: input.customer.userId },
            success_url: input.successUrl,
            cancel_url: input.cancelUrl,
          },
          { idempotencyKey: `${idempotencyKey}:session` },
        );
        if (!session.url) throw new Error(`Stripe returned setup session ${session.id} without a URL`);
        return { providerSetupId: session.id, url: session.url, ...(customer.created ? { providerCustomerId: customer.id } : {}) };
      }),

    completeCardSetup: (providerSetupId, providerSubscriptionIds, idempotencyKey) =>
      asProviderError(async () => {
        const session = await stripe.checkout.sessions.retrieve(providerSetupId, { expand: ["setup_intent.payment_method"] });
        const intent = session.setup_intent;
        if (!intent || typeof intent === "string" || intent.status !== "succeeded") return null;
        const method = intent.payment_method;
        const customer = idOf(session.customer);
        if (!method || typeof method === "string" || !method.card || !customer) return null;
        // Invoices are charged to the subscription's default, else the customer's: both move.
        await stripe.customers.update(customer, { invoice_settings: { default_payment_method: method.id } }, { idempotencyKey: `${idempotencyKey}:customer` });
        for (const subscription of providerSubscriptionIds) {
          await stripe.subscriptions.update(subscription, { default_payment_method: method.id }, { idempotencyKey: `${idempotencyKey}:${subscription}` });
        }
        return cardOf(method);
      }),

    billingPortalUrl: (providerCustomerId, returnUrl) =>
      asProviderError(async () => {
        // A portal session is made per visit: the key only makes the SDK's own retries safe.
        const session = await stripe.billingPortal.sessions.create(
          { customer: providerCustomerId, return_url: returnUrl },
          { idempotencyKey: `portal:${randomUUID()}` },
        );
        return session.url;
      }),

    async parseWebhook(rawBody, signature) {
      if (!signature) throw new WebhookSignatureError("Missing Stripe-Signature header");
      let event: Stripe.Event;
      try {
        event = stripe.webhooks.constructEvent(rawBody, signature, webhookSecret, WEBHOOK_TOLERANCE_SECONDS);
      } catch (error) {
        if (error instanceof Stripe.errors.StripeSignatureVerificationError) throw new WebhookSignatureError(error.message);
        throw error;
      }
      const parsed = eventFromWebhook(event);
      if (parsed.kind !== "payment.succeeded") return parsed;
      // Invoice payloads do not carry their payment intent unless expanded; refunds (ours and
      // charge.refunded) find the payment by it, so it is asked for once here.
      const paymentIntentId = parsed.paymentIntentId ?? (await asProviderError(() => paymentIntentOfInvoiceId(parsed.paymentId)));
      // A first payment's card becomes the card on file /billing shows.
      const card = parsed.reason === "first" && paymentIntentId ? await cardOfPaymentIntent(paymentIntentId) : null;
      return { ...parsed, paymentIntentId, card };
    },
  };

  /**
   * The card a payment intent was paid with. Only shown on /billing: a failure to read it is
   * logged and the payment is recorded without it (the card page can still set it).
   */
  async function cardOfPaymentIntent(paymentIntentId: string): Promise<Card | null> {
    try {
      const intent = await stripe.paymentIntents.retrieve(paymentIntentId, { expand: ["payment_method"] });
      return cardOf(intent.payment_method);
    } catch (error) {
      logger.warn({ err: error, paymentIntentId }, "the card of a first payment could not be read");
      return null;
    }
  }

  /** The payment intent that paid an invoice, through its invoice payments. */
  async function paymentIntentOfInvoiceId(invoiceId: string) {
    const payments = await stripe.invoicePayments.list({ invoice: invoiceId, limit: 10 });
    const paid = payments.data.find((payment) => payment.status === "paid") ?? payments.data[0];
    return idOf(paid?.payment.payment_intent ?? null);
  }
}

/** A Stripe webhook event as a PaymentEvent; types we do not act on are "ignored". */
export function eventFromWebhook(event: Stripe.Event): PaymentEvent {
  const ignored: PaymentEvent = { kind: "ignored", eventId: event.id, type: event.type };
  switch (event.type) {
    case "checkout.session.completed": {
      const session = event.data.object;
      // The card page (setup mode): the card is recorded here too, in case the member never returns.
      if (session.mode === "setup") {
        const setupId = session.metadata?.setupId ?? session.client_reference_id;
        return setupId ? { kind: "card.saved", eventId: event.id, setupId } : ignored;
      }
      // Asynchronous payment methods complete the session unpaid; invoice.paid follows later.
      if (session.mode !== "subscription" || session.payment_status !== "paid") return ignored;
      // Taxed by Stripe Tax: its invoice.paid carries the tax the invoice must print, so that event grants it.
      if (session.automatic_tax?.enabled) return { ...ignored, type: "checkout.session.completed (taxed: granted by its invoice.paid)" };
      const invoiceId = idOf(session.invoice);
      if (!invoiceId) return ignored;
      return {
        kind: "payment.succeeded",
        eventId: event.id,
        checkoutId: session.metadata?.checkoutId ?? session.client_reference_id,
        // The invoice id, as invoice.paid and confirmations carry it: the three make one payment.
        paymentId: invoiceId,
        paymentIntentId: null,
        providerSubscriptionId: idOf(session.subscription),
        providerCustomerId: idOf(session.customer),
        amountCents: session.amount_total ?? 0,
        reason: "first",
        periodEnd: null,
      };
    }
    case "invoice.paid":
      return paidInvoiceEvent(event.data.object, event.id, null);
    case "invoice.payment_failed": {
      const invoice = event.data.object;
      const subscription = subscriptionOf(invoice);
      if (!subscription.id) return ignored;
      return {
        kind: "payment.failed",
        eventId: event.id,
        checkoutId: invoice.billing_reason === "subscription_create" ? (subscription.metadata.checkoutId ?? null) : null,
        providerSubscriptionId: subscription.id,
        message: attemptErrorMessage(invoice) ?? PAYMENT_FAILED_FALLBACK,
        // Smart Retries (or the dashboard's schedule) set the next try; null after the last.
        nextAttemptAt: invoice.next_payment_attempt ? new Date(invoice.next_payment_attempt * 1000) : null,
      };
    }
    case "customer.subscription.updated": {
      const subscription = event.data.object;
      // "Mark the subscription as unpaid" after the last retry: Stripe will not charge it again.
      if (subscription.status === "unpaid") {
        return { kind: "subscription.ended", eventId: event.id, providerSubscriptionId: subscription.id, afterFailedPayments: true };
      }
      return {
        kind: "subscription.renewal_changed",
        eventId: event.id,
        providerSubscriptionId: subscription.id,
        autoRenew: !subscription.cancel_at_period_end,
      };
    }
    case "customer.subscription.deleted": {
      const subscription = event.data.object;
      return {
        kind: "subscription.ended",
        eventId: event.id,
        providerSubscriptionId: subscription.id,
        // "Cancel the subscription" after the last retry.
        afterFailedPayments: subscription.cancellation_details?.reason === "payment_failed",
      };
    }
    case "charge.refunded": {
      const charge = event.data.object;
      const paymentIntentId = idOf(charge.payment_intent);
      if (!paymentIntentId) return ignored;
      return { kind: "payment.refunded", eventId: event.id, paymentIntentId, amountCents: charge.amount_refunded };
    }
    default:
      return ignored;
  }
}

/**
 * A paid invoice of one of our subscriptions: the first payment (its creation) or a yearly
 * renewal. Other invoices (a manual one, a mid-term update) are not something we sell.
 */
function paidInvoiceEvent(invoice: Stripe.Invoice, eventId: string, paymentIntentId: string | null): PaymentEvent {
  const subscription = subscriptionOf(invoice);
  const reason = invoice.billing_reason === "subscription_create" ? "first" : invoice.billing_reason === "subscription_cycle" ? "renewal" : null;
  if (!subscription.id || !reason) return { kind: "ignored", eventId, type: `invoice.paid (${invoice.billing_reason ?? "no billing reason"})` };
  const periodEnd = invoice.lines.data[0]?.period.end;
  return {
    kind: "payment.succeeded",
    eventId,
    checkoutId: reason === "first" ? (subscription.metadata.checkoutId ?? null) : null,
    paymentId: invoice.id,
    paymentIntentId: paymentIntentId ?? paymentIntentOfInvoice(invoice),
    providerSubscriptionId: subscription.id,
    providerCustomerId: idOf(invoice.customer),
    amountCents: invoice.amount_paid,
    reason,
    periodEnd: periodEnd ? new Date(periodEnd * 1000) : null,
    tax: taxOfInvoice(invoice),
  };
}

/** The tax Stripe Tax computed inside an invoice's amount; null when it computed none. */
function taxOfInvoice(invoice: Stripe.Invoice): ProviderTax | null {
  if (!invoice.automatic_tax?.enabled) return null;
  const taxes = invoice.total_taxes ?? [];
  return {
    amountCents: taxes.reduce((sum, tax) => sum + tax.amount, 0),
    reverseCharge: taxes.some((tax) => tax.taxability_reason === "reverse_charge"),
  };
}

function subscriptionOf(invoice: Stripe.Invoice) {
  const details = invoice.parent?.subscription_details;
  return { id: idOf(details?.subscription ?? null), metadata: details?.metadata ?? {} };
}

/** Stripe includes `payments` only when asked (expand); webhook payloads usually lack it. */
function paymentIntentOfInvoice(invoice: Stripe.Invoice) {
  const paid = invoice.payments?.data.find((payment) => payment.status === "paid") ?? invoice.payments?.data[0];
  return idOf(paid?.payment.payment_intent ?? null);
}

function attemptErrorMessage(invoice: Stripe.Invoice) {
  for (const payment of invoice.payments?.data ?? []) {
    const intent = payment.payment.payment_intent;
    if (intent && typeof intent === "object" && intent.last_payment_error?.message) return intent.last_payment_error.message;
  }
  return invoice.last_finalization_error?.message ?? null;
}

/** A payment method, when expanded and a card, as /billing shows it. */
function cardOf(method: string | Stripe.PaymentMethod | null): Card | null {
  if (!method || typeof method === "string" || !method.card) return null;
  return { brand: method.card.brand, last4: method.card.last4, expMonth: method.card.exp_month, expYear: method.card.exp_year };
}

function idOf(value: string | { id: string } | null | undefined) {
  if (!value) return null;
  return typeof value === "string" ? value : value.id;
}

/** A card refused by Stripe becomes a message the buyer can read; anything else stays an error. */
async function asProviderError<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (error instanceof Stripe.errors.StripeCardError) throw new ProviderDeclinedError(error.message);
    throw error;
  }
}
