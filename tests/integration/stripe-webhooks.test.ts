import Stripe from "stripe";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { prisma } from "~/lib/db.server.ts";
import { setPaymentProvider } from "~/lib/payments/index.server.ts";
import { createStripeProvider } from "~/lib/payments/stripe.server.ts";
import * as webhook from "~/routes/api/webhooks.stripe.ts";
import { startCheckout } from "~/services/commerce/checkout.server.ts";
import {
  chargeObject,
  checkoutSessionObject,
  eventObject,
  invoiceObject,
  invoicePaymentObject,
  paymentIntentObject,
  subscriptionObject,
  useStripeMock,
} from "../mocks/stripe.ts";
import { createUser } from "../helpers/factories.ts";
import { callRoute } from "../helpers/route.ts";
import { failNextCommit } from "../helpers/db-failure.ts";
import { sessionCookieFor } from "../helpers/factories.ts";
import { useMailCapture } from "../helpers/mail-capture.ts";
import { REVERSE_CHARGE_NOTE } from "~/services/commerce/invoices.server.ts";
import * as billingPage from "~/routes/account/billing.tsx";

// POST /api/webhooks/stripe end to end: the real route, the real Stripe adapter (signature
// checked by the SDK, the payment intent asked of Stripe's HTTP edge through msw) and the real
// fulfilment. Stripe delivers at least once, in any order, and retries on a 5xx.

const WEBHOOK_SECRET = "whsec_test_medanim_webhooks_0123456789";
const { mock: stripeMock } = useStripeMock();
const mail = useMailCapture();

beforeEach(() =>
  setPaymentProvider(
    createStripeProvider({ secretKey: "sk_test_medanim_webhooks", publishableKey: "pk_test_medanim_webhooks", webhookSecret: WEBHOOK_SECRET }),
  ),
);
afterEach(() => {
  setPaymentProvider(null);
  vi.restoreAllMocks();
});

function deliver(event: object, { timestamp, secret = WEBHOOK_SECRET }: { timestamp?: number; secret?: string } = {}) {
  const payload = JSON.stringify(event);
  const signature = Stripe.webhooks.generateTestHeaderString({ payload, secret, timestamp });
  return callRoute(webhook, "/api/webhooks/stripe", {
    method: "POST",
    body: payload,
    headers: { "Content-Type": "application/json", "Stripe-Signature": signature },
  });
}

/** A member who started a hosted premium checkout, and the Stripe objects its payment makes. */
async function startedPurchase() {
  const user = await createUser();
  const { checkoutId } = await startCheckout(user, { type: "global" }, "hosted");
  const checkout = await prisma.checkoutSession.findUniqueOrThrow({ where: { id: checkoutId } });
  const customer = (await prisma.user.findUniqueOrThrow({ where: { id: user.id } })).stripeCustomerId!;
  const subscription = `sub_1Webhook${checkoutId.replace(/-/g, "").slice(0, 15)}`;
  const metadata = { checkoutId, userId: user.id, type: "global" };
  const invoice = invoiceObject({ customer, subscription, subscriptionMetadata: metadata, amount: 9900, billingReason: "subscription_create" });
  const paymentIntent = `pi_1Webhook${checkoutId.replace(/-/g, "").slice(0, 15)}`;
  stripeMock.invoicePayments.push(invoicePaymentObject({ invoice, paymentIntent, amount: 9900, status: "paid" }));
  stripeMock.paymentIntents.set(paymentIntent, paymentIntentObject({ id: paymentIntent, amount: 9900, status: "succeeded", customer }));
  return { user, checkout, customer, subscription, metadata, invoice, paymentIntent };
}

const paymentsOf = (userId: string) => prisma.payment.findMany({ where: { userId }, orderBy: { createdAt: "asc" } });

describe("POST /api/webhooks/stripe", () => {
  it("grants the purchase once from invoice.paid, with the payment intent asked of Stripe", async () => {
    const p = await startedPurchase();
    const res = await deliver(eventObject("invoice.paid", p.invoice));
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ received: true });
    const [payment] = await paymentsOf(p.user.id);
    expect(payment).toMatchObject({ status: "completed", stripeInvoiceId: p.invoice.id, stripePaymentIntentId: p.paymentIntent });
    expect(Number(payment!.amount)).toBe(99);
    const subscription = await prisma.subscription.findFirstOrThrow({ where: { userId: p.user.id } });
    expect(subscription).toMatchObject({ type: "global", status: "active", stripeSubscriptionId: p.subscription });
    expect((await prisma.user.findUniqueOrThrow({ where: { id: p.user.id } })).accountType).toBe("premium");
    expect((await prisma.checkoutSession.findUniqueOrThrow({ where: { id: p.checkout.id } })).status).toBe("completed");
    // The card it was paid with, asked of Stripe, is the card on file.
    expect(await prisma.user.findUniqueOrThrow({ where: { id: p.user.id }, select: { cardBrand: true, cardLast4: true, cardExpYear: true } })).toEqual({
      cardBrand: "visa",
      cardLast4: "4242",
      cardExpYear: 2034,
    });
  });

  it("with Stripe Tax, the invoice prints the tax Stripe computed, and a reverse charge its statement", async () => {
    setPaymentProvider(
      createStripeProvider({
        secretKey: "sk_test_medanim_webhooks",
        publishableKey: "pk_test_medanim_webhooks",
        webhookSecret: WEBHOOK_SECRET,
        automaticTax: true,
      }),
    );
    for (const [taxes, expected] of [
      [[{ amount: 1581, taxability_reason: "standard_rated" }], { netAmount: "83.19", taxAmount: "15.81", taxRate: "19", taxNote: null }],
      [[{ amount: 0, taxability_reason: "reverse_charge" }], { netAmount: "99", taxAmount: "0", taxRate: "0", taxNote: REVERSE_CHARGE_NOTE }],
    ] as const) {
      const p = await startedPurchase();
      // The hosted page asked Stripe to tax it, prices including the tax.
      const created = stripeMock.requests.find((r) => r.path === "/v1/checkout/sessions" && r.form.get("metadata[checkoutId]") === p.checkout.id)!;
      expect(created.form.get("automatic_tax[enabled]")).toBe("true");
      expect(created.form.get("line_items[0][price_data][tax_behavior]")).toBe("inclusive");
      // Its own completion event leaves the grant to invoice.paid, which carries the tax.
      const session = checkoutSessionObject({
        customer: p.customer,
        amountTotal: 9900,
        metadata: p.metadata,
        clientReferenceId: p.checkout.id,
        status: "complete",
        paymentStatus: "paid",
        invoice: p.invoice.id,
        subscription: p.subscription,
      });
      expect((await deliver(eventObject("checkout.session.completed", { ...session, automatic_tax: { enabled: true, status: "complete" } }))).status).toBe(200);
      expect(await paymentsOf(p.user.id)).toHaveLength(0);
      const taxed = {
        ...p.invoice,
        automatic_tax: { enabled: true, status: "complete" },
        total_taxes: taxes.map((t) => ({ ...t, tax_behavior: "inclusive", tax_rate_details: null, taxable_amount: 9900 - t.amount, type: "tax_rate_details" })),
      };
      expect((await deliver(eventObject("invoice.paid", taxed))).status).toBe(200);
      const invoice = await prisma.invoice.findFirstOrThrow({ where: { userId: p.user.id } });
      expect({
        netAmount: invoice.netAmount.toString(),
        taxAmount: invoice.taxAmount.toString(),
        taxRate: invoice.taxRate.toString(),
        taxNote: invoice.taxNote,
      }).toEqual(expected);
      expect(invoice.totalAmount.toString()).toBe("99");
    }
  });

  it("replayed, concurrent, and the session's own completion event make one payment", async () => {
    const p = await startedPurchase();
    const paid = eventObject("invoice.paid", p.invoice);
    const session = checkoutSessionObject({
      customer: p.customer,
      amountTotal: 9900,
      metadata: p.metadata,
      clientReferenceId: p.checkout.id,
      status: "complete",
      paymentStatus: "paid",
      invoice: p.invoice.id,
      subscription: p.subscription,
    });
    const results = await Promise.all([deliver(paid), deliver(paid), deliver(eventObject("checkout.session.completed", session))]);
    for (const res of results) expect(res.status).toBe(200);
    expect((await deliver(paid)).status).toBe(200);
    expect(await paymentsOf(p.user.id)).toHaveLength(1);
    expect(await prisma.subscription.count({ where: { userId: p.user.id } })).toBe(1);
  });

  it("a cancellation delivered before the payment it follows still ends canceled, the payment kept", async () => {
    const p = await startedPurchase();
    const deleted = eventObject(
      "customer.subscription.deleted",
      subscriptionObject({ id: p.subscription, customer: p.customer, metadata: p.metadata, status: "canceled" }),
    );
    expect((await deliver(deleted)).status).toBe(200);
    expect((await deliver(eventObject("invoice.paid", p.invoice))).status).toBe(200);
    expect(await paymentsOf(p.user.id)).toHaveLength(1);
    expect((await prisma.subscription.findFirstOrThrow({ where: { userId: p.user.id } })).status).toMatch(/canceled|expired/);
    expect((await prisma.user.findUniqueOrThrow({ where: { id: p.user.id } })).accountType).toBe("free");
  });

  it("refuses a bad and a stale signature with 400, changing nothing", async () => {
    const p = await startedPurchase();
    const paid = eventObject("invoice.paid", p.invoice);
    const forged = await deliver(paid, { secret: "whsec_someone_else" });
    expect(forged.status).toBe(400);
    expect(typeof forged.body.message).toBe("string");
    const stale = await deliver(paid, { timestamp: Math.floor(Date.now() / 1000) - 301 });
    expect(stale.status).toBe(400);
    expect(await paymentsOf(p.user.id)).toHaveLength(0);
  });

  it("answers 5xx when the database fails, so Stripe retries; the retry grants once", async () => {
    const p = await startedPurchase();
    const paid = eventObject("invoice.paid", p.invoice);
    // The effect is written, then the commit fails: nothing of it may remain.
    failNextCommit("connection terminated");
    const failed = await deliver(paid);
    expect(failed.status).toBeGreaterThanOrEqual(500);
    expect(await paymentsOf(p.user.id)).toHaveLength(0);
    expect((await deliver(paid)).status).toBe(200);
    expect(await paymentsOf(p.user.id)).toHaveLength(1);
  });

  it("a renewal invoice moves the end a year on with its own payment; charge.refunded ends it", async () => {
    const p = await startedPurchase();
    await deliver(eventObject("invoice.paid", p.invoice));
    const before = await prisma.subscription.findFirstOrThrow({ where: { userId: p.user.id } });
    const periodEnd = Math.floor(before.endDate!.getTime() / 1000) + 365 * 24 * 60 * 60;
    const renewal = invoiceObject({
      customer: p.customer,
      subscription: p.subscription,
      subscriptionMetadata: p.metadata,
      amount: 9900,
      billingReason: "subscription_cycle",
      periodEnd,
    });
    stripeMock.invoicePayments.push(invoicePaymentObject({ invoice: renewal, paymentIntent: "pi_1RenewalWebhook00000000", amount: 9900, status: "paid" }));
    expect((await deliver(eventObject("invoice.paid", renewal))).status).toBe(200);
    const after = await prisma.subscription.findFirstOrThrow({ where: { userId: p.user.id } });
    expect(after.endDate!.getTime()).toBe(periodEnd * 1000);
    expect(await paymentsOf(p.user.id)).toHaveLength(2);

    const refunded = eventObject(
      "charge.refunded",
      chargeObject({ paymentIntent: "pi_1RenewalWebhook00000000", amount: 9900, amountRefunded: 9900, customer: p.customer }),
    );
    expect((await deliver(refunded)).status).toBe(200);
    expect((await prisma.payment.findFirstOrThrow({ where: { stripePaymentIntentId: "pi_1RenewalWebhook00000000" } })).status).toBe("refunded");
    expect((await prisma.subscription.findFirstOrThrow({ where: { userId: p.user.id } })).status).toBe("canceled");
  });

  it("auto-renew switched at Stripe (its portal, or /billing's own call) is confirmed by e-mail once, however often the webhook comes", async () => {
    const p = await startedPurchase();
    await deliver(eventObject("invoice.paid", p.invoice));
    const confirmations = () => mail.to(p.user.email).filter((m) => m.subject.startsWith("Auto-renew is"));
    const switched = (cancelAtPeriodEnd: boolean) =>
      eventObject("customer.subscription.updated", subscriptionObject({ id: p.subscription, customer: p.customer, metadata: p.metadata, cancelAtPeriodEnd }));

    const off = switched(true);
    await Promise.all([deliver(off), deliver(off)]);
    await deliver(off);
    await vi.waitFor(() => expect(confirmations().map((m) => m.subject)).toEqual([expect.stringMatching(/^Auto-renew is off: /)]));
    expect((await prisma.subscription.findFirstOrThrow({ where: { userId: p.user.id } })).autoRenew).toBe(false);

    // Back on from /billing: Stripe is told, then its webhook of the same change arrives.
    const subscription = await prisma.subscription.findFirstOrThrow({ where: { userId: p.user.id } });
    const res = await callRoute(billingPage, "/billing", {
      cookie: await sessionCookieFor(p.user.id),
      form: { intent: "auto-renew-on", subscriptionId: subscription.id },
    });
    expect(res.status).toBe(302);
    await deliver(switched(false));
    await vi.waitFor(() => expect(confirmations()).toHaveLength(2));
    await new Promise((r) => setTimeout(r, 100));
    expect(confirmations()[1]!.subject).toMatch(/^Auto-renew is on: /);
    expect(confirmations()).toHaveLength(2);
  });

  it("a renewal refused: retried on Stripe's schedule with access kept, one mail per failure however often delivered, ended after the last", async () => {
    const p = await startedPurchase();
    await deliver(eventObject("invoice.paid", p.invoice));
    const before = await prisma.subscription.findFirstOrThrow({ where: { userId: p.user.id } });
    const failed = (nextAttempt: Date | null) =>
      eventObject("invoice.payment_failed", {
        ...invoiceObject({
          customer: p.customer,
          subscription: p.subscription,
          subscriptionMetadata: p.metadata,
          amount: 9900,
          billingReason: "subscription_cycle",
          status: "open",
        }),
        next_payment_attempt: nextAttempt ? Math.floor(nextAttempt.getTime() / 1000) : null,
      });
    const failures = () => mail.to(p.user.email).filter((m) => m.subject.includes("did not go through") || m.subject.includes("after failed payments"));

    const retryAt = new Date(before.endDate!.getTime() + 3 * 24 * 60 * 60 * 1000);
    const first = failed(retryAt);
    await Promise.all([deliver(first), deliver(first)]);
    await deliver(first);
    const retrying = await prisma.subscription.findFirstOrThrow({ where: { userId: p.user.id } });
    expect(retrying).toMatchObject({ status: "active", failedRenewalAttempts: 1, renewalDueAt: before.endDate });
    expect(retrying.nextRenewalAttemptAt!.getTime()).toBe(Math.floor(retryAt.getTime() / 1000) * 1000);
    expect(retrying.endDate!.getTime()).toBeGreaterThan(retrying.nextRenewalAttemptAt!.getTime());
    await vi.waitFor(() => expect(failures()).toHaveLength(1));

    await deliver(failed(null));
    const ended = await prisma.subscription.findFirstOrThrow({ where: { userId: p.user.id } });
    expect(ended).toMatchObject({ status: "expired", endedAfterFailedPayments: true, nextRenewalAttemptAt: null, failedRenewalAttempts: 2 });
    expect((await prisma.user.findUniqueOrThrow({ where: { id: p.user.id } })).accountType).toBe("free");
    await vi.waitFor(() =>
      expect(failures().map((m) => m.subject)).toEqual([expect.any(String), "Your Premium yearly subscription ended after failed payments"]),
    );

    // Stripe then cancels the subscription for the failed payments: already ended, nothing more.
    const deleted = subscriptionObject({ id: p.subscription, customer: p.customer, metadata: p.metadata, status: "canceled" });
    expect((await deliver(eventObject("customer.subscription.deleted", { ...deleted, cancellation_details: { reason: "payment_failed" } }))).status).toBe(200);
    expect(await prisma.subscription.findFirstOrThrow({ where: { userId: p.user.id } })).toMatchObject({ status: "expired", endedAfterFailedPayments: true });
  });

  it("a subscription Stripe cancels or marks unpaid after failed payments ends at once, marked so", async () => {
    const p = await startedPurchase();
    await deliver(eventObject("invoice.paid", p.invoice));
    const unpaid = subscriptionObject({ id: p.subscription, customer: p.customer, metadata: p.metadata, status: "unpaid" });
    expect((await deliver(eventObject("customer.subscription.updated", unpaid))).status).toBe(200);
    expect(await prisma.subscription.findFirstOrThrow({ where: { userId: p.user.id } })).toMatchObject({ status: "expired", endedAfterFailedPayments: true });
    expect((await prisma.user.findUniqueOrThrow({ where: { id: p.user.id } })).accountType).toBe("free");
  });

  it("answers 200 to a type it does not act on, changing nothing", async () => {
    const res = await deliver(eventObject("customer.created", { id: "cus_1Created0000000000000", object: "customer" }));
    expect(res.status).toBe(200);
  });
});
