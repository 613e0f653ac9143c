import Stripe from "stripe";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { prisma } from "~/lib/db.server.ts";
import { setPaymentProvider } from "~/lib/payments/index.server.ts";
import { createStripeProvider } from "~/lib/payments/stripe.server.ts";
import * as purchase from "~/routes/account/purchase.tsx";
import * as receiptPage from "~/routes/account/receipt.tsx";
import * as animationForm from "~/routes/admin/animation-form.tsx";
import * as animationsApi from "~/routes/api/animations.ts";
import * as animationApi from "~/routes/api/animations.slug.ts";
import * as categoryApi from "~/routes/api/categories.slug.ts";
import * as subCategory from "~/routes/api/subscriptions.category.ts";
import * as subIndividual from "~/routes/api/subscriptions.individual.ts";
import * as webhook from "~/routes/api/webhooks.stripe.ts";
import * as testPage from "~/routes/checkout/test.tsx";
import * as animationPage from "~/routes/public/animation.tsx";
import * as categoryLicense from "~/routes/public/category-license.tsx";
import * as categoryPage from "~/routes/public/category.tsx";
import * as globalLicense from "~/routes/public/global-license.tsx";
import * as individualLicense from "~/routes/public/individual-license.tsx";
import { sendToApp } from "../helpers/app.ts";
import { createAnimation } from "../helpers/catalogue.ts";
import { accessTokenFor, createUser, sessionCookieFor } from "../helpers/factories.ts";
import { cookiesFrom, callRoute } from "../helpers/route.ts";
import { eventObject, invoiceObject, invoicePaymentObject, useStripeMock } from "../mocks/stripe.ts";
import { pdfText } from "../helpers/pdf-text.ts";

// One price rule: what a page, a card or an /api answer shows for a licence is what
// checkout charges, and what the payment, the receipt and the certificate then say. Proven at a
// non-default individualPrice ($149, the default is $299) through the app's front door, in test
// mode and with Stripe's HTTP edge mocked.

const WEBHOOK_SECRET = "whsec_test_medanim_price_rule_0123456789";
const { mock: stripeMock } = useStripeMock();

let plastic: { id: string; slug: string };
let facial: { id: string; slug: string };
let rhinoplasty: { id: string; slug: string };
let facelift: { id: string; slug: string };

beforeAll(async () => {
  plastic = await prisma.category.create({ data: { name: "Plastic Surgery", slug: "plastic-surgery", sortOrder: 1 } });
  facial = await prisma.category.create({ data: { name: "Facial Procedures", slug: "facial-procedures", parentId: plastic.id, yearlyPrice: 199 } });
  // $149: below its category's $199 licence. $249: a single animation dearer than the whole category.
  rhinoplasty = await createAnimation({ title: "Rhinoplasty", categoryId: facial.id, individualPrice: 149 });
  facelift = await createAnimation({ title: "Facelift", categoryId: facial.id, individualPrice: 249 });
});

afterEach(() => setPaymentProvider(null));

async function buyer() {
  const user = await createUser({ firstName: "Ada", lastName: "Lovelace" });
  return { id: user.id, cookie: await sessionCookieFor(user.id), token: await accessTokenFor(user.id) };
}

/** A page's HTML as a browser gets it, without the comments React puts between adjacent texts. */
async function pageHtml(path: string, cookie?: string) {
  const res = await sendToApp(path, { headers: new Headers(cookie ? { Cookie: cookie } : {}) });
  expect(res.status, path).toBe(200);
  return res.body.toString("utf8").replaceAll("<!-- -->", "");
}

async function download(path: string, cookie: string) {
  const res = await sendToApp(path, { headers: new Headers({ Cookie: cookie }) });
  expect(res.status, path).toBe(200);
  expect(res.headers.get("content-type")).toBe("application/pdf");
  return pdfText(res.body);
}

describe("the price shown is the price charged (individual licence at $149)", () => {
  it("test mode, without JavaScript: page, cards, API, checkout page, payment, receipt and certificate all say $149", async () => {
    // Shown: the animation page, the individual licence page, the category listing's cards, the API.
    const page = await callRoute(animationPage, `/animations/${rhinoplasty.slug}`);
    expect(page.body.animation.individualPrice).toBe(149);
    expect(page.body.offers).toMatchObject({ price: 149, category: { name: "Facial Procedures", price: 199 }, cheaperCategory: null });
    expect((await callRoute(individualLicense, `/individual-license?animation=${rhinoplasty.id}`)).body).toMatchObject({ price: 149, priceVaries: false });
    const listing = await callRoute(categoryPage, `/category/${facial.slug}`, { params: { slug: facial.slug } });
    expect(listing.body.animations.find((a: { id: string }) => a.id === rhinoplasty.id).individualPrice).toBe(149);
    expect((await callRoute(animationApi, `/api/animations/${rhinoplasty.slug}`, { params: { slugOrId: rhinoplasty.slug } })).body.individualPrice).toBe(149);
    const cards = await callRoute(animationsApi, `/api/animations?category=${facial.slug}&light=true`);
    expect(cards.body.animations.find((a: { id: string }) => a.id === rhinoplasty.id).individualPrice).toBe(149);

    // Charged: the checkout page, the test-mode payment page, then the payment itself.
    const b = await buyer();
    const checkoutPage = await callRoute(purchase, `/purchase/individual/${rhinoplasty.slug}`, { params: { idOrSlug: rhinoplasty.slug }, cookie: b.cookie });
    expect(checkoutPage.body).toMatchObject({ kind: "individual", price: 149, betterBuy: null });
    const started = await callRoute(purchase, `/purchase/individual/${rhinoplasty.slug}`, {
      params: { idOrSlug: rhinoplasty.slug },
      form: { intent: "checkout" },
      cookie: b.cookie,
    });
    expect(started.status).toBe(303);
    const checkoutId = /\/checkout\/test\/([0-9a-f-]{36})$/.exec(started.location ?? "")![1]!;
    const hosted = await callRoute(testPage, `/checkout/test/${checkoutId}`, { params: { checkoutId }, cookie: b.cookie });
    expect(hosted.body.checkout).toMatchObject({ amount: 149 });
    expect((await callRoute(testPage, `/checkout/test/${checkoutId}`, { params: { checkoutId }, form: { intent: "pay" }, cookie: b.cookie })).status).toBe(303);

    const payment = await prisma.payment.findFirstOrThrow({ where: { userId: b.id }, include: { subscription: true } });
    expect(Number(payment.amount)).toBe(149);
    expect(Number(payment.subscription!.price)).toBe(149);

    // Documented: the receipt page and PDF, the certificate.
    const receipt = await callRoute(receiptPage, `/billing/receipts/${payment.id}`, { params: { paymentId: payment.id }, cookie: b.cookie });
    expect(receipt.body.receipt).toMatchObject({ amount: 149, amountText: "$149.00" });
    expect(await download(`/billing/receipts/${payment.id}/pdf`, b.cookie)).toContain("$149.00");
    expect(await download(`/licences/${payment.subscriptionId}/certificate`, b.cookie)).toContain("$149.00 per year");
  });

  it("Stripe mode: the amount Stripe is asked for is the $149 shown, embedded and hosted, and the payment records it", async () => {
    setPaymentProvider(
      createStripeProvider({ secretKey: "sk_test_medanim_price_rule", publishableKey: "pk_test_medanim_price_rule", webhookSecret: WEBHOOK_SECRET }),
    );
    const b = await buyer();

    // With JavaScript: the embedded form's subscription, priced by the server whatever the body says.
    const embedded = await callRoute(subIndividual, "/api/subscriptions/individual", { json: { animationId: rhinoplasty.id }, token: b.token });
    expect(embedded.status).toBe(200);
    const subscriptionCall = stripeMock.requests.find((r) => r.method === "POST" && r.path === "/v1/subscriptions")!;
    expect(subscriptionCall.form.get("items[0][price_data][unit_amount]")).toBe("14900");

    // Without JavaScript: the hosted Checkout Session.
    const other = await buyer();
    const hosted = await callRoute(purchase, `/purchase/individual/${rhinoplasty.slug}`, {
      params: { idOrSlug: rhinoplasty.slug },
      form: { intent: "checkout" },
      cookie: other.cookie,
    });
    expect(hosted.status).toBe(303);
    const sessionCall = stripeMock.requests.find((r) => r.method === "POST" && r.path === "/v1/checkout/sessions")!;
    expect(sessionCall.form.get("line_items[0][price_data][unit_amount]")).toBe("14900");

    // Stripe reports the embedded payment paid: the payment row holds the same amount.
    const checkout = await prisma.checkoutSession.findUniqueOrThrow({ where: { id: embedded.body.checkoutId } });
    expect(Number(checkout.amount)).toBe(149);
    const customer = subscriptionCall.form.get("customer")!;
    const metadata = { checkoutId: checkout.id, userId: b.id, type: "individual", animationId: rhinoplasty.id };
    const invoice = invoiceObject({
      customer,
      subscription: checkout.providerSessionId!,
      subscriptionMetadata: metadata,
      amount: 14900,
      billingReason: "subscription_create",
    });
    stripeMock.invoicePayments.push(
      invoicePaymentObject({ invoice, paymentIntent: `pi_1PriceRule${checkout.id.replace(/-/g, "").slice(0, 14)}`, amount: 14900, status: "paid" }),
    );
    const payload = JSON.stringify(eventObject("invoice.paid", invoice));
    const delivered = await callRoute(webhook, "/api/webhooks/stripe", {
      method: "POST",
      body: payload,
      headers: { "Content-Type": "application/json", "Stripe-Signature": Stripe.webhooks.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET }) },
    });
    expect(delivered.status).toBe(200);
    const payment = await prisma.payment.findFirstOrThrow({ where: { userId: b.id } });
    expect(Number(payment.amount)).toBe(149);
  });

  it("an admin's new price applies to the next checkout; a started checkout keeps the price it showed", async () => {
    const b = await buyer();
    const first = await callRoute(subIndividual, "/api/subscriptions/individual", { json: { animationId: facelift.id }, token: b.token });
    await prisma.animation.update({ where: { id: facelift.id }, data: { individualPrice: 179 } });
    try {
      const second = await callRoute(subIndividual, "/api/subscriptions/individual", { json: { animationId: facelift.id }, token: (await buyer()).token });
      const amounts = await prisma.checkoutSession.findMany({
        where: { id: { in: [first.body.checkoutId, second.body.checkoutId] } },
        select: { id: true, amount: true },
      });
      expect(Object.fromEntries(amounts.map((a) => [a.id, Number(a.amount)]))).toEqual({ [first.body.checkoutId]: 249, [second.body.checkoutId]: 179 });
      expect((await callRoute(animationApi, `/api/animations/${facelift.slug}`, { params: { slugOrId: facelift.slug } })).body.individualPrice).toBe(179);
    } finally {
      await prisma.animation.update({ where: { id: facelift.id }, data: { individualPrice: 249 } });
    }
  });
});

describe("every price label says its period", () => {
  it("the animation page's licence buttons, a category listing's cards and headers, and Premium say /year: each renews yearly", async () => {
    const animation = await pageHtml(`/animations/${rhinoplasty.slug}`);
    expect(animation).toMatch(/<a [^>]*href="\/individual-license\?animation=[^"]+"[^>]*>Individual License \$149\/year<\/a>/);
    expect(animation).toMatch(/<a [^>]*href="\/purchase\/category\/facial-procedures"[^>]*>Facial Procedures Category License \$199\/year<\/a>/);
    const listing = await pageHtml(`/category/${facial.slug}`);
    expect(listing).toContain("Category License: $199/year");
    for (const price of ["$149", "$249"]) expect(listing).toMatch(new RegExp(`<span class="font-semibold">\\${price}/year</span>`));
    expect(await pageHtml(`/category/${plastic.slug}`)).toContain("$199/year");
    const premium = await pageHtml("/premium");
    expect(premium).toContain("Billed annually at <strong>$99/year</strong>");
    expect(premium).toContain("an Individual License (from $149/year)");
  });
});

describe("the cheaper option, presented honestly", () => {
  it("where one animation costs as much as its category licence, the pages point to the category licence", async () => {
    const page = await callRoute(animationPage, `/animations/${facelift.slug}`);
    expect(page.body.offers).toMatchObject({ price: 249, cheaperCategory: { name: "Facial Procedures", price: 199, animationCount: 2 } });
    const b = await buyer();
    expect((await callRoute(purchase, `/purchase/individual/${facelift.slug}`, { params: { idOrSlug: facelift.slug }, cookie: b.cookie })).body).toMatchObject({
      price: 249,
      betterBuy: { slug: "facial-procedures", price: 199 },
    });
    const html = await pageHtml(`/individual-license?animation=${facelift.slug}`);
    expect(html).toContain("costs $199/year, no more than this one animation");
  });

  it("the category licence FAQ calls a single animation the smaller option only where it is cheaper", async () => {
    const generic = await pageHtml("/category-license");
    expect(generic).toContain("Yes: an <a");
    expect(generic).toContain("covers a single animation, from $149 per year.");
    expect(generic).toContain("In some specialties the Category License costs no more than one animation");

    const dearer = await prisma.category.create({ data: { name: "Body Contouring", slug: "body-contouring", parentId: plastic.id, yearlyPrice: 99 } });
    await createAnimation({ title: "Tummy Tuck", categoryId: dearer.id, individualPrice: 149 });
    const chosen = await pageHtml("/category-license?category=body-contouring");
    expect(chosen).toContain("Not in Body Contouring");
    expect(chosen).toContain("every one here costs $149/year or more");
    expect(chosen).not.toContain("Yes: an <a");
    await prisma.animation.deleteMany({ where: { categoryId: dearer.id } });
    await prisma.category.delete({ where: { id: dearer.id } });
  });
});

describe("main categories are not offered for sale", () => {
  it("only sub-categories are listed, priced and sold; a main category's checkout is refused with a clear 404", async () => {
    // An old row may still carry a price on a main category: it is still not for sale.
    await prisma.category.update({ where: { id: plastic.id }, data: { yearlyPrice: 499 } });
    try {
      const choose = await callRoute(globalLicense, "/global-license");
      expect(choose.body.categories).toEqual([
        expect.objectContaining({
          name: "Plastic Surgery",
          subcategories: [expect.objectContaining({ slug: "facial-procedures", price: 199, animationCount: 2 })],
        }),
      ]);
      expect(choose.body.categories[0]).not.toHaveProperty("price");

      const licencePage = await callRoute(categoryLicense, "/category-license");
      expect(licencePage.body.specialties).toEqual([
        expect.objectContaining({
          name: "Plastic Surgery",
          subcategories: [expect.objectContaining({ name: "Facial Procedures", price: 199, animationCount: 2 })],
        }),
      ]);
      const html = await pageHtml("/category-license");
      expect(html).not.toMatch(/Plastic Surgery<\/span><span[^>]*>\d+ animations/);
      expect((await callRoute(categoryLicense, "/category-license?category=plastic-surgery")).body).toMatchObject({
        category: null,
        title: "Category License – Annual Plan",
      });

      expect((await callRoute(categoryApi, "/api/categories/plastic-surgery", { params: { slugOrId: "plastic-surgery" } })).body).toMatchObject({
        yearlyPrice: null,
      });
      expect((await callRoute(categoryPage, "/category/plastic-surgery", { params: { slug: "plastic-surgery" } })).body.category).toMatchObject({
        yearlyPrice: null,
      });

      const b = await buyer();
      const message = "Plastic Surgery is not sold as a whole: choose one of its specialties.";
      expect(await callRoute(subCategory, "/api/subscriptions/category", { json: { categoryId: "plastic-surgery" }, token: b.token })).toMatchObject({
        status: 404,
        body: { message },
      });
      expect(await callRoute(purchase, "/purchase/category/plastic-surgery", { params: { slugOrId: "plastic-surgery" }, cookie: b.cookie })).toMatchObject({
        status: 404,
        body: { message },
      });
      expect(
        await callRoute(purchase, "/purchase/category/plastic-surgery", {
          params: { slugOrId: "plastic-surgery" },
          form: { intent: "checkout" },
          cookie: b.cookie,
        }),
      ).toMatchObject({
        status: 404,
        body: { formError: message },
      });
      expect(await prisma.checkoutSession.count({ where: { userId: b.id } })).toBe(0);

      // A sub-category without a price of its own is sold at the default $299, and shown so.
      const plain = await prisma.category.create({ data: { name: "Ear Surgery", slug: "ear-surgery", parentId: plastic.id } });
      expect((await callRoute(categoryApi, "/api/categories/ear-surgery", { params: { slugOrId: "ear-surgery" } })).body).toMatchObject({ yearlyPrice: 299 });
      expect((await callRoute(subCategory, "/api/subscriptions/category", { json: { categoryId: "ear-surgery" }, token: b.token })).status).toBe(200);
      expect(Number((await prisma.checkoutSession.findFirstOrThrow({ where: { userId: b.id, categoryId: plain.id } })).amount)).toBe(299);
      await prisma.checkoutSession.deleteMany({ where: { categoryId: plain.id } });
      await prisma.category.delete({ where: { id: plain.id } });
    } finally {
      await prisma.category.update({ where: { id: plastic.id }, data: { yearlyPrice: null } });
    }
  });
});

describe("the admin animation form warns about a price that is not below its category licence", () => {
  async function admin() {
    const user = await createUser({ role: "admin" });
    return sessionCookieFor(user.id);
  }
  const WARNING = "The individual price ($249.00) is not below the Facial Procedures category license ($199.00/year)";

  it("shows the warning on the edit screen and in the save toast, and still saves (no JavaScript needed)", async () => {
    const cookie = await admin();
    const edit = (id: string) => callRoute(animationForm, `/admin/animations/${id}`, { params: { id }, cookie });
    expect((await edit(facelift.id)).body.priceWarning).toContain(WARNING);
    expect((await edit(rhinoplasty.id)).body.priceWarning).toBeNull();

    const current = await prisma.animation.findUniqueOrThrow({ where: { id: rhinoplasty.id } });
    const fields = {
      title: current.title,
      description: current.description,
      coverImage: current.coverImage!,
      fullVideo: current.fullVideo!,
      downloadFile: current.downloadFile!,
      duration: String(current.duration),
      categoryId: facial.id,
    };
    const save = (individualPrice: string) => {
      const body = new FormData();
      for (const [key, value] of Object.entries({ ...fields, individualPrice })) body.append(key, value);
      return callRoute(animationForm, `/admin/animations/${rhinoplasty.id}`, { method: "POST", params: { id: rhinoplasty.id }, body, cookie });
    };

    // Equal to the category licence: saved, with the warning where the admin lands.
    const equal = await save("199");
    expect(equal).toMatchObject({ status: 302, location: "/admin/animations" });
    expect(Number((await prisma.animation.findUniqueOrThrow({ where: { id: rhinoplasty.id } })).individualPrice)).toBe(199);
    const landed = await pageHtml("/admin/animations", cookiesFrom(equal, cookie));
    expect(landed).toContain("is not below the Facial Procedures category license ($199.00/year)");
    expect((await edit(rhinoplasty.id)).body.priceWarning).toContain("($199.00) is not below");

    // Below it: no warning.
    const below = await save("149");
    const quiet = await pageHtml("/admin/animations", cookiesFrom(below, cookie));
    expect(quiet).toContain("was saved.");
    expect(quiet).not.toContain("is not below");
    expect((await edit(rhinoplasty.id)).body.priceWarning).toBeNull();
  });
});
