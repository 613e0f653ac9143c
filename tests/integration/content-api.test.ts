import { beforeAll, describe, expect, it } from "vitest";
import { prisma } from "~/lib/db.server.ts";
import * as faqCategories from "~/routes/api/faq-categories.ts";
import * as faqs from "~/routes/api/faqs.ts";
import * as faqView from "~/routes/api/faqs.view.ts";
import * as pagesSlug from "~/routes/api/pages.slug.ts";
import * as pagesType from "~/routes/api/pages.type.ts";
import * as performance from "~/routes/api/performance.ts";
import * as settings from "~/routes/api/settings.ts";
import { createUser, sessionCookieFor, accessTokenFor } from "../helpers/factories.ts";
import { callRoute } from "../helpers/route.ts";

let adminToken: string;
let memberCookie: string;
const faqIds: Record<string, string> = {};

beforeAll(async () => {
  const admin = await createUser({ role: "admin" });
  const member = await createUser();
  adminToken = await accessTokenFor(admin.id);
  memberCookie = await sessionCookieFor(member.id);

  await prisma.appSetting.createMany({
    data: [
      { key: "platform_name", value: "Medanim Test" },
      { key: "global_subscription_yearly_price", value: "99" },
      { key: "stripe_secret_key", value: "sk_live_do_not_leak" },
    ],
  });
  await prisma.page.createMany({
    data: [
      { slug: "terms-of-service", title: "Terms of Service", content: "Terms\n<script>alert(1)</script>", type: "legal", metaDescription: "Our terms" },
      { slug: "privacy-policy", title: "Privacy Policy", content: "Privacy", type: "legal" },
      { slug: "cookie-policy", title: "Cookie Policy", content: "Draft", type: "legal", isPublished: false },
      { slug: "about", title: "About Us", content: "About", type: "company" },
    ],
  });
  const billing = await prisma.faqCategory.create({ data: { name: "Billing", slug: "billing", sortOrder: 2 } });
  const videos = await prisma.faqCategory.create({ data: { name: "Videos", slug: "videos", sortOrder: 1 } });
  const hidden = await prisma.faqCategory.create({ data: { name: "Old", slug: "old", isActive: false } });
  const make = async (key: string, data: Parameters<typeof prisma.faq.create>[0]["data"]) => {
    faqIds[key] = (await prisma.faq.create({ data })).id;
  };
  await make("refund", {
    question: "How do refunds work?",
    answer: "<p>Within <strong>30 days</strong>.</p><img src=x onerror=alert(1)>",
    categoryId: billing.id,
    sortOrder: 1,
  });
  await make("invoice", { question: "Where is my invoice?", answer: "In Billing.", categoryId: billing.id, sortOrder: 0 });
  await make("formats", { question: "Which formats?", answer: "MP4 and WebM in 4K.", categoryId: videos.id });
  await make("general", { question: "What is Medanim?", answer: "A library of medical animations." });
  await make("inactive", { question: "Secret inactive question", answer: "Hidden", isActive: false });
  await make("oldCategory", { question: "Question in an inactive category", answer: "Hidden too", categoryId: hidden.id });
});

describe("GET /api/settings", () => {
  it("answers the public settings as { key, value } pairs, with defaults filled in, never other rows", async () => {
    const res = await callRoute(settings, "/api/settings");
    expect(res.status).toBe(200);
    expect(res.body).toEqual(
      expect.arrayContaining([
        { key: "platform_name", value: "Medanim Test" },
        { key: "global_subscription_yearly_price", value: "99" },
        { key: "homepage_animations_per_page", value: "6" },
        { key: "support_email", value: expect.any(String) },
      ]),
    );
    expect(JSON.stringify(res.body)).not.toContain("sk_live");
    expect(res.body.every((s: object) => Object.keys(s).sort().join() === "key,value")).toBe(true);
  });

  it("is cached publicly for 5 minutes with an ETag, and answers 304 to a matching If-None-Match", async () => {
    const res = await callRoute(settings, "/api/settings");
    expect(res.headers.get("Cache-Control")).toBe("public, max-age=300");
    const etag = res.headers.get("ETag")!;
    expect(etag).toMatch(/^".+"$/);
    const again = await callRoute(settings, "/api/settings", { headers: { "If-None-Match": etag } });
    expect(again.status).toBe(304);
    expect(again.body).toBeNull();
  });

  it("refuses writes with 405", async () => {
    const res = await callRoute(settings, "/api/settings", { json: { key: "platform_name", value: "x" } });
    expect(res.status).toBe(405);
  });
});

describe("GET /api/pages/type/legal", () => {
  it("lists id, slug and title of published legal pages only", async () => {
    const res = await callRoute(pagesType, "/api/pages/type/legal", { params: { type: "legal" } });
    expect(res.status).toBe(200);
    expect(res.body.map((p: { slug: string }) => p.slug).sort()).toEqual(["privacy-policy", "terms-of-service"]);
    expect(Object.keys(res.body[0]).sort()).toEqual(["id", "slug", "title"]);
    expect(res.headers.get("ETag")).toBeTruthy();
  });

  it("answers 404 for a type that does not exist", async () => {
    const res = await callRoute(pagesType, "/api/pages/type/secret", { params: { type: "secret" } });
    expect(res.status).toBe(404);
    expect(res.body.message).toBe("Page type not found");
  });
});

describe("GET /api/pages/slug/{slug}", () => {
  it("answers the page with sanitised content, never cached", async () => {
    const res = await callRoute(pagesSlug, "/api/pages/slug/terms-of-service?t=123", { params: { slug: "terms-of-service" } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ slug: "terms-of-service", title: "Terms of Service", metaDescription: "Our terms", type: "legal" });
    expect(res.body.content).toBe("Terms\n");
    expect(res.body.updatedAt).toEqual(expect.any(String));
    expect(res.headers.get("Cache-Control")).toBe("no-store");
    const again = await callRoute(pagesSlug, "/api/pages/slug/terms-of-service", {
      params: { slug: "terms-of-service" },
      headers: { "If-None-Match": res.headers.get("ETag")! },
    });
    expect(again.status).toBe(304);
  });

  it.each([["no-such-page"], ["../etc/passwd"], ["x".repeat(300)]])("answers 404 { message: 'Page not found' } for %s", async (slug) => {
    const res = await callRoute(pagesSlug, `/api/pages/slug/${encodeURIComponent(slug)}`, { params: { slug } });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ message: "Page not found" });
  });

  it("hides drafts from visitors and members but shows them to admins", async () => {
    const anonymous = await callRoute(pagesSlug, "/api/pages/slug/cookie-policy", { params: { slug: "cookie-policy" } });
    expect(anonymous.status).toBe(404);
    const member = await callRoute(pagesSlug, "/api/pages/slug/cookie-policy", { params: { slug: "cookie-policy" }, cookie: memberCookie });
    expect(member.status).toBe(404);
    const admin = await callRoute(pagesSlug, "/api/pages/slug/cookie-policy", { params: { slug: "cookie-policy" }, token: adminToken });
    expect(admin.status).toBe(200);
    expect(admin.body).toMatchObject({ slug: "cookie-policy", isPublished: false });
  });
});

describe("GET /api/faq-categories", () => {
  it("lists active categories in their order", async () => {
    const res = await callRoute(faqCategories, "/api/faq-categories");
    expect(res.status).toBe(200);
    expect(res.body.map((c: { slug: string }) => c.slug)).toEqual(["videos", "billing"]);
    expect(res.body[0]).toMatchObject({ id: expect.any(String), name: "Videos", slug: "videos" });
    expect(res.headers.get("Cache-Control")).toMatch(/^public, max-age=\d+$/);
  });
});

describe("GET /api/faqs", () => {
  it("lists active FAQs with categoryName (General when none), grouped in category order", async () => {
    const res = await callRoute(faqs, "/api/faqs");
    expect(res.status).toBe(200);
    expect(res.body.map((f: { question: string }) => f.question)).toEqual([
      "What is Medanim?",
      "Which formats?",
      "Where is my invoice?",
      "How do refunds work?",
    ]);
    expect(res.body[0]).toMatchObject({ id: faqIds.general, categoryId: null, categoryName: "General", views: 0 });
    expect(res.body[3]).toMatchObject({ categoryName: "Billing" });
  });

  it("answers sanitised HTML", async () => {
    const res = await callRoute(faqs, "/api/faqs");
    const refund = res.body.find((f: { id: string }) => f.id === faqIds.refund);
    expect(refund.answer).toBe("<p>Within <strong>30 days</strong>.</p>");
  });

  it("filters by category slug or id", async () => {
    const bySlug = await callRoute(faqs, "/api/faqs?category=billing");
    expect(bySlug.body.map((f: { id: string }) => f.id)).toEqual([faqIds.invoice, faqIds.refund]);
    const billing = await prisma.faqCategory.findUniqueOrThrow({ where: { slug: "billing" } });
    const byId = await callRoute(faqs, `/api/faqs?category=${billing.id}`);
    expect(byId.body).toEqual(bySlug.body);
    const unknown = await callRoute(faqs, "/api/faqs?category=nope");
    expect(unknown.body).toEqual([]);
    const inactive = await callRoute(faqs, "/api/faqs?category=old");
    expect(inactive.body).toEqual([]);
  });

  it("searches question and answer case-insensitively, combined with the category", async () => {
    const res = await callRoute(faqs, "/api/faqs?search=WEBM");
    expect(res.body.map((f: { id: string }) => f.id)).toEqual([faqIds.formats]);
    const both = await callRoute(faqs, "/api/faqs?search=invoice&category=videos");
    expect(both.body).toEqual([]);
    const none = await callRoute(faqs, "/api/faqs?search=inactive");
    expect(none.body).toEqual([]);
  });

  it("is publicly cacheable with an ETag and 304", async () => {
    const res = await callRoute(faqs, "/api/faqs?category=billing");
    expect(res.headers.get("Cache-Control")).toMatch(/^public, max-age=\d+$/);
    const again = await callRoute(faqs, "/api/faqs?category=billing", { headers: { "If-None-Match": res.headers.get("ETag")! } });
    expect(again.status).toBe(304);
  });
});

describe("POST /api/faqs/{id}/view", () => {
  it("counts a view of an active FAQ", async () => {
    const res = await callRoute(faqView, `/api/faqs/${faqIds.formats}/view`, { method: "POST", params: { id: faqIds.formats! } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ views: 1 });
    await callRoute(faqView, `/api/faqs/${faqIds.formats}/view`, { method: "POST", params: { id: faqIds.formats! } });
    expect((await prisma.faq.findUniqueOrThrow({ where: { id: faqIds.formats } })).views).toBe(2);
  });

  it.each([
    ["an inactive FAQ", () => faqIds.inactive!],
    ["an unknown id", () => "00000000-0000-4000-8000-000000000000"],
    ["something that is not an id", () => "not-a-uuid"],
  ])("answers 404 for %s", async (_label, id) => {
    const res = await callRoute(faqView, `/api/faqs/${id()}/view`, { method: "POST", params: { id: id() } });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ message: "FAQ not found" });
  });

  it("refuses GET with 405", async () => {
    const res = await callRoute(faqView, `/api/faqs/${faqIds.formats}/view`, { params: { id: faqIds.formats! } });
    expect(res.status).toBe(405);
  });
});

describe("POST /api/performance/*", () => {
  const post = (kind: string, json: unknown, headers?: Record<string, string>) =>
    callRoute(performance, `/api/performance/${kind}`, { method: "POST", params: { kind }, json, headers });

  it("stores a slow operation (log)", async () => {
    const res = await post("log", { operation: "GET /api/animations", duration: 1534.2, userAgent: "Test UA", url: "http://localhost/" });
    expect(res.status).toBe(204);
    const row = await prisma.performanceLog.findFirstOrThrow({ where: { kind: "log" } });
    expect(row).toMatchObject({ operation: "GET /api/animations", duration: 1534.2, userAgent: "Test UA", url: "http://localhost/" });
  });

  it("stores a page load with its timings", async () => {
    const res = await post("page-load", {
      pageLoad: 3500,
      domContentLoaded: 2100,
      firstPaint: 900,
      firstContentfulPaint: 950,
      url: "http://localhost/help",
      userAgent: "UA",
    });
    expect(res.status).toBe(204);
    const row = await prisma.performanceLog.findFirstOrThrow({ where: { kind: "page-load" } });
    expect(row).toMatchObject({ operation: "page-load", duration: 3500, url: "http://localhost/help" });
    expect(row.data).toEqual({ pageLoad: 3500, domContentLoaded: 2100, firstPaint: 900, firstContentfulPaint: 950 });
  });

  it("stores a video load, taking the user agent from the header when the body has none", async () => {
    const res = await post("video-load", { videoId: "abc", loadTime: 2400, url: "http://localhost/animations/x" }, { "User-Agent": "HeaderUA" });
    expect(res.status).toBe(204);
    const row = await prisma.performanceLog.findFirstOrThrow({ where: { kind: "video-load" } });
    expect(row).toMatchObject({ operation: "video-load", duration: 2400, userAgent: "HeaderUA" });
    expect(row.data).toEqual({ videoId: "abc", loadTime: 2400 });
  });

  it("answers 204 to garbage but stores nothing", async () => {
    const before = await prisma.performanceLog.count();
    for (const body of [
      {},
      { operation: "x", duration: "slow" },
      { operation: "x", duration: -5 },
      { pageLoad: 1e12 },
      { videoId: 5, loadTime: 10 },
      [1, 2],
      "text",
      null,
    ]) {
      expect((await post("log", body)).status).toBe(204);
      expect((await post("page-load", body)).status).toBe(204);
      expect((await post("video-load", body)).status).toBe(204);
    }
    const notJson = await callRoute(performance, "/api/performance/log", {
      method: "POST",
      params: { kind: "log" },
      body: "{oops",
      headers: { "Content-Type": "application/json" },
    });
    expect(notJson.status).toBe(204);
    expect(await prisma.performanceLog.count()).toBe(before);
  });

  it("caps long strings", async () => {
    await post("log", { operation: "o".repeat(1000), duration: 1200, url: "u".repeat(3000), userAgent: "a".repeat(1000) });
    const row = await prisma.performanceLog.findFirstOrThrow({ where: { operation: { startsWith: "ooo" } } });
    expect(row.operation!.length).toBe(200);
    expect(row.url!.length).toBe(2000);
    expect(row.userAgent!.length).toBe(500);
  });

  it("accepts text/plain bodies (navigator.sendBeacon)", async () => {
    const res = await callRoute(performance, "/api/performance/log", {
      method: "POST",
      params: { kind: "log" },
      body: JSON.stringify({ operation: "beacon-op", duration: 1001 }),
      headers: { "Content-Type": "text/plain;charset=UTF-8" },
    });
    expect(res.status).toBe(204);
    expect(await prisma.performanceLog.count({ where: { operation: "beacon-op" } })).toBe(1);
  });

  it("answers 404 for an unknown report kind", async () => {
    const res = await post("memory", { operation: "x", duration: 1 });
    expect(res.status).toBe(404);
  });
});
