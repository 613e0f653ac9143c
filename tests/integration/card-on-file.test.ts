import crypto from "node:crypto";
import { afterEach, describe, expect, it, vi } from "vitest";
import { prisma } from "~/lib/db.server.ts";
import { setPaymentProvider } from "~/lib/payments/index.server.ts";
import { createStripeProvider } from "~/lib/payments/stripe.server.ts";
import { getToast } from "~/lib/toast.server.ts";
import * as billingPage from "~/routes/account/billing.tsx";
import * as cardReturn from "~/routes/account/billing-card.ts";
import * as testCardPage from "~/routes/checkout/test-card.tsx";
import * as testCheckout from "~/routes/checkout/test.tsx";
import * as premiumPage from "~/routes/public/premium.tsx";
import { runBillingSweep } from "~/services/commerce/billing-sweep.server.ts";
import { createPaidSubscription, createUser, sessionCookieFor } from "../helpers/factories.ts";
import { callRoute } from "../helpers/route.ts";
import { eventObject, setupSessionObject, useStripeMock } from "../mocks/stripe.ts";
import * as webhook from "~/routes/api/webhooks.stripe.ts";
import Stripe from "stripe";
import { DAY_MS, useMailCapture } from "./account-helpers.ts";

// The card on file on /billing and replacing it: in the local test mode through its own card
// page, in Stripe mode through a Checkout Session in setup mode (Stripe's HTTP edge is msw).

const mail = useMailCapture();
const { mock: stripeMock } = useStripeMock();
afterEach(() => setPaymentProvider(null));

async function member() {
  const user = await createUser();
  return { user, cookie: await sessionCookieFor(user.id) };
}

const billing = async (cookie: string) => (await callRoute(billingPage, "/billing", { cookie })).body;
const replace = (cookie: string) => callRoute(billingPage, "/billing", { cookie, form: { intent: "replace-card" } });

async function toastOf(res: { headers: Headers }) {
  const cookie = res.headers.get("Set-Cookie")!.split(";")[0]!;
  return (await getToast(new Request("http://localhost/", { headers: { Cookie: cookie } }))).toast;
}

describe("in test mode", () => {
  const setupIdOf = (location: string | null) => /\/checkout\/test\/card\/([0-9a-f-]{36})$/.exec(location ?? "")?.[1] ?? null;
  const page = (setupId: string, cookie: string, form?: Record<string, string>) =>
    callRoute(testCardPage, `/checkout/test/card/${setupId}`, { params: { setupId }, cookie, form });

  it("replaces the card on the test card page, its owner's only; the card is shown on /billing", async () => {
    const { user, cookie } = await member();
    expect((await billing(cookie)).card).toBeNull();

    const started = await replace(cookie);
    expect(started.status).toBe(303);
    const setupId = setupIdOf(started.location)!;
    expect(setupId).toBeTruthy();
    expect((await page(setupId, cookie)).body.setup).toEqual({ id: setupId, status: "open" });
    const stranger = await member();
    expect((await page(setupId, stranger.cookie)).status).toBe(404);
    expect((await page(setupId, stranger.cookie, { card: "4242" })).status).toBe(404);
    expect((await page(setupId, cookie, { card: "9999" })).status).toBe(400);

    const saved = await page(setupId, cookie, { card: "4242" });
    expect(saved).toMatchObject({ status: 302, location: "/billing" });
    expect(await toastOf(saved)).toMatchObject({ title: "Card replaced", description: "Renewals are now charged to the Visa card ending in 4242." });
    expect((await billing(cookie)).card).toEqual({ brand: "Visa", last4: "4242", expMonth: 12, expYear: new Date().getUTCFullYear() + 4 });
    // The attempt is finished: a second press (back button) changes nothing.
    await page(setupId, cookie, { card: "0341" });
    expect((await billing(cookie)).card).toMatchObject({ last4: "4242" });
    expect(await prisma.cardSetup.count({ where: { userId: user.id } })).toBe(1);
  });

  it("the card a first purchase is paid with is the card on file", async () => {
    const { cookie } = await member();
    const started = await callRoute(premiumPage, "/premium", { form: { intent: "checkout" }, cookie });
    const checkoutId = /\/checkout\/test\/([0-9a-f-]{36})$/.exec(started.location ?? "")![1]!;
    expect((await callRoute(testCheckout, `/checkout/test/${checkoutId}`, { form: { intent: "pay" }, params: { checkoutId }, cookie })).status).toBe(303);
    expect((await billing(cookie)).card).toEqual({ brand: "Visa", last4: "4242", expMonth: 12, expYear: new Date().getUTCFullYear() + 4 });
  });

  it("renewals are charged to the card on file: a declining one sends the renewal into dunning, a new card pays the retry", async () => {
    const { user, cookie } = await member();
    const term = new Date(Date.now() + DAY_MS);
    const { subscription } = await createPaidSubscription(user.id, { endDate: term });
    await prisma.subscription.update({ where: { id: subscription.id }, data: { stripeSubscriptionId: `test_sub_${crypto.randomUUID()}`, autoRenew: true } });

    await page(setupIdOf((await replace(cookie)).location)!, cookie, { card: "0341" });
    await runBillingSweep(new Date(term.getTime() + 60_000));
    const [shown] = (await billing(cookie)).subscriptions;
    expect(new Date(shown.paymentRetryAt).getTime()).toBe(term.getTime() + DAY_MS);
    await vi.waitFor(() => expect(mail.to(user.email).filter((m) => m.subject.includes("did not go through"))).toHaveLength(1));
    expect(mail.to(user.email).find((m) => m.subject.includes("did not go through"))!.text).toContain("the card on file ends in 0341");

    await page(setupIdOf((await replace(cookie)).location)!, cookie, { card: "4242" });
    await runBillingSweep(new Date(term.getTime() + DAY_MS + 60_000));
    const renewed = await prisma.subscription.findUniqueOrThrow({ where: { id: subscription.id } });
    expect(renewed).toMatchObject({ status: "active", nextRenewalAttemptAt: null });
    expect(renewed.endDate!.getTime()).toBe(term.getTime() + 365 * DAY_MS);
  });
});

describe("in Stripe mode", () => {
  const useStripe = () =>
    setPaymentProvider(createStripeProvider({ secretKey: "sk_test_medanim_cards", publishableKey: "pk_test_medanim_cards", webhookSecret: "whsec_cards" }));

  it("replaces the card through a setup Checkout Session, made the default of the customer and of the renewing subscription, recorded once", async () => {
    useStripe();
    const { user, cookie } = await member();
    await prisma.user.update({ where: { id: user.id }, data: { stripeCustomerId: "cus_1CardOwner000000000000" } });
    const { subscription } = await createPaidSubscription(user.id);
    await prisma.subscription.update({ where: { id: subscription.id }, data: { stripeSubscriptionId: "sub_1CardRenewing0000000000", autoRenew: true } });

    const started = await replace(cookie);
    expect(started.status).toBe(303);
    expect(started.location).toMatch(/^https:\/\/checkout\.stripe\.com\/c\/pay\/cs_test_/);
    const created = stripeMock.requests.find((r) => r.method === "POST" && r.path === "/v1/checkout/sessions")!;
    expect(created.form.get("mode")).toBe("setup");
    expect(created.form.get("customer")).toBe("cus_1CardOwner000000000000");
    const setup = await prisma.cardSetup.findFirstOrThrow({ where: { userId: user.id } });
    expect(created.form.get("success_url")).toBe(`http://localhost:3000/billing/card?setup=${setup.id}`);

    stripeMock.checkoutSessions.set(
      setup.providerSetupId!,
      setupSessionObject({
        id: setup.providerSetupId!,
        customer: "cus_1CardOwner000000000000",
        card: { brand: "mastercard", last4: "4444", expMonth: 3, expYear: 2031 },
      }),
    );
    const back = await callRoute(cardReturn, `/billing/card?setup=${setup.id}`, { cookie });
    expect(back).toMatchObject({ status: 302, location: "/billing" });
    expect(await toastOf(back)).toMatchObject({ title: "Card replaced", description: "Renewals are now charged to the mastercard card ending in 4444." });
    expect((await billing(cookie)).card).toEqual({ brand: "mastercard", last4: "4444", expMonth: 3, expYear: 2031 });

    const method = (stripeMock.checkoutSessions.get(setup.providerSetupId!) as { setup_intent: { payment_method: { id: string } } }).setup_intent.payment_method
      .id;
    const customerUpdate = stripeMock.requests.filter((r) => r.method === "POST" && r.path === "/v1/customers/cus_1CardOwner000000000000");
    expect(customerUpdate.map((r) => r.form.get("invoice_settings[default_payment_method]"))).toEqual([method]);
    const subscriptionUpdate = stripeMock.requests.filter((r) => r.method === "POST" && r.path === "/v1/subscriptions/sub_1CardRenewing0000000000");
    expect(subscriptionUpdate.map((r) => r.form.get("default_payment_method"))).toEqual([method]);

    // The return page loaded again (a reload, a second tab): recorded once, Stripe not asked again.
    const asked = stripeMock.requests.length;
    expect((await callRoute(cardReturn, `/billing/card?setup=${setup.id}`, { cookie })).location).toBe("/billing");
    expect(stripeMock.requests.length).toBe(asked);
  });

  it("a card saved on Stripe's page is recorded from the webhook when the member never comes back, and once", async () => {
    useStripe();
    const { user, cookie } = await member();
    await prisma.user.update({ where: { id: user.id }, data: { stripeCustomerId: "cus_1CardLeaver00000000000" } });
    await replace(cookie);
    const setup = await prisma.cardSetup.findFirstOrThrow({ where: { userId: user.id } });
    const session = setupSessionObject({
      id: setup.providerSetupId!,
      customer: "cus_1CardLeaver00000000000",
      card: { brand: "visa", last4: "1881", expMonth: 8, expYear: 2030 },
    });
    stripeMock.checkoutSessions.set(setup.providerSetupId!, session);
    const payload = JSON.stringify(eventObject("checkout.session.completed", { ...session, metadata: { setupId: setup.id, userId: user.id } }));
    const deliver = () =>
      callRoute(webhook, "/api/webhooks/stripe", {
        method: "POST",
        body: payload,
        headers: { "Content-Type": "application/json", "Stripe-Signature": Stripe.webhooks.generateTestHeaderString({ payload, secret: "whsec_cards" }) },
      });
    expect((await deliver()).status).toBe(200);
    expect((await billing(cookie)).card).toEqual({ brand: "visa", last4: "1881", expMonth: 8, expYear: 2030 });
    // Delivered again, and the member coming back after all: recorded once.
    expect((await deliver()).status).toBe(200);
    expect((await callRoute(cardReturn, `/billing/card?setup=${setup.id}`, { cookie })).status).toBe(302);
    expect(stripeMock.requests.filter((r) => r.method === "POST" && r.path === "/v1/customers/cus_1CardLeaver00000000000")).toHaveLength(1);
  });

  it("a page left without saving a card, or someone else's attempt, changes nothing", async () => {
    useStripe();
    const { user, cookie } = await member();
    await prisma.user.update({ where: { id: user.id }, data: { stripeCustomerId: "cus_1CardLeaver00000000000" } });
    await replace(cookie);
    const setup = await prisma.cardSetup.findFirstOrThrow({ where: { userId: user.id } });

    const canceled = await callRoute(cardReturn, `/billing/card?setup=${setup.id}&canceled=1`, { cookie });
    expect(await toastOf(canceled)).toMatchObject({
      title: "Card not replaced",
      description: "No card was saved. Your card on file is unchanged.",
      type: "error",
    });
    stripeMock.checkoutSessions.set(
      setup.providerSetupId!,
      setupSessionObject({ id: setup.providerSetupId!, customer: "cus_1CardLeaver00000000000", card: null }),
    );
    expect(await toastOf(await callRoute(cardReturn, `/billing/card?setup=${setup.id}`, { cookie }))).toMatchObject({ title: "Card not replaced" });
    expect((await billing(cookie)).card).toBeNull();

    const stranger = await member();
    expect((await callRoute(cardReturn, `/billing/card?setup=${setup.id}`, { cookie: stranger.cookie })).status).toBe(404);
    expect((await callRoute(cardReturn, "/billing/card?setup=nonsense", { cookie })).status).toBe(404);
  });
});
