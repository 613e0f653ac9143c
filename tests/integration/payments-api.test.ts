import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { prisma } from "~/lib/db.server.ts";
import { getPaymentProvider, setPaymentProvider } from "~/lib/payments/index.server.ts";
import { ProviderDeclinedError } from "~/lib/payments/provider.server.ts";
import { TEST_DECLINE_MESSAGE } from "~/lib/payments/test-mode.server.ts";
import * as testApi from "~/routes/api/checkout.test.ts";
import * as paymentSuccess from "~/routes/api/payments.success.ts";
import * as subCategory from "~/routes/api/subscriptions.category.ts";
import * as subGlobal from "~/routes/api/subscriptions.global.ts";
import * as subIndividual from "~/routes/api/subscriptions.individual.ts";
import { ALREADY_LICENSED, ALREADY_PREMIUM } from "~/services/commerce/checkout.server.ts";
import { accessTokenFor, createUser, sessionCookieFor } from "../helpers/factories.ts";
import { createCatalogue, grant } from "../helpers/catalogue.ts";
import { callRoute } from "../helpers/route.ts";

let c: Awaited<ReturnType<typeof createCatalogue>>;

beforeAll(async () => {
  c = await createCatalogue();
});

afterEach(() => setPaymentProvider(null));

async function buyer() {
  const user = await createUser();
  return { id: user.id, cookie: await sessionCookieFor(user.id), token: await accessTokenFor(user.id) };
}

const UUID = /^[0-9a-f-]{36}$/;
const testPay = (checkoutId: string, outcome: string, cookie: string) =>
  callRoute(testApi, `/api/checkout/test/${checkoutId}`, { json: { outcome }, params: { checkoutId }, cookie });
const confirm = (paymentIntentId: string, auth: { cookie?: string; token?: string }) =>
  callRoute(paymentSuccess, "/api/payments/success", { json: { paymentIntentId }, ...auth });

describe("POST /api/subscriptions/global|individual|category", () => {
  it("answer a client secret for the embedded form (test mode), with the checkout id and provider", async () => {
    const b = await buyer();
    const res = await callRoute(subGlobal, "/api/subscriptions/global", { json: { priceType: "yearly" }, token: b.token });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      checkoutId: expect.stringMatching(UUID),
      provider: "test",
      clientSecret: `test_secret_${res.body.checkoutId}`,
      // Premium is not a licence: it accepts no terms.
      licenseTermsVersion: null,
    });
    const one = await callRoute(subIndividual, "/api/subscriptions/individual", { json: { animationId: c.rhinoplasty.slug }, cookie: b.cookie });
    // A licence names the terms version paying accepts, the one its checkout records.
    const terms = await prisma.licenceTerms.findFirstOrThrow({ orderBy: { version: "desc" } });
    expect(one.body).toMatchObject({ provider: "test", clientSecret: expect.stringMatching(/^test_secret_/), licenseTermsVersion: terms.version });
    expect((await prisma.checkoutSession.findUniqueOrThrow({ where: { id: one.body.checkoutId } })).licenceTermsVersion).toBe(terms.version);
    const cat = await callRoute(subCategory, "/api/subscriptions/category", { json: { categoryId: c.facial.id }, cookie: b.cookie });
    expect(Number((await prisma.checkoutSession.findUniqueOrThrow({ where: { id: cat.body.checkoutId } })).amount)).toBe(199);
  });

  it("answer a url when the provider has only a hosted page", async () => {
    const b = await buyer();
    const real = getPaymentProvider();
    setPaymentProvider({ ...real, startCheckout: (input, key) => real.startCheckout({ ...input, mode: "hosted" }, key) });
    const res = await callRoute(subGlobal, "/api/subscriptions/global", { json: { priceType: "yearly" }, cookie: b.cookie });
    expect(res.body.url).toBe(`${new URL(res.body.url).origin}/checkout/test/${res.body.checkoutId}`);
  });

  it("refuse anonymous callers (401), bad bodies (400), unknown items (404), held items (409), provider refusals", async () => {
    expect((await callRoute(subGlobal, "/api/subscriptions/global", { json: { priceType: "yearly" } })).status).toBe(401);
    const b = await buyer();
    expect(await callRoute(subGlobal, "/api/subscriptions/global", { json: { priceType: "monthly" }, cookie: b.cookie })).toMatchObject({
      status: 400,
      body: { message: "priceType must be yearly" },
    });
    expect((await callRoute(subIndividual, "/api/subscriptions/individual", { json: {}, cookie: b.cookie })).status).toBe(400);
    expect(await callRoute(subIndividual, "/api/subscriptions/individual", { json: { animationId: "nope" }, cookie: b.cookie })).toMatchObject({
      status: 404,
      body: { message: "Animation not found" },
    });
    expect(await callRoute(subCategory, "/api/subscriptions/category", { json: { categoryId: "hidden-category" }, cookie: b.cookie })).toMatchObject({
      status: 404,
      body: { message: "Category not found" },
    });
    await grant(b.id, "category", { categoryId: c.facial.id });
    expect(await callRoute(subCategory, "/api/subscriptions/category", { json: { categoryId: "facial-procedures" }, cookie: b.cookie })).toMatchObject({
      status: 409,
      body: { message: ALREADY_LICENSED },
    });
    // The category licence includes premium: premium itself is refused.
    expect(await callRoute(subGlobal, "/api/subscriptions/global", { json: { priceType: "yearly" }, cookie: b.cookie })).toMatchObject({
      status: 409,
      body: { message: ALREADY_PREMIUM },
    });
    const other = await buyer();
    setPaymentProvider({ ...getPaymentProvider(), startCheckout: async () => Promise.reject(new ProviderDeclinedError("Stripe is not reachable")) });
    expect(await callRoute(subGlobal, "/api/subscriptions/global", { json: { priceType: "yearly" }, cookie: other.cookie })).toMatchObject({
      status: 402,
      body: { message: "Stripe is not reachable" },
    });
  });
});

describe("the embedded test-mode form and POST /api/payments/success", () => {
  it("Pay then confirm: 200 with the subscription, one payment however often it is confirmed", async () => {
    const b = await buyer();
    const { checkoutId } = (await callRoute(subGlobal, "/api/subscriptions/global", { json: { priceType: "yearly" }, cookie: b.cookie })).body;
    expect(await confirm(`test_pi_${checkoutId}`, { cookie: b.cookie })).toMatchObject({ status: 404, body: { message: "Payment not found" } });
    expect(await testPay(checkoutId, "pay", b.cookie)).toMatchObject({ status: 200, body: { status: "paid", type: "global" } });
    const res = await confirm(`test_pi_${checkoutId}`, { token: b.token });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ message: "Welcome to Premium!", subscription: expect.objectContaining({ type: "global", status: "active", price: 99 }) });
    expect((await confirm(`test_pi_${checkoutId}`, { cookie: b.cookie })).status).toBe(200);
    expect(await prisma.payment.count({ where: { userId: b.id } })).toBe(1);
  });

  it("Decline then confirm: 402 with the provider's message, nothing granted", async () => {
    const b = await buyer();
    const { checkoutId } = (await callRoute(subIndividual, "/api/subscriptions/individual", { json: { animationId: c.tummy.id }, cookie: b.cookie })).body;
    expect(await testPay(checkoutId, "decline", b.cookie)).toMatchObject({ status: 200, body: { status: "failed", message: TEST_DECLINE_MESSAGE } });
    expect(await confirm(`test_pi_${checkoutId}`, { cookie: b.cookie })).toMatchObject({ status: 402, body: { message: TEST_DECLINE_MESSAGE } });
    expect(await prisma.subscription.count({ where: { userId: b.id } })).toBe(0);
  });

  it("someone else's payment answers 404 and grants nothing to anyone new", async () => {
    const owner = await buyer();
    const { checkoutId } = (await callRoute(subGlobal, "/api/subscriptions/global", { json: { priceType: "yearly" }, cookie: owner.cookie })).body;
    const thief = await buyer();
    expect((await testPay(checkoutId, "pay", thief.cookie)).status).toBe(404);
    await testPay(checkoutId, "pay", owner.cookie);
    expect(await confirm(`test_pi_${checkoutId}`, { cookie: thief.cookie })).toMatchObject({ status: 404, body: { message: "Payment not found" } });
    expect(await prisma.subscription.count({ where: { userId: thief.id } })).toBe(0);
  });

  it("validate bodies and methods", async () => {
    const b = await buyer();
    expect((await callRoute(paymentSuccess, "/api/payments/success", { json: {}, cookie: b.cookie })).status).toBe(400);
    expect((await callRoute(paymentSuccess, "/api/payments/success", { json: { paymentIntentId: "pi_x" } })).status).toBe(401);
    expect((await testPay("not-a-uuid", "pay", b.cookie)).status).toBe(404);
    expect((await callRoute(testApi, "/api/checkout/test/x", { json: { outcome: "steal" }, params: { checkoutId: "x" }, cookie: b.cookie })).status).toBe(400);
    const get = await callRoute(paymentSuccess, "/api/payments/success", { cookie: b.cookie });
    expect(get.status).toBe(405);
    expect(get.headers.get("Allow")).toBe("POST");
  });
});
