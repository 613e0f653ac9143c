import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { prisma } from "~/lib/db.server.ts";
import { getPaymentProvider, setPaymentProvider } from "~/lib/payments/index.server.ts";
import { ProviderDeclinedError } from "~/lib/payments/provider.server.ts";
import { TEST_DECLINE_MESSAGE } from "~/lib/payments/test-mode.server.ts";
import * as purchase from "~/routes/account/purchase.tsx";
import * as checkoutReturn from "~/routes/checkout/return.tsx";
import * as testPage from "~/routes/checkout/test.tsx";
import * as premium from "~/routes/public/premium.tsx";
import { formatLongDate } from "~/lib/format.ts";
import { runBillingSweep } from "~/services/commerce/billing-sweep.server.ts";
import { ALREADY_LICENSED, ALREADY_PREMIUM } from "~/services/commerce/checkout.server.ts";
import { createUser, sessionCookieFor } from "../helpers/factories.ts";
import { createCatalogue, grant } from "../helpers/catalogue.ts";
import { callRoute } from "../helpers/route.ts";

const DAY_MS = 24 * 60 * 60 * 1000;

let c: Awaited<ReturnType<typeof createCatalogue>>;
let cookie: string;
let userId: string;

beforeAll(async () => {
  c = await createCatalogue();
  const user = await createUser();
  userId = user.id;
  cookie = await sessionCookieFor(user.id);
});

afterEach(() => setPaymentProvider(null));

async function newBuyer() {
  const user = await createUser();
  return { id: user.id, cookie: await sessionCookieFor(user.id) };
}

const individual = (idOrSlug: string, options: { cookie?: string; form?: Record<string, string> } = {}) =>
  callRoute(purchase, `/purchase/individual/${idOrSlug}`, { params: { idOrSlug }, ...options });
const category = (slugOrId: string, options: { cookie?: string; form?: Record<string, string> } = {}) =>
  callRoute(purchase, `/purchase/category/${slugOrId}`, { params: { slugOrId }, ...options });
const buyPremium = (cookie?: string) => callRoute(premium, "/premium", { form: { intent: "checkout" }, cookie });
const checkoutIdOf = (location: string | null) => /\/checkout\/test\/([0-9a-f-]{36})$/.exec(location ?? "")?.[1] ?? null;
const press = (checkoutId: string, intent: string, cookie: string) =>
  callRoute(testPage, `/checkout/test/${checkoutId}`, { form: { intent }, params: { checkoutId }, cookie });
const result = (checkoutId: string, cookie: string, extra = "") => callRoute(checkoutReturn, `/checkout/return?checkout=${checkoutId}${extra}`, { cookie });

describe("/purchase/individual and /purchase/category pages", () => {
  it("send anonymous visitors to sign in and back, for the page and for the buy button", async () => {
    const res = await individual("rhinoplasty");
    expect(res.status).toBe(302);
    expect(res.location).toBe(`/auth?redirectTo=${encodeURIComponent("/purchase/individual/rhinoplasty")}`);
    const post = await individual("rhinoplasty", { form: { intent: "checkout" } });
    expect(post.location).toBe(`/auth?redirectTo=${encodeURIComponent("/purchase/individual/rhinoplasty")}`);
    expect((await buyPremium()).location).toBe(`/auth?redirectTo=${encodeURIComponent("/premium")}`);
  });

  it("show the animation licence by slug or id at its individualPrice ($149/year), with the test-mode banner flag", async () => {
    for (const key of ["rhinoplasty", c.rhinoplasty.id]) {
      const res = await individual(key, { cookie });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({
        kind: "individual",
        title: "Individual license: Rhinoplasty",
        price: 149,
        held: false,
        testMode: true,
        itemId: c.rhinoplasty.id,
      });
    }
  });

  it("show the category licence at the category's yearly price, or $299 without one", async () => {
    expect((await category("facial-procedures", { cookie })).body).toMatchObject({ title: "Category license: Facial Procedures", price: 199 });
    expect((await category(c.body.id, { cookie })).body).toMatchObject({ title: "Category license: Body Contouring", price: 299 });
  });

  it("answer 404 for what cannot be bought: unknown, inactive or hidden (page and button)", async () => {
    expect((await individual("no-such-animation", { cookie })).status).toBe(404);
    expect((await individual(c.retired.slug, { cookie })).body).toEqual({ message: "Animation not found" });
    expect((await category("hidden-category", { cookie })).body).toEqual({ message: "Category not found" });
    expect(await individual(c.retired.slug, { cookie, form: { intent: "checkout" } })).toMatchObject({
      status: 404,
      body: { formError: "Animation not found" },
    });
    expect(await category("hidden-category", { cookie, form: { intent: "checkout" } })).toMatchObject({
      status: 404,
      body: { formError: "Category not found" },
    });
  });

  it("say when the licence is already held, refuse to sell it again (409) and record nothing", async () => {
    await grant(userId, "individual", { animationId: c.facelift.id });
    expect((await individual("facelift", { cookie })).body).toMatchObject({ held: true });
    expect(await individual("facelift", { cookie, form: { intent: "checkout" } })).toMatchObject({ status: 409, body: { formError: ALREADY_LICENSED } });
    expect(await prisma.checkoutSession.count({ where: { userId, animationId: c.facelift.id } })).toBe(0);
    expect(await prisma.payment.count({ where: { userId } })).toBe(0);
  });
});

describe("buying without JavaScript (test mode)", () => {
  it("premium: 303 to the test page, which shows the item and amount; Pay grants it at the price fixed at the start", async () => {
    const buyer = await newBuyer();
    const started = await buyPremium(buyer.cookie);
    expect(started.status).toBe(303);
    const checkoutId = checkoutIdOf(started.location)!;
    expect(checkoutId).toBeTruthy();

    // The price changes after the checkout started: the buyer pays what was shown.
    await prisma.appSetting.upsert({
      where: { key: "global_subscription_yearly_price" },
      update: { value: "149" },
      create: { key: "global_subscription_yearly_price", value: "149" },
    });
    const page = await callRoute(testPage, `/checkout/test/${checkoutId}`, { params: { checkoutId }, cookie: buyer.cookie });
    expect(page.body.checkout).toMatchObject({ description: "Premium yearly subscription", amount: 99, status: "open" });

    const paid = await press(checkoutId, "pay", buyer.cookie);
    expect(paid).toMatchObject({ status: 303, location: `/checkout/return?checkout=${checkoutId}` });
    const sub = await prisma.subscription.findFirstOrThrow({ where: { userId: buyer.id } });
    const payment = await prisma.payment.findFirstOrThrow({ where: { userId: buyer.id } });
    // The confirmation names the term granted and the receipt of this payment.
    expect((await result(checkoutId, buyer.cookie)).body.result).toMatchObject({
      status: "paid",
      type: "global",
      nextPath: "/",
      endDate: sub.endDate!.toISOString(),
      paymentId: payment.id,
    });
    expect(Number(sub.price)).toBe(99);
    expect((await prisma.user.findUniqueOrThrow({ where: { id: buyer.id } })).accountType).toBe("premium");

    // A second Pay (back button) is the same payment.
    await press(checkoutId, "pay", buyer.cookie);
    expect(await prisma.payment.count({ where: { userId: buyer.id } })).toBe(1);

    // The premium page now says so, and a new checkout is refused.
    expect((await callRoute(premium, "/premium", { cookie: buyer.cookie })).body).toMatchObject({ alreadyPremium: true });
    expect(await buyPremium(buyer.cookie)).toMatchObject({ status: 409, body: { formError: ALREADY_PREMIUM } });

    // The existing subscription keeps its price; a new buyer pays the new one.
    const next = await newBuyer();
    const nextId = checkoutIdOf((await buyPremium(next.cookie)).location)!;
    expect(Number((await prisma.checkoutSession.findUniqueOrThrow({ where: { id: nextId } })).amount)).toBe(149);
    expect(Number((await prisma.subscription.findUniqueOrThrow({ where: { id: sub.id } })).price)).toBe(99);
    await prisma.appSetting.delete({ where: { key: "global_subscription_yearly_price" } });
  });

  it("every checkout screen states the renewal it will make, and the renewal comes on that date at that price", async () => {
    const buyer = await newBuyer();
    const page = await category("facial-procedures", { cookie: buyer.cookie });
    const until = formatLongDate(new Date(Date.now() + 365 * DAY_MS));
    expect(page.body).toMatchObject({ price: 199, until, renewal: { on: until, price: 199 } });
    expect((await callRoute(premium, "/premium", { cookie: buyer.cookie })).body).toMatchObject({ renewal: { on: until, price: 99 } });

    const checkoutId = checkoutIdOf((await buyPremium(buyer.cookie)).location)!;
    const hosted = await callRoute(testPage, `/checkout/test/${checkoutId}`, { params: { checkoutId }, cookie: buyer.cookie });
    expect(hosted.body.term).toEqual({ until, renewal: { on: until, price: 99 } });

    await press(checkoutId, "pay", buyer.cookie);
    const sub = await prisma.subscription.findFirstOrThrow({ where: { userId: buyer.id } });
    expect(formatLongDate(sub.endDate)).toBe(until);
    const renewals = () => prisma.payment.findMany({ where: { subscriptionId: sub.id, description: { startsWith: "Renewal" } } });
    await runBillingSweep(new Date(sub.endDate!.getTime() - DAY_MS));
    expect(await renewals()).toHaveLength(0);
    await runBillingSweep(new Date(sub.endDate!.getTime() + 60_000));
    expect((await renewals()).map((p) => Number(p.amount))).toEqual([99]);
  });

  it("Decline shows 'Payment Failed' with the provider's message and grants nothing", async () => {
    const buyer = await newBuyer();
    const checkoutId = checkoutIdOf((await individual("rhinoplasty", { cookie: buyer.cookie, form: { intent: "checkout" } })).location)!;
    expect(await press(checkoutId, "decline", buyer.cookie)).toMatchObject({ status: 303 });
    expect((await result(checkoutId, buyer.cookie)).body.result).toMatchObject({ status: "failed", message: TEST_DECLINE_MESSAGE });
    expect(await prisma.subscription.count({ where: { userId: buyer.id } })).toBe(0);
    expect(await prisma.payment.count({ where: { userId: buyer.id } })).toBe(0);
    expect((await prisma.user.findUniqueOrThrow({ where: { id: buyer.id } })).accountType).toBe("free");
  });

  it("individual and category licences: priced, described and granted with their item", async () => {
    const buyer = await newBuyer();
    const one = checkoutIdOf((await individual(c.rhinoplasty.slug, { cookie: buyer.cookie, form: { intent: "checkout" } })).location)!;
    await press(one, "pay", buyer.cookie);
    expect((await result(one, buyer.cookie)).body.result).toMatchObject({ status: "paid", type: "individual", nextPath: `/watch/${c.rhinoplasty.id}` });
    const cat = checkoutIdOf((await category("facial-procedures", { cookie: buyer.cookie, form: { intent: "checkout" } })).location)!;
    await press(cat, "pay", buyer.cookie);
    const subs = await prisma.subscription.findMany({ where: { userId: buyer.id }, orderBy: { createdAt: "asc" } });
    expect(subs.map((s) => [s.type, s.animationId, s.categoryId, Number(s.price)])).toEqual([
      ["individual", c.rhinoplasty.id, null, 149],
      ["category", null, c.facial.id, 199],
    ]);
    const payments = await prisma.payment.findMany({ where: { userId: buyer.id }, orderBy: { createdAt: "asc" } });
    expect(payments.map((p) => p.description)).toEqual(["Individual license: Rhinoplasty", "Category license: Facial Procedures"]);
    expect((await individual("rhinoplasty", { cookie: buyer.cookie })).body).toMatchObject({ held: true });
  });

  it("a cancel shows 'Payment Failed' without a charge; a checkout is its buyer's only (404)", async () => {
    const buyer = await newBuyer();
    const checkoutId = checkoutIdOf((await buyPremium(buyer.cookie)).location)!;
    expect((await result(checkoutId, buyer.cookie, "&canceled=1")).body.result).toMatchObject({ status: "failed" });
    expect((await result(checkoutId, buyer.cookie)).body.result).toMatchObject({ status: "pending" });
    const other = await newBuyer();
    expect((await result(checkoutId, other.cookie)).status).toBe(404);
    expect((await press(checkoutId, "pay", other.cookie)).status).toBe(404);
    expect((await callRoute(testPage, `/checkout/test/${checkoutId}`, { params: { checkoutId }, cookie: other.cookie })).status).toBe(404);
    expect(await prisma.payment.count({ where: { userId: { in: [buyer.id, other.id] } } })).toBe(0);
  });

  it("the test page does not exist when Stripe takes the payments", async () => {
    const buyer = await newBuyer();
    const checkoutId = checkoutIdOf((await buyPremium(buyer.cookie)).location)!;
    setPaymentProvider({ ...getPaymentProvider(), name: "stripe" });
    expect((await press(checkoutId, "pay", buyer.cookie)).status).toBe(404);
  });

  it("a provider refusal at the start is shown with the provider's message and nothing is granted", async () => {
    const buyer = await newBuyer();
    setPaymentProvider({
      ...getPaymentProvider(),
      async startCheckout() {
        throw new ProviderDeclinedError("Your card was declined.");
      },
    });
    expect(await buyPremium(buyer.cookie)).toMatchObject({ status: 402, body: { formError: "Your card was declined." } });
    expect(await prisma.checkoutSession.findFirst({ where: { userId: buyer.id } })).toMatchObject({
      status: "declined",
      failureMessage: "Your card was declined.",
    });
  });
});
