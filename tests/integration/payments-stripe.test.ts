import { http, HttpResponse } from "msw";
import Stripe from "stripe";
import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { getEnv, resetEnv } from "~/lib/env.server.ts";
import { getPaymentProvider, isStripeConfigured, setPaymentProvider } from "~/lib/payments/index.server.ts";
import { ProviderDeclinedError, WebhookSignatureError, type StartCheckoutInput } from "~/lib/payments/provider.server.ts";
import { createStripeProvider } from "~/lib/payments/stripe.server.ts";
import {
  chargeObject,
  checkoutSessionObject,
  eventObject,
  invoiceObject,
  invoicePaymentObject,
  paymentIntentObject,
  STRIPE_API,
  stripeErrorResponse,
  subscriptionObject,
  useStripeMock,
} from "../mocks/stripe.ts";

// The Stripe adapter against Stripe's HTTP edge (msw): what each call sends (form bodies,
// idempotency keys) and what the adapter makes of Stripe's answers; webhooks signed with the
// SDK's own test-header helper.

const WEBHOOK_SECRET = "whsec_test_medanim_0123456789abcdef";
const { mock: stripeMock, server } = useStripeMock();
const provider = createStripeProvider({ secretKey: "sk_test_medanim_adapter", publishableKey: "pk_test_medanim_adapter", webhookSecret: WEBHOOK_SECRET });

const CHECKOUT_ID = "6f1c2a9e-3b4d-4c5e-8f70-0123456789ab";
const KEY = `checkout:${CHECKOUT_ID}`;

function checkoutInput(overrides: Partial<StartCheckoutInput> = {}): StartCheckoutInput {
  return {
    checkoutId: CHECKOUT_ID,
    customer: { userId: "2b7e1516-28ae-4d2a-a6f7-15880900c0de", email: "ada@example.com", name: "Ada Lovelace", providerCustomerId: null },
    item: { name: "Premium", description: "A year of premium access to every animation", amountCents: 9900, currency: "usd" },
    metadata: { userId: "2b7e1516-28ae-4d2a-a6f7-15880900c0de", type: "global" },
    mode: "hosted",
    successUrl: `http://localhost:3000/checkout/return?checkout=${CHECKOUT_ID}`,
    cancelUrl: `http://localhost:3000/checkout/return?checkout=${CHECKOUT_ID}&canceled=1`,
    ...overrides,
  };
}

const requestsTo = (method: string, path: string) => stripeMock.requests.filter((r) => r.method === method && r.path === path);
const only = (method: string, path: string) => {
  const found = requestsTo(method, path);
  expect(found, `${method} ${path}`).toHaveLength(1);
  return found[0]!;
};

describe("startCheckout, hosted (Stripe Checkout)", () => {
  it("makes the user's Stripe customer, then a yearly subscription Checkout Session fixing item, price and metadata", async () => {
    const result = await provider.startCheckout(checkoutInput(), KEY);

    const customer = only("POST", "/v1/customers");
    expect(customer.form.get("email")).toBe("ada@example.com");
    expect(customer.form.get("name")).toBe("Ada Lovelace");
    expect(customer.form.get("metadata[userId]")).toBe("2b7e1516-28ae-4d2a-a6f7-15880900c0de");
    expect(customer.headers.get("idempotency-key")).toBe(`${KEY}:customer`);

    const session = only("POST", "/v1/checkout/sessions");
    const form = session.form;
    expect(form.get("mode")).toBe("subscription");
    expect(form.get("customer")).toBe(result.providerCustomerId);
    expect(form.get("client_reference_id")).toBe(CHECKOUT_ID);
    expect(form.get("line_items[0][quantity]")).toBe("1");
    expect(form.get("line_items[0][price_data][currency]")).toBe("usd");
    expect(form.get("line_items[0][price_data][unit_amount]")).toBe("9900");
    expect(form.get("line_items[0][price_data][recurring][interval]")).toBe("year");
    expect(form.get("line_items[0][price_data][product_data][name]")).toBe("Premium");
    expect(form.get("line_items[0][price_data][product_data][description]")).toBe("A year of premium access to every animation");
    expect(form.get("metadata[checkoutId]")).toBe(CHECKOUT_ID);
    expect(form.get("metadata[type]")).toBe("global");
    expect(form.get("metadata[userId]")).toBe("2b7e1516-28ae-4d2a-a6f7-15880900c0de");
    expect(form.get("subscription_data[metadata][checkoutId]")).toBe(CHECKOUT_ID);
    expect(form.get("subscription_data[metadata][type]")).toBe("global");
    expect(form.get("success_url")).toBe(`http://localhost:3000/checkout/return?checkout=${CHECKOUT_ID}`);
    expect(form.get("cancel_url")).toBe(`http://localhost:3000/checkout/return?checkout=${CHECKOUT_ID}&canceled=1`);
    expect(session.headers.get("idempotency-key")).toBe(`${KEY}:session`);

    expect(result.providerCustomerId).toMatch(/^cus_/);
    expect(result.providerSessionId).toMatch(/^cs_test_/);
    expect(result.url).toBe(`https://checkout.stripe.com/c/pay/${result.providerSessionId}#fidkdWxOYHwnPyd1blpxYHZxWjA0`);
    expect(result.clientSecret).toBeUndefined();
    expect(stripeMock.requests).toHaveLength(2);
  });

  it("reuses the customer the user already has and reports no new one", async () => {
    const input = checkoutInput();
    const result = await provider.startCheckout({ ...input, customer: { ...input.customer, providerCustomerId: "cus_1ExistingAdaCustomer0" } }, KEY);
    expect(requestsTo("POST", "/v1/customers")).toHaveLength(0);
    expect(only("POST", "/v1/checkout/sessions").form.get("customer")).toBe("cus_1ExistingAdaCustomer0");
    expect(result.providerCustomerId).toBeUndefined();
    expect(result.providerSessionId).toMatch(/^cs_test_/);
  });

  it("sends a category licence's own price and item", async () => {
    await provider.startCheckout(
      checkoutInput({
        item: { name: "Category licence: Cardiology", description: "A year of licence rights", amountCents: 29900, currency: "usd" },
        metadata: { userId: "u1", type: "category", categoryId: "c1" },
      }),
      KEY,
    );
    const form = only("POST", "/v1/checkout/sessions").form;
    expect(form.get("line_items[0][price_data][unit_amount]")).toBe("29900");
    expect(form.get("line_items[0][price_data][product_data][name]")).toBe("Category licence: Cardiology");
    expect(form.get("metadata[categoryId]")).toBe("c1");
    expect(form.get("subscription_data[metadata][categoryId]")).toBe("c1");
  });
});

describe("startCheckout, embedded (Payment Element)", () => {
  it("makes a product and an incomplete yearly subscription, and answers its first invoice's client secret", async () => {
    const result = await provider.startCheckout(checkoutInput({ mode: "embedded" }), KEY);

    const product = only("POST", "/v1/products");
    expect(product.form.get("name")).toBe("Premium");
    expect(product.form.get("description")).toBe("A year of premium access to every animation");
    expect(product.form.get("metadata[type]")).toBe("global");
    expect(product.headers.get("idempotency-key")).toBe(`${KEY}:product`);

    const subscription = only("POST", "/v1/subscriptions");
    const form = subscription.form;
    expect(form.get("customer")).toBe(result.providerCustomerId);
    expect(form.get("items[0][price_data][currency]")).toBe("usd");
    expect(form.get("items[0][price_data][product]")).toMatch(/^prod_/);
    expect(form.get("items[0][price_data][unit_amount]")).toBe("9900");
    expect(form.get("items[0][price_data][recurring][interval]")).toBe("year");
    expect(form.get("payment_behavior")).toBe("default_incomplete");
    expect(form.get("payment_settings[save_default_payment_method]")).toBe("on_subscription");
    expect(form.get("metadata[checkoutId]")).toBe(CHECKOUT_ID);
    expect(form.get("metadata[userId]")).toBe("2b7e1516-28ae-4d2a-a6f7-15880900c0de");
    expect(form.get("expand[0]")).toBe("latest_invoice.confirmation_secret");
    expect(subscription.headers.get("idempotency-key")).toBe(`${KEY}:subscription`);
    expect(only("POST", "/v1/customers").headers.get("idempotency-key")).toBe(`${KEY}:customer`);

    expect(result.providerSessionId).toMatch(/^sub_/);
    expect(result.clientSecret).toMatch(/^pi_\w+_secret_\w+$/);
    expect(result.url).toBeUndefined();
  });

  it("surfaces a declined card as ProviderDeclinedError with Stripe's message", async () => {
    stripeMock.failNext(
      "POST",
      "/v1/subscriptions",
      stripeErrorResponse(402, {
        type: "card_error",
        code: "card_declined",
        decline_code: "insufficient_funds",
        message: "Your card has insufficient funds.",
        charge: "ch_1DeclinedChargeTest000",
        doc_url: "https://stripe.com/docs/error-codes/card-declined",
        request_log_url: "https://dashboard.stripe.com/test/logs/req_1Declined",
      }),
    );
    const error = await provider.startCheckout(checkoutInput({ mode: "embedded" }), KEY).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProviderDeclinedError);
    expect((error as Error).message).toBe("Your card has insufficient funds.");
    // A 402 is an answer, not a network failure: no retry.
    expect(requestsTo("POST", "/v1/subscriptions")).toHaveLength(1);
  });

  it("lets any other Stripe error through as an error, not as a decline", async () => {
    stripeMock.failNext(
      "POST",
      "/v1/checkout/sessions",
      stripeErrorResponse(400, {
        type: "invalid_request_error",
        code: "parameter_invalid_integer",
        param: "line_items[0][price_data][unit_amount]",
        message: "Invalid integer: 99.5",
      }),
    );
    const error = await provider.startCheckout(checkoutInput(), KEY).catch((e: unknown) => e);
    expect(error).not.toBeInstanceOf(ProviderDeclinedError);
    expect(error).toBeInstanceOf(Stripe.errors.StripeInvalidRequestError);
  });
});

describe("confirmPayment", () => {
  const customer = "cus_1AdaCustomerForConfirm0";
  const subscription = "sub_1AdaSubscriptionConfirm";

  function putPayment(
    intentStatus: "succeeded" | "processing" | "requires_payment_method" | "canceled",
    billingReason = "subscription_create",
    lastPaymentError: Record<string, unknown> | null = null,
  ) {
    const intent = paymentIntentObject({ customer, amount: 9900, status: intentStatus, lastPaymentError });
    const periodEnd = Math.floor(Date.UTC(2027, 10, 23, 15, 0, 0) / 1000);
    const invoice = invoiceObject({
      customer,
      subscription,
      subscriptionMetadata: { checkoutId: CHECKOUT_ID, userId: "u1", type: "global" },
      amount: 9900,
      billingReason,
      status: intentStatus === "succeeded" ? "paid" : "open",
      periodEnd,
    });
    stripeMock.paymentIntents.set(intent.id, intent);
    stripeMock.invoicePayments.push(
      invoicePaymentObject({ invoice, paymentIntent: intent.id, amount: 9900, status: intentStatus === "succeeded" ? "paid" : "open" }),
    );
    return { intent, invoice, periodEnd };
  }

  it("a succeeded first payment is payment.succeeded keyed by the invoice id, with the checkout from the subscription's metadata", async () => {
    const { intent, invoice, periodEnd } = putPayment("succeeded");
    const events = await provider.confirmPayment(intent.id);

    // Asked with its payment method expanded: the card it paid with becomes the card on file.
    expect(only("GET", `/v1/payment_intents/${intent.id}`).form.get("expand[0]")).toBe("payment_method");
    const list = only("GET", "/v1/invoice_payments").form;
    expect(list.get("payment[type]")).toBe("payment_intent");
    expect(list.get("payment[payment_intent]")).toBe(intent.id);
    expect(list.get("expand[0]")).toBe("data.invoice");

    expect(events).toEqual([
      {
        kind: "payment.succeeded",
        eventId: `confirm_${invoice.id}`,
        checkoutId: CHECKOUT_ID,
        paymentId: invoice.id,
        paymentIntentId: intent.id,
        providerSubscriptionId: subscription,
        providerCustomerId: customer,
        amountCents: 9900,
        reason: "first",
        periodEnd: new Date(periodEnd * 1000),
        card: { brand: "visa", last4: "4242", expMonth: 12, expYear: 2034 },
        tax: null,
      },
    ]);
  });

  it("a renewal invoice's payment is a renewal without a checkout", async () => {
    const { intent } = putPayment("succeeded", "subscription_cycle");
    const [event] = await provider.confirmPayment(intent.id);
    expect(event).toMatchObject({ kind: "payment.succeeded", reason: "renewal", checkoutId: null, providerSubscriptionId: subscription });
  });

  it("a refused payment is payment.failed with Stripe's message", async () => {
    const { intent } = putPayment("requires_payment_method", "subscription_create", {
      type: "card_error",
      code: "card_declined",
      decline_code: "generic_decline",
      message: "Your card was declined.",
      doc_url: "https://stripe.com/docs/error-codes/card-declined",
    });
    const events = await provider.confirmPayment(intent.id);
    expect(events).toEqual([
      {
        kind: "payment.failed",
        eventId: `confirm_failed_${intent.id}_card_declined`,
        checkoutId: CHECKOUT_ID,
        providerSubscriptionId: subscription,
        message: "Your card was declined.",
        nextAttemptAt: null,
      },
    ]);
  });

  it("a canceled payment intent is payment.failed with a plain message", async () => {
    const { intent } = putPayment("canceled");
    const [event] = await provider.confirmPayment(intent.id);
    expect(event).toMatchObject({ kind: "payment.failed", checkoutId: CHECKOUT_ID, message: expect.stringMatching(/could not be completed/) });
  });

  it("a payment still processing answers no event and asks nothing more", async () => {
    const { intent } = putPayment("processing");
    expect(await provider.confirmPayment(intent.id)).toEqual([]);
    expect(requestsTo("GET", "/v1/invoice_payments")).toHaveLength(0);
  });

  it("a payment intent that pays none of our invoices answers no event", async () => {
    const intent = paymentIntentObject({ customer, amount: 500, status: "succeeded" });
    stripeMock.paymentIntents.set(intent.id, intent);
    expect(await provider.confirmPayment(intent.id)).toEqual([]);
    only("GET", "/v1/invoice_payments");
  });

  it("retries a failed request twice at most, then reports Stripe's error", async () => {
    let attempts = 0;
    server.use(
      http.get(`${STRIPE_API}/v1/payment_intents/:id`, () => {
        attempts += 1;
        return HttpResponse.json(
          { error: { type: "api_error", message: "An unknown error occurred" } },
          { status: 503, headers: { "Stripe-Should-Retry": "true", "Request-Id": "req_1Unavailable000000000" } },
        );
      }),
    );
    await expect(provider.confirmPayment("pi_1Unavailable0000000000")).rejects.toThrow(/An unknown error occurred/);
    expect(attempts).toBe(3);
  });

  it("an unknown payment intent id is Stripe's 404, not an event", async () => {
    await expect(provider.confirmPayment("pi_1DoesNotExist000000000")).rejects.toThrow(/No such payment_intent/);
  });
});

describe("refund, renewal switch, cancel, billing portal", () => {
  it("refunds a payment intent with the caller's idempotency key; succeeded only when Stripe says so", async () => {
    const done = await provider.refund("pi_1RefundMe000000000000", "refund:req-1");
    const sent = only("POST", "/v1/refunds");
    expect(sent.form.get("payment_intent")).toBe("pi_1RefundMe000000000000");
    expect(sent.headers.get("idempotency-key")).toBe("refund:req-1");
    expect(done).toEqual({ refundId: expect.stringMatching(/^re_/), status: "succeeded" });

    stripeMock.state.refundStatus = "pending";
    expect(await provider.refund("pi_1RefundMe000000000000", "refund:req-2")).toMatchObject({ status: "pending" });
  });

  it("turns renewal off and on with cancel_at_period_end", async () => {
    await provider.setAutoRenew("sub_1RenewalSwitch00000000", false, "renew:1");
    await provider.setAutoRenew("sub_1RenewalSwitch00000000", true, "renew:2");
    const [off, on] = requestsTo("POST", "/v1/subscriptions/sub_1RenewalSwitch00000000");
    expect(off!.form.get("cancel_at_period_end")).toBe("true");
    expect(off!.headers.get("idempotency-key")).toBe("renew:1");
    expect(on!.form.get("cancel_at_period_end")).toBe("false");
    expect(on!.headers.get("idempotency-key")).toBe("renew:2");
  });

  it("cancels a subscription now", async () => {
    await provider.cancelNow("sub_1CancelNow0000000000", "cancel:1");
    const sent = only("DELETE", "/v1/subscriptions/sub_1CancelNow0000000000");
    expect(sent.headers.get("idempotency-key")).toBe("cancel:1");
  });

  it("a subscription Stripe does not know is an error", async () => {
    await expect(provider.cancelNow("test_sub_not-a-stripe-one", "cancel:2")).rejects.toThrow(/No such subscription/);
  });

  it("opens a billing portal session for the customer and answers its URL", async () => {
    const url = await provider.billingPortalUrl("cus_1PortalCustomer0000000", "http://localhost:3000/billing");
    const sent = only("POST", "/v1/billing_portal/sessions");
    expect(sent.form.get("customer")).toBe("cus_1PortalCustomer0000000");
    expect(sent.form.get("return_url")).toBe("http://localhost:3000/billing");
    expect(sent.headers.get("idempotency-key")).toMatch(/^portal:/);
    expect(url).toMatch(/^https:\/\/billing\.stripe\.com\/p\/session\/test_bps_/);
  });

  it("sends an Idempotency-Key on every write it makes", async () => {
    await provider.startCheckout(checkoutInput(), "k1");
    await provider.startCheckout(checkoutInput({ mode: "embedded" }), "k2");
    await provider.refund("pi_1Every0000000000000000", "k3");
    await provider.setAutoRenew("sub_1Every000000000000000", false, "k4");
    await provider.cancelNow("sub_1Every000000000000000", "k5");
    await provider.billingPortalUrl("cus_1Every000000000000000", "http://localhost:3000/billing");
    const writes = stripeMock.requests.filter((r) => r.method === "POST" || r.method === "DELETE");
    expect(writes).toHaveLength(9);
    for (const write of writes) expect(write.headers.get("idempotency-key"), `${write.method} ${write.path}`).toBeTruthy();
  });
});

describe("parseWebhook", () => {
  const customer = "cus_1WebhookCustomer00000";
  const subscription = "sub_1WebhookSubscription0";
  const metadata = { checkoutId: CHECKOUT_ID, userId: "u1", type: "global" };

  function signed(event: object, timestamp?: number) {
    const payload = JSON.stringify(event, null, 2);
    return { payload, signature: Stripe.webhooks.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET, timestamp }) };
  }
  const parse = (event: object) => {
    const { payload, signature } = signed(event);
    return provider.parseWebhook(payload, signature);
  };

  it("checkout.session.completed (paid) is the first payment, keyed by the session's invoice", async () => {
    const session = checkoutSessionObject({
      customer,
      amountTotal: 9900,
      metadata,
      clientReferenceId: CHECKOUT_ID,
      status: "complete",
      paymentStatus: "paid",
      invoice: "in_1FirstInvoice000000000",
      subscription,
    });
    const event = eventObject("checkout.session.completed", session);
    expect(await parse(event)).toEqual({
      kind: "payment.succeeded",
      eventId: event.id,
      checkoutId: CHECKOUT_ID,
      paymentId: "in_1FirstInvoice000000000",
      paymentIntentId: null,
      providerSubscriptionId: subscription,
      providerCustomerId: customer,
      amountCents: 9900,
      reason: "first",
      periodEnd: null,
      // No payment intent found for the invoice: no card to read.
      card: null,
    });
  });

  it("checkout.session.completed still unpaid (a delayed payment method) changes nothing", async () => {
    const session = checkoutSessionObject({
      customer,
      amountTotal: 9900,
      metadata,
      clientReferenceId: CHECKOUT_ID,
      status: "complete",
      paymentStatus: "unpaid",
      invoice: "in_1Unpaid00000000000000",
      subscription,
    });
    expect(await parse(eventObject("checkout.session.completed", session))).toMatchObject({ kind: "ignored", type: "checkout.session.completed" });
  });

  it("invoice.paid for the subscription's creation is the first payment; for a cycle, a renewal with the new period end", async () => {
    const periodEnd = Math.floor(Date.UTC(2028, 0, 5) / 1000);
    const first = invoiceObject({ customer, subscription, subscriptionMetadata: metadata, amount: 9900, billingReason: "subscription_create", periodEnd });
    const firstEvent = eventObject("invoice.paid", first);
    expect(await parse(firstEvent)).toEqual({
      kind: "payment.succeeded",
      eventId: firstEvent.id,
      checkoutId: CHECKOUT_ID,
      paymentId: first.id,
      paymentIntentId: null,
      providerSubscriptionId: subscription,
      providerCustomerId: customer,
      amountCents: 9900,
      reason: "first",
      periodEnd: new Date(periodEnd * 1000),
      card: null,
      tax: null,
    });

    const renewal = invoiceObject({ customer, subscription, subscriptionMetadata: metadata, amount: 9900, billingReason: "subscription_cycle", periodEnd });
    expect(await parse(eventObject("invoice.paid", renewal))).toMatchObject({
      kind: "payment.succeeded",
      reason: "renewal",
      checkoutId: null,
      paymentId: renewal.id,
    });
  });

  it("invoice.paid names the payment intent when the payload includes the invoice's payments", async () => {
    const invoice = invoiceObject({ customer, subscription, subscriptionMetadata: metadata, amount: 9900, billingReason: "subscription_cycle" });
    const withPayments = {
      ...invoice,
      payments: {
        object: "list",
        data: [invoicePaymentObject({ invoice: invoice.id, paymentIntent: "pi_1RenewalIntent00000000", amount: 9900, status: "paid" })],
        has_more: false,
        url: "/v1/invoice_payments",
      },
    };
    expect(await parse(eventObject("invoice.paid", withPayments))).toMatchObject({ paymentIntentId: "pi_1RenewalIntent00000000" });
  });

  it("a webhook invoice without its payments gets its payment intent from Stripe (refunds need it)", async () => {
    const invoice = invoiceObject({ customer, subscription, subscriptionMetadata: metadata, amount: 9900, billingReason: "subscription_create" });
    stripeMock.invoicePayments.push(invoicePaymentObject({ invoice, paymentIntent: "pi_1AskedForIntent0000000", amount: 9900, status: "paid" }));
    expect(await parse(eventObject("invoice.paid", invoice))).toMatchObject({ paymentId: invoice.id, paymentIntentId: "pi_1AskedForIntent0000000" });
    const asked = stripeMock.requests.filter((r) => r.method === "GET" && r.path === "/v1/invoice_payments");
    expect(asked.at(-1)?.form.get("invoice")).toBe(invoice.id);
  });

  it("invoice.paid for anything but a creation or a cycle (a manual invoice) changes nothing", async () => {
    const manual = invoiceObject({ customer, subscription: null, amount: 1500, billingReason: "manual" });
    expect(await parse(eventObject("invoice.paid", manual))).toMatchObject({ kind: "ignored", type: "invoice.paid (manual)" });
  });

  it("invoice.payment_failed is payment.failed with the attempt's error, or a plain message", async () => {
    const failedWithError = invoiceObject({
      customer,
      subscription,
      subscriptionMetadata: metadata,
      amount: 9900,
      billingReason: "subscription_cycle",
      status: "open",
      payments: [
        invoicePaymentObject({
          invoice: "in_x",
          paymentIntent: paymentIntentObject({
            customer,
            amount: 9900,
            status: "requires_payment_method",
            lastPaymentError: { type: "card_error", code: "expired_card", message: "Your card has expired." },
          }),
          amount: 9900,
          status: "open",
        }),
      ],
    });
    const event = eventObject("invoice.payment_failed", failedWithError);
    expect(await parse(event)).toEqual({
      kind: "payment.failed",
      eventId: event.id,
      checkoutId: null,
      providerSubscriptionId: subscription,
      message: "Your card has expired.",
      nextAttemptAt: null,
    });
    // Stripe's next try of a renewal (Smart Retries) travels with the failure.
    const retried = eventObject("invoice.payment_failed", { ...failedWithError, next_payment_attempt: 1_900_000_000 });
    expect(await parse(retried)).toMatchObject({ kind: "payment.failed", nextAttemptAt: new Date(1_900_000_000_000) });

    const plain = invoiceObject({ customer, subscription, subscriptionMetadata: metadata, amount: 9900, billingReason: "subscription_create", status: "open" });
    expect(await parse(eventObject("invoice.payment_failed", plain))).toMatchObject({
      kind: "payment.failed",
      checkoutId: CHECKOUT_ID,
      message: "Your payment could not be completed. Please check your payment method and try again.",
    });
  });

  it("customer.subscription.updated is the renewal switch; customer.subscription.deleted the end", async () => {
    const off = eventObject(
      "customer.subscription.updated",
      subscriptionObject({ id: subscription, customer, metadata, cancelAtPeriodEnd: true, status: "active" }),
    );
    expect(await parse(off)).toEqual({ kind: "subscription.renewal_changed", eventId: off.id, providerSubscriptionId: subscription, autoRenew: false });
    const on = eventObject(
      "customer.subscription.updated",
      subscriptionObject({ id: subscription, customer, metadata, cancelAtPeriodEnd: false, status: "active" }),
    );
    expect(await parse(on)).toMatchObject({ kind: "subscription.renewal_changed", autoRenew: true });
    const deleted = eventObject("customer.subscription.deleted", subscriptionObject({ id: subscription, customer, metadata, status: "canceled" }));
    expect(await parse(deleted)).toEqual({ kind: "subscription.ended", eventId: deleted.id, providerSubscriptionId: subscription, afterFailedPayments: false });
  });

  it("charge.refunded is payment.refunded by payment intent and amount refunded", async () => {
    const event = eventObject("charge.refunded", chargeObject({ paymentIntent: "pi_1RefundedIntent0000000", amount: 9900, amountRefunded: 9900, customer }));
    expect(await parse(event)).toEqual({ kind: "payment.refunded", eventId: event.id, paymentIntentId: "pi_1RefundedIntent0000000", amountCents: 9900 });
  });

  it("an event type we do not act on is ignored", async () => {
    const event = eventObject("customer.created", { id: customer, object: "customer" });
    expect(await parse(event)).toEqual({ kind: "ignored", eventId: event.id, type: "customer.created" });
  });

  it("refuses a bad, a missing or a stale signature", async () => {
    const event = eventObject("charge.refunded", chargeObject({ paymentIntent: "pi_1Forged0000000000000000", amount: 9900, amountRefunded: 9900, customer }));
    const payload = JSON.stringify(event);
    const forged = Stripe.webhooks.generateTestHeaderString({ payload, secret: "whsec_someone_else" });
    await expect(provider.parseWebhook(payload, forged)).rejects.toThrow(WebhookSignatureError);
    await expect(provider.parseWebhook(payload, null)).rejects.toThrow(WebhookSignatureError);
    await expect(provider.parseWebhook(payload, "t=123,v1=nothex")).rejects.toThrow(WebhookSignatureError);

    // Signed right, but the body was changed on the way.
    const { signature } = signed(event);
    await expect(provider.parseWebhook(JSON.stringify({ ...event, type: "invoice.paid" }), signature)).rejects.toThrow(WebhookSignatureError);

    const stale = signed(event, Math.floor(Date.now() / 1000) - 301);
    await expect(provider.parseWebhook(stale.payload, stale.signature)).rejects.toThrow(WebhookSignatureError);
    // Within the 300 s tolerance it is accepted.
    const recent = signed(event, Math.floor(Date.now() / 1000) - 250);
    expect(await provider.parseWebhook(recent.payload, recent.signature)).toMatchObject({ kind: "payment.refunded" });
  });
});

describe("configuration", () => {
  const keys = ["STRIPE_SECRET_KEY", "STRIPE_PUBLISHABLE_KEY", "STRIPE_WEBHOOK_SECRET"] as const;
  beforeEach(() => {
    for (const key of keys) delete process.env[key];
    resetEnv();
    setPaymentProvider(null);
  });
  afterAll(() => {
    for (const key of keys) delete process.env[key];
    resetEnv();
    setPaymentProvider(null);
  });

  it("sells in test mode without STRIPE_SECRET_KEY (an empty value counts as unset)", async () => {
    process.env.STRIPE_SECRET_KEY = "";
    resetEnv();
    expect(isStripeConfigured()).toBe(false);
    expect(getPaymentProvider().name).toBe("test");
  });

  it("uses Stripe when STRIPE_SECRET_KEY is set, with the publishable key for Stripe.js", async () => {
    Object.assign(process.env, { STRIPE_SECRET_KEY: "sk_test_abc123", STRIPE_PUBLISHABLE_KEY: "pk_test_abc123", STRIPE_WEBHOOK_SECRET: "whsec_abc123" });
    resetEnv();
    expect(isStripeConfigured()).toBe(true);
    const stripe = getPaymentProvider();
    expect(stripe.name).toBe("stripe");
    expect(stripe.publishableKey).toBe("pk_test_abc123");
  });

  it("refuses to start with a secret key and no webhook secret, saying what to set", async () => {
    process.env.STRIPE_SECRET_KEY = "sk_test_abc123";
    resetEnv();
    expect(() => getEnv()).toThrow(/STRIPE_WEBHOOK_SECRET: required when STRIPE_SECRET_KEY is set/);
  });

  it("refuses keys that are not Stripe's (a publishable key where the secret goes)", async () => {
    Object.assign(process.env, { STRIPE_SECRET_KEY: "pk_test_abc123", STRIPE_WEBHOOK_SECRET: "whsec_abc123" });
    resetEnv();
    expect(() => getEnv()).toThrow(/STRIPE_SECRET_KEY: expected a Stripe secret key/);
  });
});
