import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { getDb, prisma } from "~/lib/db.server.ts";
import { getPaymentProvider, setPaymentProvider } from "~/lib/payments/index.server.ts";
import { type PaymentEvent, type PaymentProvider, WebhookSignatureError } from "~/lib/payments/provider.server.ts";
import * as webhook from "~/routes/api/webhooks.stripe.ts";
import * as paymentSuccess from "~/routes/api/payments.success.ts";
import { startCheckout } from "~/services/commerce/checkout.server.ts";
import { applyPaymentEvent } from "~/services/commerce/fulfilment.server.ts";
import { publicUserSelect } from "~/services/auth/credentials.server.ts";
import { createUser, sessionCookieFor } from "../helpers/factories.ts";
import { createCatalogue } from "../helpers/catalogue.ts";
import { useMailCapture } from "../helpers/mail-capture.ts";
import { callRoute } from "../helpers/route.ts";
import { failNextCommit } from "../helpers/db-failure.ts";

const mail = useMailCapture();

beforeAll(async () => {
  await createCatalogue();
  // The receipt template as the after engineer ships it (names fixed in the brief).
  const receipt = {
    subject: "Your receipt: {{itemName}}",
    htmlContent: '<p>Hello {{firstName}}, {{amount}} for {{itemName}} on {{date}}. Receipt: <a href="{{receiptUrl}}">{{receiptUrl}}</a></p>',
    variables: ["firstName", "itemName", "amount", "date", "receiptUrl"],
  };
  await prisma.emailTemplate.upsert({ where: { name: "purchase_receipt" }, update: receipt, create: { name: "purchase_receipt", ...receipt } });
  const failed = {
    subject: "Payment failed: {{itemName}}",
    htmlContent: "<p>{{firstName}}: {{message}} {{billingUrl}}</p>",
    variables: ["firstName", "itemName", "message", "billingUrl"],
  };
  await prisma.emailTemplate.upsert({ where: { name: "payment_failed" }, update: failed, create: { name: "payment_failed", ...failed } });
});

afterEach(() => {
  setPaymentProvider(null);
  vi.restoreAllMocks();
});

async function buyer() {
  const row = await createUser();
  const user = await prisma.user.findUniqueOrThrow({ where: { id: row.id }, select: publicUserSelect });
  return { user, cookie: await sessionCookieFor(user.id) };
}

/** A started checkout and the Stripe-like events of its first payment. */
async function checkoutFor(item: Parameters<typeof startCheckout>[1] = { type: "global" }) {
  const { user, cookie } = await buyer();
  const { checkoutId } = await startCheckout(user, item, "embedded");
  const checkout = await prisma.checkoutSession.findUniqueOrThrow({ where: { id: checkoutId } });
  const ids = { invoice: `in_${checkoutId.slice(0, 8)}`, pi: `pi_${checkoutId.slice(0, 8)}`, sub: `sub_${checkoutId.slice(0, 8)}` };
  const paid = (eventId: string, overrides: Partial<Extract<PaymentEvent, { kind: "payment.succeeded" }>> = {}): PaymentEvent => ({
    kind: "payment.succeeded",
    eventId,
    checkoutId,
    paymentId: ids.invoice,
    paymentIntentId: ids.pi,
    providerSubscriptionId: ids.sub,
    providerCustomerId: "cus_1",
    amountCents: Math.round(Number(checkout.amount) * 100),
    reason: "first",
    periodEnd: null,
    ...overrides,
  });
  return { user, cookie, checkoutId, ids, paid };
}

const countPayments = (userId: string) => prisma.payment.count({ where: { userId } });

/** A provider whose webhooks are the events a test hands it (signature checks are the Stripe engineer's). */
function fakeProvider(events: Record<string, PaymentEvent>, confirm: Record<string, PaymentEvent[]> = {}): PaymentProvider {
  const real = getPaymentProvider();
  return {
    ...real,
    name: "stripe",
    async parseWebhook(raw, signature) {
      if (signature !== "good") throw new WebhookSignatureError("No signatures found matching the expected signature for payload");
      const event = events[JSON.parse(raw).id];
      if (!event) throw new Error("unexpected webhook in the test");
      return event;
    },
    async confirmPayment(id) {
      return confirm[id] ?? [];
    },
  };
}

const deliver = (id: string, signature = "good") =>
  callRoute(webhook, "/api/webhooks/stripe", {
    method: "POST",
    body: JSON.stringify({ id }),
    headers: { "Stripe-Signature": signature, "Content-Type": "application/json" },
  });

describe("applyPaymentEvent", () => {
  it("grants a first payment once: payment, subscription a year long at the checkout's price, premium, receipt after commit", async () => {
    const { user, checkoutId, ids, paid } = await checkoutFor();
    expect(await applyPaymentEvent(paid("evt_1"), "stripe")).toEqual({ applied: true });
    expect(await applyPaymentEvent(paid("evt_1"), "stripe")).toEqual({ applied: false });
    // The same checkout reported under another payment id is still one purchase.
    await applyPaymentEvent(paid("evt_other", { paymentId: "in_other", paymentIntentId: "pi_other" }), "stripe");
    const payments = await prisma.payment.findMany({ where: { userId: user.id } });
    expect(payments).toHaveLength(1);
    expect(payments[0]).toMatchObject({
      status: "completed",
      stripePaymentIntentId: ids.pi,
      stripeInvoiceId: ids.invoice,
      description: "Premium yearly subscription",
      subscriptionType: "global",
    });
    expect(Number(payments[0]!.amount)).toBe(99);
    const sub = await prisma.subscription.findFirstOrThrow({ where: { userId: user.id } });
    expect(sub).toMatchObject({ type: "global", status: "active", stripeSubscriptionId: ids.sub });
    expect(Number(sub.price)).toBe(99);
    expect(sub.endDate!.getTime() - sub.startDate!.getTime()).toBeGreaterThanOrEqual(365 * 86400_000);
    expect(await prisma.checkoutSession.findUnique({ where: { id: checkoutId } })).toMatchObject({ status: "completed", subscriptionId: sub.id });
    expect((await prisma.user.findUniqueOrThrow({ where: { id: user.id } })).accountType).toBe("premium");
    await vi.waitFor(() => expect(mail.to(user.email)).toHaveLength(1));
    expect(mail.to(user.email)[0]!.text).toContain(`/billing/receipts/${payments[0]!.id}`);
  });

  it("makes one payment from concurrent deliveries of the same event", async () => {
    const { user, paid } = await checkoutFor();
    const results = await Promise.all([1, 2, 3].map(() => applyPaymentEvent(paid("evt_same"), "stripe")));
    expect(results.filter((r) => r.applied)).toHaveLength(1);
    expect(await countPayments(user.id)).toBe(1);
    expect(await prisma.subscription.count({ where: { userId: user.id } })).toBe(1);
  });

  it("makes one payment from a webhook and a client confirmation of the same payment", async () => {
    const { user, cookie, ids, paid } = await checkoutFor();
    setPaymentProvider(fakeProvider({ evt_wh: paid("evt_wh") }, { [ids.pi]: [paid(`confirm_${ids.pi}`)] }));
    expect(await deliver("evt_wh")).toMatchObject({ status: 200, body: { received: true } });
    const confirmed = await callRoute(paymentSuccess, "/api/payments/success", { json: { paymentIntentId: ids.pi }, cookie });
    expect(confirmed.status).toBe(200);
    expect(confirmed.body.subscription).toMatchObject({ type: "global", status: "active", price: 99 });
    expect(await countPayments(user.id)).toBe(1);
  });

  it("ends in the right state when the cancellation arrives before the payment", async () => {
    const { user, ids, paid } = await checkoutFor();
    expect(await applyPaymentEvent({ kind: "subscription.ended", eventId: "evt_end", providerSubscriptionId: ids.sub }, "stripe")).toEqual({ applied: true });
    expect(await prisma.subscription.count({ where: { userId: user.id } })).toBe(0);
    await applyPaymentEvent(paid("evt_paid_late"), "stripe");
    expect(await countPayments(user.id)).toBe(1);
    expect(await prisma.subscription.findFirstOrThrow({ where: { userId: user.id } })).toMatchObject({ status: "canceled" });
    expect((await prisma.user.findUniqueOrThrow({ where: { id: user.id } })).accountType).toBe("free");
  });

  it("remembers a renewal switch that arrives before the payment", async () => {
    const { user, ids, paid } = await checkoutFor();
    await applyPaymentEvent({ kind: "subscription.renewal_changed", eventId: "evt_off", providerSubscriptionId: ids.sub, autoRenew: false }, "stripe");
    await applyPaymentEvent(paid("evt_paid"), "stripe");
    expect(await prisma.subscription.findFirstOrThrow({ where: { userId: user.id } })).toMatchObject({ status: "active", autoRenew: false });
  });

  it("applies nothing when the transaction fails, and one payment on the retry", async () => {
    const { user, ids, paid } = await checkoutFor();
    failNextCommit("connection lost");
    await expect(applyPaymentEvent(paid("evt_retry"), "stripe")).rejects.toThrow("connection lost");
    expect(await countPayments(user.id)).toBe(0);
    // The receipt leaves only after a commit: the rolled-back attempt sent nothing.
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(mail.to(user.email)).toHaveLength(0);
    expect(await prisma.processedEvent.findUnique({ where: { id: `payment:${ids.invoice}` } })).toBeNull();
    expect(await applyPaymentEvent(paid("evt_retry"), "stripe")).toEqual({ applied: true });
    expect(await countPayments(user.id)).toBe(1);
    await vi.waitFor(() => expect(mail.to(user.email)).toHaveLength(1));
  });

  it("moves the end date a year on with a second payment row at renewal, and clears the reminder", async () => {
    const { user, ids, paid } = await checkoutFor();
    await applyPaymentEvent(paid("evt_first"), "stripe");
    const before = await prisma.subscription.findFirstOrThrow({ where: { userId: user.id } });
    await prisma.subscription.update({ where: { id: before.id }, data: { renewalReminderAt: new Date() } });
    const renewal = paid("evt_renew", { checkoutId: null, paymentId: "in_renewal", paymentIntentId: "pi_renewal", reason: "renewal" });
    expect(await applyPaymentEvent(renewal, "stripe")).toEqual({ applied: true });
    expect(await applyPaymentEvent(renewal, "stripe")).toEqual({ applied: false });
    const after = await prisma.subscription.findUniqueOrThrow({ where: { id: before.id } });
    const expected = new Date(before.endDate!);
    expected.setUTCFullYear(expected.getUTCFullYear() + 1);
    expect(after.endDate!.toISOString()).toBe(expected.toISOString());
    expect(after.renewalReminderAt).toBeNull();
    const payments = await prisma.payment.findMany({ where: { subscriptionId: before.id }, orderBy: { createdAt: "asc" } });
    expect(payments.map((p) => p.stripeInvoiceId)).toEqual([ids.invoice, "in_renewal"]);
  });

  it("declines a refused first payment and grants nothing; a refused renewal keeps access and mails", async () => {
    const first = await checkoutFor();
    await applyPaymentEvent(
      {
        kind: "payment.failed",
        eventId: "evt_fail_1",
        checkoutId: first.checkoutId,
        providerSubscriptionId: null,
        message: "Your card has insufficient funds.",
        nextAttemptAt: null,
      },
      "stripe",
    );
    expect(await prisma.checkoutSession.findUnique({ where: { id: first.checkoutId } })).toMatchObject({
      status: "declined",
      failureMessage: "Your card has insufficient funds.",
    });
    expect(await prisma.subscription.count({ where: { userId: first.user.id } })).toBe(0);

    const renewing = await checkoutFor();
    await applyPaymentEvent(renewing.paid("evt_ok"), "stripe");
    await applyPaymentEvent(
      {
        kind: "payment.failed",
        eventId: "evt_fail_2",
        checkoutId: null,
        providerSubscriptionId: renewing.ids.sub,
        message: "Your card was declined.",
        nextAttemptAt: new Date(Date.now() + 3 * 24 * 60 * 60 * 1000),
      },
      "stripe",
    );
    expect(await prisma.subscription.findFirstOrThrow({ where: { userId: renewing.user.id } })).toMatchObject({ status: "active" });
    await vi.waitFor(() => expect(mail.to(renewing.user.email).some((m) => m.text.includes("Your card was declined."))).toBe(true));
  });

  it("ends a subscription as canceled before its end date, and refunds through completeRefund", async () => {
    const a = await checkoutFor();
    await applyPaymentEvent(a.paid("evt_a"), "stripe");
    await applyPaymentEvent({ kind: "subscription.ended", eventId: "evt_a_end", providerSubscriptionId: a.ids.sub }, "stripe");
    expect(await prisma.subscription.findFirstOrThrow({ where: { userId: a.user.id } })).toMatchObject({ status: "canceled" });

    const b = await checkoutFor();
    await applyPaymentEvent(b.paid("evt_b"), "stripe");
    await applyPaymentEvent({ kind: "payment.refunded", eventId: "evt_b_refund", paymentIntentId: b.ids.pi, amountCents: 9900 }, "stripe");
    expect(await prisma.payment.findFirstOrThrow({ where: { userId: b.user.id } })).toMatchObject({ status: "refunded" });
    expect((await prisma.user.findUniqueOrThrow({ where: { id: b.user.id } })).accountType).toBe("free");
  });

  it("sends no receipt to a user who turned subscription updates off", async () => {
    const { user, paid } = await checkoutFor();
    await prisma.notificationPreferences.update({ where: { userId: user.id }, data: { emailSubscriptionUpdates: false } });
    await applyPaymentEvent(paid("evt_quiet"), "stripe");
    expect(await countPayments(user.id)).toBe(1);
    expect(mail.to(user.email)).toHaveLength(0);
  });
});

describe("POST /api/webhooks/stripe", () => {
  it("answers 400 for a bad signature and changes nothing", async () => {
    const { user, paid } = await checkoutFor();
    setPaymentProvider(fakeProvider({ evt_x: paid("evt_x") }));
    const res = await deliver("evt_x", "forged");
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ message: "No signatures found matching the expected signature for payload" });
    expect(await countPayments(user.id)).toBe(0);
  });

  it("answers 200 to a replay and to an unknown event type, changing nothing more", async () => {
    const { user, paid } = await checkoutFor();
    setPaymentProvider(fakeProvider({ evt_r: paid("evt_r"), evt_u: { kind: "ignored", eventId: "evt_u", type: "customer.created" } }));
    expect((await deliver("evt_r")).status).toBe(200);
    expect((await deliver("evt_r")).status).toBe(200);
    expect(await deliver("evt_u")).toMatchObject({ status: 200, body: { received: true } });
    expect(await countPayments(user.id)).toBe(1);
  });

  it("answers 5xx on a database failure so Stripe retries, then applies the retry once", async () => {
    const { user, paid } = await checkoutFor();
    setPaymentProvider(fakeProvider({ evt_db: paid("evt_db") }));
    vi.spyOn(getDb().prisma, "$transaction").mockRejectedValueOnce(new Error("database is down"));
    expect((await deliver("evt_db")).status).toBe(500);
    expect(await countPayments(user.id)).toBe(0);
    expect((await deliver("evt_db")).status).toBe(200);
    expect(await countPayments(user.id)).toBe(1);
  });

  it("refuses GET with 405 and Allow", async () => {
    const res = await callRoute(webhook, "/api/webhooks/stripe");
    expect(res.status).toBe(405);
    expect(res.headers.get("Allow")).toBe("POST");
  });
});
