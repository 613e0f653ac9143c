import { beforeAll, describe, expect, it } from "vitest";
import { prisma } from "~/lib/db.server.ts";
import * as categoryLicense from "~/routes/public/category-license.tsx";
import * as contentPage from "~/routes/public/content-page.tsx";
import * as globalLicense from "~/routes/public/global-license.tsx";
import * as help from "~/routes/public/help.tsx";
import * as individualLicense from "~/routes/public/individual-license.tsx";
import * as premium from "~/routes/public/premium.tsx";
import { createUser, sessionCookieFor } from "../helpers/factories.ts";
import { callRoute } from "../helpers/route.ts";

let adminCookie: string;
let memberCookie: string;
let premiumCookie: string;
let subscriberCookie: string;
let animationId: string;
const faqIds: Record<string, string> = {};

beforeAll(async () => {
  const [admin, member, premiumUser, subscriber] = await Promise.all([
    createUser({ role: "admin" }),
    createUser(),
    createUser({ accountType: "premium" }),
    createUser(),
  ]);
  adminCookie = await sessionCookieFor(admin.id);
  memberCookie = await sessionCookieFor(member.id);
  premiumCookie = await sessionCookieFor(premiumUser.id);
  subscriberCookie = await sessionCookieFor(subscriber.id);
  await prisma.subscription.create({
    data: { userId: subscriber.id, type: "global", status: "active", startDate: new Date(), endDate: new Date(Date.now() + 86_400_000), price: 99 },
  });

  await prisma.page.createMany({
    data: [
      { slug: "terms-of-service", title: "Terms of Service", content: "Line one\nLine two<script>x()</script>", type: "legal", metaDescription: "The terms" },
      { slug: "about", title: "About Us", content: "<h2>Who we are</h2>\n<p>Doctors and animators.</p>", type: "company" },
      { slug: "draft-page", title: "Draft", content: "Not yet", isPublished: false },
    ],
  });
  await prisma.page.update({ where: { slug: "terms-of-service" }, data: { updatedAt: new Date("2026-11-21T23:30:00Z") } });

  const surgery = await prisma.category.create({ data: { name: "Plastic Surgery", slug: "plastic-surgery", sortOrder: 1 } });
  await prisma.category.create({ data: { name: "Rhinoplasty", slug: "rhinoplasty", parentId: surgery.id, yearlyPrice: 199 } });
  const face = await prisma.category.create({ data: { name: "Facelift", slug: "facelift", parentId: surgery.id } });
  await prisma.category.create({ data: { name: "Hidden", slug: "hidden", parentId: surgery.id, yearlyPrice: 5, isActive: false } });
  const animation = await prisma.animation.create({
    data: { title: "Deep Plane Facelift", slug: "deep-plane-facelift", description: "d", categoryId: face.id },
  });
  animationId = animation.id;

  const billing = await prisma.faqCategory.create({ data: { name: "Billing", slug: "billing" } });
  faqIds.refund = (await prisma.faq.create({ data: { question: "How do refunds work?", answer: "Within 30 days.\nAsk support.", categoryId: billing.id } })).id;
  faqIds.general = (await prisma.faq.create({ data: { question: "What is Medanim?", answer: "<p onclick='x()'>A library.</p>" } })).id;
  faqIds.inactive = (await prisma.faq.create({ data: { question: "Inactive", answer: "x", isActive: false } })).id;
});

describe("content pages (/{slug}, /about, /pages/{slug})", () => {
  it("renders title, sanitised content with line breaks, meta description and the long US date", async () => {
    const res = await callRoute(contentPage, "/terms-of-service", { params: { slug: "terms-of-service" } });
    expect(res.status).toBe(200);
    expect(res.body.page).toEqual({
      title: "Terms of Service",
      html: "Line one<br />\nLine two",
      metaDescription: "The terms",
      isPublished: true,
      updatedAt: "November 21, 2026",
      path: "/terms-of-service",
    });
    const meta = contentPage.meta({ data: res.body, matches: [{ id: "root", data: { platformName: "Medanim", origin: "https://medanim.example" } }] } as never);
    expect(meta).toEqual(
      expect.arrayContaining([
        { title: "Terms of Service | Medanim" },
        { name: "description", content: "The terms" },
        { tagName: "link", rel: "canonical", href: "https://medanim.example/terms-of-service" },
      ]),
    );
  });

  it("serves /about from the about page record", async () => {
    const res = await callRoute(contentPage, "/about");
    expect(res.body.page.title).toBe("About Us");
    expect(res.body.page.html).toBe("<h2>Who we are</h2>\n<p>Doctors and animators.</p>");
  });

  it.each([["no-such-page"], ["has space"], ["<script>"]])("answers 404 for %s", async (slug) => {
    const res = await callRoute(contentPage, `/${encodeURIComponent(slug)}`, { params: { slug } });
    expect(res.status).toBe(404);
  });

  it("shows drafts to admins only", async () => {
    expect((await callRoute(contentPage, "/pages/draft-page", { params: { slug: "draft-page" } })).status).toBe(404);
    expect((await callRoute(contentPage, "/pages/draft-page", { params: { slug: "draft-page" }, cookie: memberCookie })).status).toBe(404);
    const admin = await callRoute(contentPage, "/pages/draft-page", { params: { slug: "draft-page" }, cookie: adminCookie });
    expect(admin.status).toBe(200);
    expect(admin.body.page.isPublished).toBe(false);
  });
});

describe("/premium", () => {
  it("prices the plan from the setting: $9/month billed at $99/year by default", async () => {
    const res = await callRoute(premium, "/premium");
    expect(res.body).toEqual({
      price: { yearly: 99, monthly: 9 },
      individualPrice: 299,
      individualPriceVaries: false,
      claims: expect.any(Object),
      signedIn: false,
      alreadyPremium: false,
      testMode: true,
      publishableKey: null,
      testimonial: null,
      product: "Premium yearly subscription",
      until: expect.any(String),
      // The renewal the buy button states: a year on, at the price paid now.
      renewal: { on: expect.any(String), price: 99 },
    });
  });

  it("follows global_subscription_yearly_price", async () => {
    await prisma.appSetting.create({ data: { key: "global_subscription_yearly_price", value: "120" } });
    const res = await callRoute(premium, "/premium", { cookie: memberCookie });
    expect(res.body).toEqual({
      price: { yearly: 120, monthly: 10 },
      individualPrice: 299,
      individualPriceVaries: false,
      claims: expect.any(Object),
      signedIn: true,
      alreadyPremium: false,
      testMode: true,
      publishableKey: null,
      testimonial: null,
      product: "Premium yearly subscription",
      until: expect.any(String),
      renewal: { on: expect.any(String), price: 120 },
    });
    await prisma.appSetting.delete({ where: { key: "global_subscription_yearly_price" } });
  });

  it("shows the already-premium view to premium accounts and active global subscribers", async () => {
    expect((await callRoute(premium, "/premium", { cookie: premiumCookie })).body.alreadyPremium).toBe(true);
    expect((await callRoute(premium, "/premium", { cookie: subscriberCookie })).body.alreadyPremium).toBe(true);
  });
});

describe("/individual-license", () => {
  it("finds the animation by id or slug and ignores unknown ones", async () => {
    const byId = await callRoute(individualLicense, `/individual-license?animation=${animationId}`, { cookie: memberCookie });
    expect(byId.body).toMatchObject({ signedIn: true, animation: { id: animationId, title: "Deep Plane Facelift" } });
    expect(byId.body.returnTo).toBe(`/individual-license?animation=${animationId}`);
    const bySlug = await callRoute(individualLicense, "/individual-license?animation=deep-plane-facelift");
    expect(bySlug.body.animation.id).toBe(animationId);
    const unknown = await callRoute(individualLicense, "/individual-license?animation=nope");
    expect(unknown.body.animation).toBeNull();
  });
});

describe("/category-license", () => {
  it("titles and prices the chosen category (yearlyPrice, default 299)", async () => {
    const rhino = await callRoute(categoryLicense, "/category-license?category=rhinoplasty");
    expect(rhino.body).toMatchObject({ title: "Rhinoplasty License – Annual Plan", price: 199, category: { slug: "rhinoplasty" } });
    const face = await prisma.category.findUniqueOrThrow({ where: { slug: "facelift" } });
    const byId = await callRoute(categoryLicense, `/category-license?category=${face.id}`);
    expect(byId.body).toMatchObject({ title: "Facelift License – Annual Plan", price: 299 });
  });

  it("without a category is generic, from the lowest active sub-category price", async () => {
    const res = await callRoute(categoryLicense, "/category-license");
    expect(res.body).toMatchObject({ title: "Category License – Annual Plan", price: 199, priceVaries: true, category: null });
    const unknown = await callRoute(categoryLicense, "/category-license?category=nope");
    expect(unknown.body.title).toBe("Category License – Annual Plan");
  });
});

describe("/global-license", () => {
  it("lists active main categories (headings, not for sale) with their active sub-categories and prices", async () => {
    const res = await callRoute(globalLicense, "/global-license?category=rhinoplasty");
    expect(res.body.selected).toBe("rhinoplasty");
    expect(res.body.categories[0]).not.toHaveProperty("price");
    expect(res.body.categories).toEqual([
      expect.objectContaining({
        name: "Plastic Surgery",
        subcategories: [
          expect.objectContaining({ slug: "facelift", price: 299, animationCount: 1 }),
          expect.objectContaining({ slug: "rhinoplasty", price: 199, animationCount: 0 }),
        ],
      }),
    ]);
  });
});

describe("/help", () => {
  it("groups active FAQs by category name with General for the rest, answers sanitised with line breaks", async () => {
    const res = await callRoute(help, "/help");
    expect(res.body.groups.map((g: { name: string }) => g.name)).toEqual(["General", "Billing"]);
    expect(res.body.groups[0].faqs[0]).toEqual({ id: faqIds.general, question: "What is Medanim?", answer: "<p>A library.</p>", categoryName: "General" });
    expect(res.body.groups[1].faqs[0].answer).toBe("Within 30 days.<br />\nAsk support.");
    expect(res.body.categories).toEqual([expect.objectContaining({ slug: "billing", name: "Billing" })]);
    expect(res.body.openId).toBeNull();
  });

  it("filters by search and category; nothing found gives no groups", async () => {
    expect((await callRoute(help, "/help?q=refund")).body.groups).toEqual([expect.objectContaining({ name: "Billing" })]);
    expect((await callRoute(help, "/help?category=billing")).body.groups.map((g: { name: string }) => g.name)).toEqual(["Billing"]);
    expect((await callRoute(help, "/help?q=zebra")).body.groups).toEqual([]);
  });

  it("opens the FAQ named by ?faq= and counts the view (the no-JavaScript path)", async () => {
    const res = await callRoute(help, `/help?faq=${faqIds.refund}`);
    expect(res.body.openId).toBe(faqIds.refund);
    expect((await prisma.faq.findUniqueOrThrow({ where: { id: faqIds.refund } })).views).toBe(1);
    const inactive = await callRoute(help, `/help?faq=${faqIds.inactive}`);
    expect(inactive.body.openId).toBeNull();
    expect((await prisma.faq.findUniqueOrThrow({ where: { id: faqIds.inactive } })).views).toBe(0);
    expect((await callRoute(help, "/help?faq=garbage")).status).toBe(200);
  });
});
