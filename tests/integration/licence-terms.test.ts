import { createElement, type ComponentType } from "react";
import { renderToString } from "react-dom/server";
import { createMemoryRouter, RouterProvider } from "react-router";
import { beforeAll, describe, expect, it } from "vitest";
import { prisma } from "~/lib/db.server.ts";
import * as purchase from "~/routes/account/purchase.tsx";
import * as checkoutTest from "~/routes/checkout/test.tsx";
import * as premium from "~/routes/public/premium.tsx";
import * as contentPage from "~/routes/public/content-page.tsx";
import * as individualPage from "~/routes/public/individual-license.tsx";
import * as categoryPage from "~/routes/public/category-license.tsx";
import * as help from "~/routes/public/help.tsx";
import { PAGES } from "../../prisma/seed-data/pages.ts";
import { FAQ_CATEGORIES } from "../../prisma/seed-data/faqs.ts";
import { createCatalogue } from "../helpers/catalogue.ts";
import { createUser, sessionCookieFor } from "../helpers/factories.ts";
import { sendToApp } from "../helpers/app.ts";
import { pdfText } from "../helpers/pdf-text.ts";
import { callRoute } from "../helpers/route.ts";

// One set of licence terms (decision 028): a version published after version 1 is what the FAQs,
// the Terms page, checkout, the receipt and the certificate show; a purchase keeps the version it
// accepted. (Every download package's license.txt is checked in seed.test.ts.)

const VERSION_2 = {
  version: 2,
  effectiveFrom: new Date(Date.now() - 60_000),
  grant: "Version two grant: download, embed and show the licensed animations.",
  afterEnd: "Version two rule: published materials stay up, nothing new is published, embeds stop, renew to keep embedding and downloading.",
  restrictions: "Version two restrictions: no resale.",
};

beforeAll(async () => {
  // Rhinoplasty (an animation on sale) and the rest of the small catalogue the purchases use.
  await createCatalogue();
  const terms = PAGES.find((page) => page.slug === "terms-of-service")!;
  const { showInFooter: _, ...page } = terms;
  await prisma.page.create({ data: page });
  const licensing = FAQ_CATEGORIES.find((category) => category.slug === "licensing")!;
  const faq = licensing.faqs.find((f) => f.question === "What happens to my downloads when a license ends?")!;
  await prisma.faq.create({ data: { question: faq.question, answer: faq.answer, sortOrder: 1 } });
});

async function buyer() {
  const user = await createUser({ firstName: "Clara", lastName: "Barton" });
  return { user, cookie: await sessionCookieFor(user.id) };
}

/** Through the pages a buyer without JavaScript uses: the pay button, then the test-mode Pay. */
async function buyIndividual(cookie: string) {
  const started = await callRoute(purchase, "/purchase/individual/rhinoplasty", { params: { idOrSlug: "rhinoplasty" }, form: { intent: "checkout" }, cookie });
  if (!started.location) throw new Error(JSON.stringify([started.status, started.body]));
  const checkoutId = /\/checkout\/test\/([0-9a-f-]{36})$/.exec(started.location ?? "")![1]!;
  const paid = await callRoute(checkoutTest, `/checkout/test/${checkoutId}`, { form: { intent: "pay" }, params: { checkoutId }, cookie });
  expect(paid.status).toBe(303);
  return prisma.checkoutSession.findUniqueOrThrow({ where: { id: checkoutId }, select: { subscriptionId: true } });
}

function render(mod: { default: unknown }, path: string, loaderData: unknown) {
  const router = createMemoryRouter([{ path, Component: () => createElement(mod.default as ComponentType<{ loaderData: unknown }>, { loaderData }) }], {
    initialEntries: [path],
  });
  return renderToString(createElement(RouterProvider, { router }));
}

describe("version 1, as the migration wrote it", () => {
  it("says what happens to downloads, embeds and commercial use when a licence ends", async () => {
    const v1 = await prisma.licenceTerms.findUniqueOrThrow({ where: { version: 1 } });
    expect(v1.afterEnd).toMatch(/files you downloaded and materials you published while it was active may stay in use/);
    expect(v1.afterEnd).toMatch(/embeds stop playing/);
    expect(v1.afterEnd).toMatch(/Renew the license to keep embedding and downloading/);
  });
});

describe("a newer version is shown everywhere at once", () => {
  let bought: { subscriptionId: string | null };
  let cookie: string;

  beforeAll(async () => {
    const member = await buyer();
    cookie = member.cookie;
    // Bought under version 1; version 2 comes into effect afterwards.
    bought = await buyIndividual(cookie);
    await prisma.licenceTerms.create({ data: VERSION_2 });
  });

  it("the licence FAQs answer what happens at the end with the current version", async () => {
    const individual = await callRoute(individualPage, "/individual-license");
    expect(individual.body.licenceTerms).toEqual({ version: 2, grant: VERSION_2.grant, afterEnd: VERSION_2.afterEnd, restrictions: VERSION_2.restrictions });
    const html = render(individualPage, "/individual-license", individual.body);
    expect(html).toContain(VERSION_2.afterEnd);
    expect(html).toContain("License terms, version <!-- -->2");
    expect(html).not.toMatch(/stays yours permanently, even if you do not renew/);
    const category = await callRoute(categoryPage, "/category-license");
    expect(render(categoryPage, "/category-license", category.body)).toContain(VERSION_2.afterEnd);
  });

  it("the individual licence page lists what the licence covers in the record's words and its yearly term, not category prices", async () => {
    const html = async (path: string) => {
      const res = await sendToApp(path, {});
      expect(res.status, path).toBe(200);
      return res.body.toString("utf8").replaceAll("<!-- -->", "");
    };
    const coverageOf = (page: string) => /<section aria-labelledby="coverage-title"[\s\S]*?<\/section>/.exec(page)?.[0] ?? "";
    const page = await html("/individual-license");
    const coverage = coverageOf(page);
    expect(coverage).toContain("What an Individual License Covers");
    for (const text of [VERSION_2.grant, VERSION_2.afterEnd, VERSION_2.restrictions]) expect(coverage).toContain(text);
    expect(coverage).toMatch(
      /<dt[^>]*>How long it runs<\/dt><dd[^>]*><p>One year of access, until [A-Z][a-z]+ \d{1,2}, \d{4}<\/p><p[^>]*>Renews automatically on /,
    );
    expect(coverage).toMatch(/<a href="\/terms-of-service"[^>]*>License terms, version 2<\/a>/);
    // No animation named yet: the way to one, and the renewal at the price its animation has.
    expect(coverage).toContain('href="/search"');
    expect(coverage).toMatch(/at (the same price \(from )?\$\d+\/year\)? until you turn it off/);
    // What the category licences cost is the category licence page's business.
    expect(page).not.toContain("Available Specialties");
    expect(page).not.toContain("Facial Procedures");

    // One animation named: its own price renews, and no way elsewhere.
    const one = coverageOf(await html("/individual-license?animation=rhinoplasty"));
    expect(one).toContain(VERSION_2.grant);
    expect(one).toMatch(/Renews automatically on [^<]+ at \$149\/year until you turn it off/);
    expect(one).not.toContain('href="/search"');
  });

  it("the Terms page's licence section and the Help Center answer render the record, not their own words", async () => {
    const page = await callRoute(contentPage, "/terms-of-service", { params: { slug: "terms-of-service" } });
    expect(page.status).toBe(200);
    expect(page.body.page.html).toContain("License terms, version 2");
    for (const text of [VERSION_2.grant, VERSION_2.afterEnd, VERSION_2.restrictions]) expect(page.body.page.html).toContain(text);
    expect(page.body.page.html).not.toContain("{{licence-terms");
    expect(page.body.page.html).not.toContain("remain yours to use in the same way");

    const faqs = await callRoute(help, "/help");
    const answer = JSON.stringify(faqs.body);
    expect(answer).toContain(VERSION_2.afterEnd);
    expect(answer).not.toContain("stay yours permanently");
  });

  it("checkout names the version the buyer accepts by paying, and the payment keeps it", async () => {
    const { cookie: own } = await buyer();
    const page = await callRoute(purchase, "/purchase/individual/rhinoplasty", { params: { idOrSlug: "rhinoplasty" }, cookie: own });
    expect(page.body.termsVersion).toBe(2);
    const html = render(purchase, "/purchase/individual/rhinoplasty", page.body);
    expect(html.replace(/<!-- -->/g, "")).toMatch(/By paying you accept the <a[^>]*href="\/terms-of-service"[^>]*>license terms \(version 2\)<\/a>\./);

    const { subscriptionId } = await buyIndividual(own);
    const payment = await prisma.payment.findFirstOrThrow({ where: { subscriptionId }, select: { id: true, licenceTermsVersion: true } });
    expect(payment.licenceTermsVersion).toBe(2);
    const receipt = await sendToApp(`/billing/receipts/${payment.id}/pdf`, { headers: new Headers({ Cookie: own }) });
    expect(receipt.status).toBe(200);
    expect(pdfText(receipt.body, "")).toContain("License terms, version 2");
  });

  it("the licence bought under version 1 keeps version 1 on its certificate and receipt", async () => {
    const certificate = await sendToApp(`/licences/${bought.subscriptionId}/certificate`, { headers: new Headers({ Cookie: cookie }) });
    expect(certificate.status).toBe(200);
    const text = pdfText(certificate.body, "");
    expect(text).toContain("License terms, version 1");
    expect(text).not.toContain("License terms, version 2");
    const payment = await prisma.payment.findFirstOrThrow({ where: { subscriptionId: bought.subscriptionId } });
    const receipt = await sendToApp(`/billing/receipts/${payment.id}/pdf`, { headers: new Headers({ Cookie: cookie }) });
    expect(pdfText(receipt.body, "")).toContain("License terms, version 1");
  });

  it("premium is not a licence: its checkout and payment accept no licence terms", async () => {
    const { cookie: own } = await buyer();
    const started = await callRoute(premium, "/premium", { form: { intent: "checkout" }, cookie: own });
    const checkoutId = /\/checkout\/test\/([0-9a-f-]{36})$/.exec(started.location ?? "")![1]!;
    await callRoute(checkoutTest, `/checkout/test/${checkoutId}`, { form: { intent: "pay" }, params: { checkoutId }, cookie: own });
    const { subscriptionId } = await prisma.checkoutSession.findUniqueOrThrow({ where: { id: checkoutId } });
    const payment = await prisma.payment.findFirstOrThrow({ where: { subscriptionId } });
    expect(payment.licenceTermsVersion).toBeNull();
  });
});
