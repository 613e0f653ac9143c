import { describe, expect, it } from "vitest";
import { prisma } from "~/lib/db.server.ts";
import * as pagesScreen from "~/routes/admin/pages.tsx";
import * as pageForm from "~/routes/admin/page-form.tsx";
import * as faqForm from "~/routes/admin/faq-form.tsx";
import * as faqsScreen from "~/routes/admin/faqs.tsx";
import * as pagesApi from "~/routes/api/pages.ts";
import * as pageApi from "~/routes/api/pages.id.ts";
import * as pageBySlug from "~/routes/api/pages.slug.ts";
import * as faqsApi from "~/routes/api/admin/faqs.ts";
import * as faqApi from "~/routes/api/admin/faqs.id.ts";
import * as publicFaqs from "~/routes/api/faqs.ts";
import * as help from "~/routes/public/help.tsx";
import * as contentPage from "~/routes/public/content-page.tsx";
import { pageSlugFromTitle } from "~/validation/admin-content.ts";
import { accessTokenFor, createUser, sessionCookieFor } from "../helpers/factories.ts";
import { callRoute } from "../helpers/route.ts";

// Pages and FAQs in the back office: the product's messages on bad input, drafts for admins only,
// sanitised output, inactive FAQs hidden from the public, the public reads reflecting a write at
// once, and an audit row for each write.

async function admin() {
  const user = await createUser({ role: "admin" });
  return { user, token: await accessTokenFor(user.id), cookie: await sessionCookieFor(user.id) };
}

const unique = () => Math.random().toString(36).slice(2, 8);

describe("pages", () => {
  it("makes the slug by the page slug rule", () => {
    expect(pageSlugFromTitle("  Terms & Conditions -- 2026!  ")).toBe("terms-conditions-2026");
    expect(pageSlugFromTitle("Über uns")).toBe("uber-uns");
    expect(pageSlugFromTitle("snake_case  title")).toBe("snake-case-title");
  });

  it("POST /api/pages: the product's messages, reserved and taken slugs, 201; GET lists drafts for admins", async () => {
    const { token } = await admin();
    const bad = await callRoute(pagesApi, "/api/pages", { json: { title: "", slug: "", content: "" }, token });
    expect(bad.status).toBe(400);
    expect(bad.body.errors).toMatchObject({ title: ["Title is required"], slug: ["Slug is required"], content: ["Content is required"] });
    expect((await callRoute(pagesApi, "/api/pages", { json: { title: "Admin", slug: "admin", content: "x" }, token })).status).toBe(400);
    expect((await callRoute(pagesApi, "/api/pages", { json: { title: "T", slug: "t", content: "x", type: "blog" }, token })).status).toBe(400);

    const slug = `draft-${unique()}`;
    const created = await callRoute(pagesApi, "/api/pages", {
      json: { title: "Draft page", slug, content: "<p>Hi</p><script>alert(1)</script>", isPublished: false, type: "company" },
      token,
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ slug, isPublished: false, type: "company" });
    expect((await callRoute(pagesApi, "/api/pages", { json: { title: "Again", slug, content: "x" }, token })).status).toBe(409);
    const list = await callRoute(pagesApi, `/api/pages?search=${slug}`, { token });
    expect(list.body.map((p: { slug: string }) => p.slug)).toEqual([slug]);

    // A draft: 404 for the public, shown to admins with the script removed.
    expect((await callRoute(pageBySlug, `/api/pages/slug/${slug}`, { params: { slug } })).status).toBe(404);
    const visitor = await callRoute(contentPage, `/pages/${slug}`, { params: { slug } });
    expect(visitor.status).toBe(404);
    const adminView = await callRoute(contentPage, `/pages/${slug}`, { params: { slug }, cookie: (await admin()).cookie });
    expect(adminView.body.page.isPublished).toBe(false);
    expect(adminView.body.page.html).not.toContain("<script");

    // Publishing through PUT: public at once.
    const published = await callRoute(pageApi, "/", {
      method: "PUT",
      json: { ...created.body, metaDescription: "About it", isPublished: true },
      params: { id: created.body.id },
      token,
    });
    expect(published.status).toBe(200);
    const pub = await callRoute(pageBySlug, `/api/pages/slug/${slug}?t=1`, { params: { slug } });
    expect(pub.body).toMatchObject({ title: "Draft page", metaDescription: "About it" });
    expect(pub.body.content).not.toContain("<script");

    expect((await callRoute(pageApi, "/", { method: "DELETE", params: { id: created.body.id }, token })).body).toEqual({ message: "Page deleted" });
    expect((await callRoute(pageApi, "/", { method: "DELETE", params: { id: created.body.id }, token })).status).toBe(404);
    const audit = await prisma.auditLog.findMany({ where: { entityId: created.body.id }, orderBy: { createdAt: "asc" } });
    expect(audit.map((row) => row.action)).toEqual(["page.create", "page.update", "page.delete"]);
    expect(audit[1]!.summary).toMatch(/^Published page/);
  });

  it("the form without JavaScript: a blank slug is made from the title on create; the list's stats and confirm step", async () => {
    const { cookie } = await admin();
    const title = `Cookie Policy ${unique()}`;
    const created = await callRoute(pageForm, "/admin/pages/new", {
      form: { title, slug: "", content: "<p>We use cookies.</p>", type: "legal", isPublished: "on" },
      cookie,
    });
    expect(created.status).toBe(302);
    const page = await prisma.page.findFirstOrThrow({ where: { title } });
    expect(page.slug).toBe(pageSlugFromTitle(title));
    const blank = await callRoute(pageForm, "/admin/pages/new", { form: { title: "", slug: "", content: "" }, cookie });
    expect(blank.status).toBe(400);
    expect(JSON.stringify(blank.body)).toContain("Title is required");

    const list = await callRoute(pagesScreen, `/admin/pages?type=legal&search=${page.slug}&confirm=${page.id}`, { cookie });
    expect(list.body.pages.map((p: { id: string }) => p.id)).toEqual([page.id]);
    expect(list.body.stats.legal).toBeGreaterThanOrEqual(1);
    expect(list.body.stats.total).toBe(await prisma.page.count());
    expect(list.body.confirm).toEqual({ id: page.id, title });
    const deleted = await callRoute(pagesScreen, `/admin/pages?type=legal&confirm=${page.id}`, { form: { intent: "delete", id: page.id }, cookie });
    expect(deleted.location).toBe("/admin/pages?type=legal");
    expect(await prisma.page.count({ where: { id: page.id } })).toBe(0);
  });
});

describe("FAQs", () => {
  it("POST/PUT/DELETE /api/admin/faqs: messages, unknown category, inactive hidden from the public, audited", async () => {
    const { token } = await admin();
    const bad = await callRoute(faqsApi, "/api/admin/faqs", { json: { question: "", answer: "" }, token });
    expect(bad.status).toBe(400);
    expect(bad.body.errors).toMatchObject({ question: ["Question is required"], answer: ["Answer is required"] });
    const ghost = await callRoute(faqsApi, "/api/admin/faqs", {
      json: { question: "Q?", answer: "A", categoryId: "00000000-0000-4000-8000-000000000000" },
      token,
    });
    expect(ghost.status).toBe(400);
    expect(ghost.body.errors).toEqual({ categoryId: ["Choose an existing FAQ category"] });

    const question = `How do licences work ${unique()}?`;
    const created = await callRoute(faqsApi, "/api/admin/faqs", { json: { question, answer: "<p>Yearly.</p>", categoryId: null, isActive: true }, token });
    expect(created.status).toBe(201);
    const search = (await callRoute(publicFaqs, `/api/faqs?search=${encodeURIComponent(question)}`)).body;
    expect(search.map((f: { question: string }) => f.question)).toEqual([question]);

    const hidden = await callRoute(faqApi, "/", {
      method: "PUT",
      json: { question, answer: "<p>Yearly.</p>", isActive: false },
      params: { id: created.body.id },
      token,
    });
    expect(hidden.body.isActive).toBe(false);
    expect((await callRoute(publicFaqs, `/api/faqs?search=${encodeURIComponent(question)}`)).body).toEqual([]);
    // The Help Center: admins see it (with its controls), visitors do not.
    const visitor = await callRoute(help, `/help?q=${encodeURIComponent(question)}`);
    expect(visitor.body.groups).toEqual([]);
    const adminHelp = await callRoute(help, `/help?q=${encodeURIComponent(question)}&confirm=${created.body.id}`, { cookie: (await admin()).cookie });
    expect(adminHelp.body.isAdmin).toBe(true);
    expect(adminHelp.body.groups[0].faqs[0]).toMatchObject({ question, isActive: false });
    expect(adminHelp.body.confirm).toEqual({ id: created.body.id, question });

    expect((await callRoute(faqApi, "/", { method: "DELETE", params: { id: created.body.id }, token })).body).toEqual({ message: "FAQ deleted" });
    expect((await callRoute(faqApi, "/", { method: "PUT", json: { question: "x", answer: "y" }, params: { id: created.body.id }, token })).status).toBe(404);
    const audit = await prisma.auditLog.findMany({ where: { entityId: created.body.id }, orderBy: { createdAt: "asc" } });
    expect(audit.map((row) => row.action)).toEqual(["faq.create", "faq.update", "faq.delete"]);
  });

  it("the forms without JavaScript: the error toast on a refused write; delete from the Help Center's confirm step", async () => {
    const { cookie } = await admin();
    const refused = await callRoute(faqForm, "/admin/faqs/new", { form: { question: "", answer: "" }, cookie });
    expect(refused.status).toBe(400);
    expect(refused.body.toast).toEqual({ title: "Error creating FAQ", description: "Question is required", type: "error" });
    const question = `Can I download ${unique()}?`;
    const ok = await callRoute(faqForm, "/admin/faqs/new", { form: { question, answer: "With a licence.", isActive: "on" }, cookie });
    expect(ok.status).toBe(302);
    expect(ok.location).toBe("/help");
    const faq = await prisma.faq.findFirstOrThrow({ where: { question } });
    const gone = await callRoute(faqsScreen, "/admin/faqs", { form: { intent: "delete", id: faq.id }, cookie });
    expect(gone.location).toBe("/help");
    expect(await prisma.faq.count({ where: { id: faq.id } })).toBe(0);
    const missing = await callRoute(faqsScreen, "/admin/faqs", { form: { intent: "delete", id: faq.id }, cookie });
    expect(missing.status).toBe(302);
    expect(missing.headers.get("Set-Cookie")).toContain("medanim_toast");
  });
});
