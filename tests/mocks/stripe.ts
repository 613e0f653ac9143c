import { randomBytes } from "node:crypto";
import { http, HttpResponse } from "msw";
import { setupServer } from "msw/node";
import { afterAll, afterEach, beforeAll } from "vitest";

// Stripe's HTTP edge (https://api.stripe.com/v1) for msw's setupServer, answering the calls the
// Stripe adapter makes with objects shaped as API version 2026-10-28.endive returns them
// (stripe 23.1.0's pin): invoices name their subscription under parent.subscription_details,
// payment intents reach their invoice through invoice payments. Request bodies are Stripe's
// form encoding (`metadata[checkoutId]=…`); every request is recorded with its parsed form.
// Tests put payment intents and invoice payments in, and queue error responses.

export const STRIPE_API = "https://api.stripe.com";
export const API_VERSION = "2026-10-28.endive";

export type StripeRequest = { method: string; path: string; headers: Headers; form: URLSearchParams };
type Json = Record<string, unknown>;

/** A Stripe-looking id: the object's prefix, then 24 random characters. */
export const stripeId = (prefix: string) => `${prefix}_1${randomBytes(18).toString("base64url").replace(/[-_]/g, "x").slice(0, 23)}`;
const now = () => Math.floor(Date.now() / 1000);
const YEAR = 365 * 24 * 60 * 60;

export function customerObject(params: { id?: string; email?: string | null; name?: string | null; metadata?: Json }) {
  return {
    id: params.id ?? stripeId("cus"),
    object: "customer",
    address: null,
    balance: 0,
    created: now(),
    currency: null,
    default_source: null,
    delinquent: false,
    description: null,
    email: params.email ?? null,
    invoice_prefix: "A1B2C3D4",
    invoice_settings: { custom_fields: null, default_payment_method: null, footer: null, rendering_options: null },
    livemode: false,
    metadata: params.metadata ?? {},
    name: params.name ?? null,
    phone: null,
    preferred_locales: [],
    shipping: null,
    tax_exempt: "none",
    test_clock: null,
  };
}

/** Stripe's test card that pays, as an expanded payment method. */
export const TEST_CARD_METHOD = {
  id: "pm_card_visa",
  object: "payment_method",
  card: { brand: "visa", last4: "4242", exp_month: 12, exp_year: 2034, funding: "credit", country: "US" },
  type: "card",
};

/** A Checkout Session in setup mode once the member saved a card, its SetupIntent and card expanded. */
export function setupSessionObject(params: { id: string; customer: string; card: { brand: string; last4: string; expMonth: number; expYear: number } | null }) {
  const paymentMethod = params.card && {
    id: stripeId("pm"),
    object: "payment_method",
    card: {
      brand: params.card.brand,
      last4: params.card.last4,
      exp_month: params.card.expMonth,
      exp_year: params.card.expYear,
      funding: "credit",
      country: "US",
    },
    customer: params.customer,
    type: "card",
  };
  return {
    ...checkoutSessionObject({ id: params.id, customer: params.customer, amountTotal: 0, metadata: {}, clientReferenceId: null, status: "complete" }),
    mode: "setup",
    setup_intent: {
      id: stripeId("seti"),
      object: "setup_intent",
      customer: params.customer,
      payment_method: paymentMethod,
      status: paymentMethod ? "succeeded" : "requires_payment_method",
      usage: "off_session",
    },
  };
}

export function checkoutSessionObject(params: {
  id?: string;
  customer: string;
  amountTotal: number;
  metadata: Json;
  clientReferenceId: string | null;
  successUrl?: string | null;
  cancelUrl?: string | null;
  status?: "open" | "complete";
  paymentStatus?: "paid" | "unpaid";
  invoice?: string | null;
  subscription?: string | null;
}) {
  const id = params.id ?? stripeId("cs_test");
  return {
    id,
    object: "checkout.session",
    adaptive_pricing: null,
    after_expiration: null,
    allow_promotion_codes: null,
    amount_subtotal: params.amountTotal,
    amount_total: params.amountTotal,
    automatic_tax: { enabled: false, liability: null, provider: null, status: null },
    billing_address_collection: null,
    cancel_url: params.cancelUrl ?? null,
    client_reference_id: params.clientReferenceId,
    client_secret: null,
    created: now(),
    currency: "usd",
    customer: params.customer,
    customer_creation: null,
    customer_details: null,
    customer_email: null,
    expires_at: now() + 24 * 60 * 60,
    invoice: params.invoice ?? null,
    invoice_creation: null,
    livemode: false,
    locale: null,
    metadata: params.metadata,
    mode: "subscription",
    payment_intent: null,
    payment_link: null,
    payment_method_collection: "always",
    payment_method_types: ["card"],
    payment_status: params.paymentStatus ?? "unpaid",
    status: params.status ?? "open",
    submit_type: null,
    subscription: params.subscription ?? null,
    success_url: params.successUrl ?? null,
    total_details: { amount_discount: 0, amount_shipping: 0, amount_tax: 0 },
    ui_mode: "hosted_page",
    url: params.status === "complete" ? null : `https://checkout.stripe.com/c/pay/${id}#fidkdWxOYHwnPyd1blpxYHZxWjA0`,
  };
}

export function invoiceObject(params: {
  id?: string;
  customer: string;
  subscription: string | null;
  subscriptionMetadata?: Json;
  amount: number;
  billingReason: string;
  status?: "paid" | "open";
  periodEnd?: number;
  lastFinalizationError?: Json | null;
  payments?: Json[];
}) {
  const id = params.id ?? stripeId("in");
  const paid = (params.status ?? "paid") === "paid";
  const periodStart = (params.periodEnd ?? now() + YEAR) - YEAR;
  const periodEnd = params.periodEnd ?? now() + YEAR;
  return {
    id,
    object: "invoice",
    account_country: "US",
    account_name: "Medanim",
    amount_due: params.amount,
    amount_overpaid: 0,
    amount_paid: paid ? params.amount : 0,
    amount_remaining: paid ? 0 : params.amount,
    attempt_count: 1,
    attempted: true,
    billing_reason: params.billingReason,
    collection_method: "charge_automatically",
    created: periodStart,
    currency: "usd",
    customer: params.customer,
    customer_email: "buyer@example.com",
    customer_name: "Ada Buyer",
    description: null,
    hosted_invoice_url: `https://invoice.stripe.com/i/acct_1Test/test_${id}`,
    invoice_pdf: `https://pay.stripe.com/invoice/acct_1Test/test_${id}/pdf`,
    last_finalization_error: params.lastFinalizationError ?? null,
    lines: {
      object: "list",
      data: [
        {
          id: stripeId("il"),
          object: "line_item",
          amount: params.amount,
          currency: "usd",
          description: "1 × Premium (at $99.00 / year)",
          discount_amounts: [],
          discountable: true,
          discounts: [],
          invoice: id,
          livemode: false,
          metadata: {},
          parent: params.subscription
            ? {
                type: "subscription_item_details",
                invoice_item_details: null,
                subscription_item_details: {
                  invoice_item: null,
                  proration: false,
                  proration_details: { credited_items: null },
                  subscription: params.subscription,
                  subscription_item: stripeId("si"),
                },
              }
            : null,
          period: { start: periodStart, end: periodEnd },
          pretax_credit_amounts: [],
          pricing: {
            type: "price_details",
            price_details: { price: stripeId("price"), product: stripeId("prod") },
            unit_amount_decimal: String(params.amount),
          },
          quantity: 1,
          subtotal: params.amount,
          taxes: [],
        },
      ],
      has_more: false,
      total_count: 1,
      url: `/v1/invoices/${id}/lines`,
    },
    livemode: false,
    metadata: {},
    number: "A1B2C3D4-0001",
    parent: params.subscription
      ? {
          type: "subscription_details",
          quote_details: null,
          subscription_details: { metadata: params.subscriptionMetadata ?? {}, subscription: params.subscription },
        }
      : null,
    ...(params.payments ? { payments: { object: "list", data: params.payments, has_more: false, url: `/v1/invoice_payments?invoice=${id}` } } : {}),
    period_end: periodStart,
    period_start: periodStart,
    status: params.status ?? "paid",
    status_transitions: { finalized_at: periodStart, marked_uncollectible_at: null, paid_at: paid ? periodStart : null, voided_at: null },
    subtotal: params.amount,
    total: params.amount,
    webhooks_delivered_at: periodStart,
  };
}

export function paymentIntentObject(params: {
  id?: string;
  customer: string;
  amount: number;
  status: "succeeded" | "processing" | "requires_payment_method" | "requires_action" | "canceled";
  lastPaymentError?: Json | null;
}) {
  const id = params.id ?? stripeId("pi");
  return {
    id,
    object: "payment_intent",
    amount: params.amount,
    amount_capturable: 0,
    amount_received: params.status === "succeeded" ? params.amount : 0,
    application: null,
    application_fee_amount: null,
    automatic_payment_methods: null,
    canceled_at: params.status === "canceled" ? now() : null,
    cancellation_reason: null,
    capture_method: "automatic_async",
    client_secret: `${id}_secret_Nq2k8YlTestSecret`,
    confirmation_method: "automatic",
    created: now(),
    currency: "usd",
    customer: params.customer,
    description: "Subscription creation",
    last_payment_error: params.lastPaymentError ?? null,
    latest_charge: params.status === "succeeded" ? stripeId("ch") : null,
    livemode: false,
    metadata: {},
    next_action: null,
    payment_method: stripeId("pm"),
    payment_method_types: ["card"],
    status: params.status,
  };
}

export function invoicePaymentObject(params: { invoice: Json | string; paymentIntent: string | Json; amount: number; status: "paid" | "open" | "canceled" }) {
  return {
    id: stripeId("inpay"),
    object: "invoice_payment",
    amount_paid: params.status === "paid" ? params.amount : null,
    amount_requested: params.amount,
    created: now(),
    currency: "usd",
    invoice: params.invoice,
    is_default: true,
    livemode: false,
    payment: { type: "payment_intent", payment_intent: params.paymentIntent },
    status: params.status,
    status_transitions: { canceled_at: null, paid_at: params.status === "paid" ? now() : null },
  };
}

export function subscriptionObject(params: { id?: string; customer: string; metadata: Json; cancelAtPeriodEnd?: boolean; status?: string; amount?: number }) {
  const start = now();
  return {
    id: params.id ?? stripeId("sub"),
    object: "subscription",
    application: null,
    billing_cycle_anchor: start,
    cancel_at: params.cancelAtPeriodEnd ? start + YEAR : null,
    cancel_at_period_end: params.cancelAtPeriodEnd ?? false,
    canceled_at: params.status === "canceled" ? start : null,
    collection_method: "charge_automatically",
    created: start,
    currency: "usd",
    customer: params.customer,
    default_payment_method: null,
    description: null,
    ended_at: params.status === "canceled" ? start : null,
    items: {
      object: "list",
      data: [
        {
          id: stripeId("si"),
          object: "subscription_item",
          created: start,
          current_period_end: start + YEAR,
          current_period_start: start,
          metadata: {},
          price: {
            id: stripeId("price"),
            object: "price",
            active: false,
            currency: "usd",
            recurring: { interval: "year", interval_count: 1, usage_type: "licensed" },
            type: "recurring",
            unit_amount: params.amount ?? 9900,
          },
          quantity: 1,
        },
      ],
      has_more: false,
      total_count: 1,
      url: "/v1/subscription_items",
    },
    latest_invoice: null as unknown,
    livemode: false,
    metadata: params.metadata,
    payment_settings: { payment_method_options: null, payment_method_types: null, save_default_payment_method: "on_subscription" },
    start_date: start,
    status: params.status ?? "incomplete",
  };
}

export function chargeObject(params: { paymentIntent: string; amount: number; amountRefunded: number; customer: string }) {
  return {
    id: stripeId("ch"),
    object: "charge",
    amount: params.amount,
    amount_captured: params.amount,
    amount_refunded: params.amountRefunded,
    captured: true,
    created: now(),
    currency: "usd",
    customer: params.customer,
    livemode: false,
    metadata: {},
    paid: true,
    payment_intent: params.paymentIntent,
    refunded: params.amountRefunded === params.amount,
    status: "succeeded",
  };
}

/** The envelope Stripe posts to a webhook endpoint. */
export function eventObject(type: string, object: Json, id = stripeId("evt")) {
  return {
    id,
    object: "event",
    api_version: API_VERSION,
    created: now(),
    data: { object },
    livemode: false,
    pending_webhooks: 1,
    request: { id: stripeId("req"), idempotency_key: null },
    type,
  };
}

/** Stripe's error body, e.g. a declined card (402) or an invalid request (400). */
export function stripeErrorResponse(status: number, error: Json) {
  return HttpResponse.json({ error }, { status, headers: { "Request-Id": stripeId("req"), "Stripe-Version": API_VERSION } });
}

export function createStripeMock() {
  const requests: StripeRequest[] = [];
  const paymentIntents = new Map<string, Json>();
  const invoicePayments: Json[] = [];
  /** Checkout Sessions as a retrieve answers them (a test puts a setup session with its SetupIntent). */
  const checkoutSessions = new Map<string, Json>();
  const failures = new Map<string, Response>();
  const state = { refundStatus: "succeeded" as "succeeded" | "pending" };

  const ok = (body: object) => HttpResponse.json(body as Json, { headers: { "Request-Id": stripeId("req"), "Stripe-Version": API_VERSION } });
  const notFound = (kind: string, id: string) =>
    stripeErrorResponse(404, {
      type: "invalid_request_error",
      code: "resource_missing",
      param: "id",
      message: `No such ${kind}: '${id}'`,
      doc_url: "https://stripe.com/docs/error-codes/resource-missing",
    });

  async function record(request: Request) {
    const url = new URL(request.url);
    const form = request.method === "GET" || request.method === "DELETE" ? new URLSearchParams(url.search) : new URLSearchParams(await request.text());
    const entry = { method: request.method, path: url.pathname, headers: new Headers(request.headers), form };
    requests.push(entry);
    return entry;
  }

  /** Every request is recorded; a queued failure for `${method} ${path}` answers it once. */
  const handle =
    (resolver: (entry: StripeRequest, params: Record<string, string>) => Response | Promise<Response>) =>
    async ({ request, params }: { request: Request; params: Record<string, string | readonly string[] | undefined> }) => {
      const entry = await record(request);
      const key = `${entry.method} ${entry.path}`;
      const failure = failures.get(key);
      if (failure) {
        failures.delete(key);
        return failure;
      }
      return resolver(entry, params as Record<string, string>);
    };

  const metadataOf = (form: URLSearchParams, prefix = "") => {
    const metadata: Record<string, string> = {};
    for (const [key, value] of form) {
      const match = new RegExp(`^${prefix.replace(/[[\]]/g, "\\$&")}metadata\\[([^\\]]+)\\]$`).exec(key);
      if (match) metadata[match[1]!] = value;
    }
    return metadata;
  };

  const handlers = [
    http.post(
      `${STRIPE_API}/v1/customers`,
      handle(({ form }) => ok(customerObject({ email: form.get("email"), name: form.get("name"), metadata: metadataOf(form) }))),
    ),
    http.post(
      `${STRIPE_API}/v1/checkout/sessions`,
      handle(({ form }) => {
        const amount = Number(form.get("line_items[0][price_data][unit_amount]")) * Number(form.get("line_items[0][quantity]") ?? 1);
        return ok(
          checkoutSessionObject({
            customer: form.get("customer")!,
            amountTotal: amount,
            metadata: metadataOf(form),
            clientReferenceId: form.get("client_reference_id"),
            successUrl: form.get("success_url"),
            cancelUrl: form.get("cancel_url"),
          }),
        );
      }),
    ),
    http.get(
      `${STRIPE_API}/v1/checkout/sessions/:id`,
      handle((_entry, { id }) => {
        const session = checkoutSessions.get(id!);
        return session ? ok(session) : notFound("checkout.session", id!);
      }),
    ),
    http.post(
      `${STRIPE_API}/v1/customers/:id`,
      handle((_entry, { id }) => (id!.startsWith("cus_") ? ok(customerObject({ id })) : notFound("customer", id!))),
    ),
    http.post(
      `${STRIPE_API}/v1/products`,
      handle(({ form }) =>
        ok({
          id: stripeId("prod"),
          object: "product",
          active: true,
          created: now(),
          default_price: null,
          description: form.get("description"),
          images: [],
          livemode: false,
          metadata: metadataOf(form),
          name: form.get("name"),
          type: "service",
          updated: now(),
          url: null,
        }),
      ),
    ),
    http.post(
      `${STRIPE_API}/v1/subscriptions`,
      handle(({ form }) => {
        const customer = form.get("customer")!;
        const amount = Number(form.get("items[0][price_data][unit_amount]"));
        const subscription = subscriptionObject({ customer, metadata: metadataOf(form), amount });
        const invoice = invoiceObject({
          customer,
          subscription: subscription.id,
          subscriptionMetadata: metadataOf(form),
          amount,
          billingReason: "subscription_create",
          status: "open",
        });
        const expand = [...form.entries()].filter(([key]) => key.startsWith("expand[")).map(([, value]) => value);
        if (expand.includes("latest_invoice") || expand.includes("latest_invoice.confirmation_secret")) {
          const intentId = stripeId("pi");
          subscription.latest_invoice = {
            ...invoice,
            ...(expand.includes("latest_invoice.confirmation_secret")
              ? { confirmation_secret: { client_secret: `${intentId}_secret_Nq2k8YlTestSecret`, type: "payment_intent" } }
              : {}),
          };
        } else {
          subscription.latest_invoice = invoice.id;
        }
        return ok(subscription);
      }),
    ),
    http.post(
      `${STRIPE_API}/v1/subscriptions/:id`,
      handle(({ form }, { id }) => {
        if (!id!.startsWith("sub_")) return notFound("subscription", id!);
        const cancelAtPeriodEnd = form.get("cancel_at_period_end") === "true";
        return ok(subscriptionObject({ id, customer: "cus_Tst", metadata: {}, cancelAtPeriodEnd, status: "active" }));
      }),
    ),
    http.delete(
      `${STRIPE_API}/v1/subscriptions/:id`,
      handle((_entry, { id }) => {
        if (!id!.startsWith("sub_")) return notFound("subscription", id!);
        return ok(subscriptionObject({ id, customer: "cus_Tst", metadata: {}, status: "canceled" }));
      }),
    ),
    http.get(
      `${STRIPE_API}/v1/payment_intents/:id`,
      handle(({ form }, { id }) => {
        const intent = paymentIntents.get(id!);
        if (!intent) return notFound("payment_intent", id!);
        // Expanded, its payment method is Stripe's test card that pays (4242).
        const expanded = [...form.entries()].some(([key, value]) => key.startsWith("expand[") && value === "payment_method");
        return ok(expanded ? { ...intent, payment_method: TEST_CARD_METHOD } : intent);
      }),
    ),
    http.get(
      `${STRIPE_API}/v1/invoice_payments`,
      handle(({ form }) => {
        const intentId = form.get("payment[payment_intent]");
        const invoiceId = form.get("invoice");
        const expandInvoice = [...form.entries()].some(([key, value]) => key.startsWith("expand[") && value === "data.invoice");
        const limit = Number(form.get("limit") ?? 10);
        const matching = invoicePayments
          .filter((payment) => !intentId || (payment.payment as Json).payment_intent === intentId)
          .filter((payment) => !invoiceId || (payment.invoice as Json).id === invoiceId)
          .slice(0, limit)
          .map((payment) => (expandInvoice ? payment : { ...payment, invoice: (payment.invoice as Json).id }));
        return ok({ object: "list", data: matching, has_more: false, url: "/v1/invoice_payments" });
      }),
    ),
    http.post(
      `${STRIPE_API}/v1/refunds`,
      handle(({ form }) =>
        ok({
          id: stripeId("re"),
          object: "refund",
          amount: 9900,
          balance_transaction: state.refundStatus === "succeeded" ? stripeId("txn") : null,
          charge: stripeId("ch"),
          created: now(),
          currency: "usd",
          destination_details: { type: "card", card: { reference_status: "pending", reference_type: "acquirer_reference_number", type: "refund" } },
          metadata: {},
          payment_intent: form.get("payment_intent"),
          reason: null,
          receipt_number: null,
          source_transfer_reversal: null,
          status: state.refundStatus,
          transfer_reversal: null,
        }),
      ),
    ),
    http.post(
      `${STRIPE_API}/v1/billing_portal/sessions`,
      handle(({ form }) => {
        const id = stripeId("bps");
        return ok({
          id,
          object: "billing_portal.session",
          configuration: stripeId("bpc"),
          created: now(),
          customer: form.get("customer"),
          flow: null,
          livemode: false,
          locale: null,
          on_behalf_of: null,
          return_url: form.get("return_url"),
          url: `https://billing.stripe.com/p/session/test_${id}`,
        });
      }),
    ),
  ];

  return {
    handlers,
    requests,
    paymentIntents,
    invoicePayments,
    checkoutSessions,
    state,
    /** The next `${method} ${path}` request gets this response instead (e.g. a declined card). */
    failNext(method: string, path: string, response: Response) {
      failures.set(`${method} ${path}`, response);
    },
    reset() {
      requests.length = 0;
      paymentIntents.clear();
      invoicePayments.length = 0;
      checkoutSessions.clear();
      failures.clear();
      state.refundStatus = "succeeded";
    },
  };
}

/**
 * Stripe's HTTP edge for one test file: msw answering as Stripe would, refusing any request
 * it has no handler for, and reset between tests.
 */
export function useStripeMock() {
  const mock = createStripeMock();
  const server = setupServer(...mock.handlers);
  // Only Stripe's edge is mocked: the test's own requests to the app (tests/helpers/app.ts, on
  // 127.0.0.1) go through; anything else unhandled fails the request.
  beforeAll(() =>
    server.listen({
      onUnhandledRequest: (request, print) => {
        if (new URL(request.url).hostname !== "127.0.0.1") print.error();
      },
    }),
  );
  afterEach(() => {
    mock.reset();
    server.resetHandlers();
  });
  afterAll(() => server.close());
  return { mock, server };
}
