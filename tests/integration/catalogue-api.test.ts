import { beforeAll, describe, expect, it } from "vitest";
import { prisma } from "~/lib/db.server.ts";
import * as animationDetail from "~/routes/api/animations.slug.ts";
import * as animations from "~/routes/api/animations.ts";
import * as categoriesMain from "~/routes/api/categories.main.ts";
import * as categoriesPath from "~/routes/api/categories.path.ts";
import * as categorySlug from "~/routes/api/categories.slug.ts";
import * as categories from "~/routes/api/categories.ts";
import * as doctorSlug from "~/routes/api/doctors.slug.ts";
import * as doctors from "~/routes/api/doctors.ts";
import * as reportMisuse from "~/routes/api/report-misuse.ts";
import { accessTokenFor, createUser, sessionCookieFor } from "../helpers/factories.ts";
import { createCatalogue, grant } from "../helpers/catalogue.ts";
import { callRoute } from "../helpers/route.ts";

let c: Awaited<ReturnType<typeof createCatalogue>>;

beforeAll(async () => {
  c = await createCatalogue();
});

const titles = (body: { animations: Array<{ title: string }> }) => body.animations.map((a) => a.title);

describe("GET /api/animations", () => {
  it("lists active animations newest first with hasMore and total", async () => {
    const res = await callRoute(animations, "/api/animations");
    expect(res.status).toBe(200);
    expect(titles(res.body)).toEqual(["Heart Bypass", "Tummy Tuck", "Facelift", "Rhinoplasty"]);
    expect(res.body).toMatchObject({ hasMore: false, total: 4 });
  });

  it("takes its default page size from homepage_animations_per_page", async () => {
    await prisma.appSetting.create({ data: { key: "homepage_animations_per_page", value: "2" } });
    try {
      const res = await callRoute(animations, "/api/animations?light=true");
      expect(res.body.animations).toHaveLength(2);
      expect(res.body).toMatchObject({ hasMore: true, total: 4 });
    } finally {
      await prisma.appSetting.delete({ where: { key: "homepage_animations_per_page" } });
    }
  });

  it("pages from 1 with limit", async () => {
    const first = await callRoute(animations, "/api/animations?page=1&limit=3");
    expect(titles(first.body)).toEqual(["Heart Bypass", "Tummy Tuck", "Facelift"]);
    expect(first.body).toMatchObject({ hasMore: true, total: 4 });
    const second = await callRoute(animations, "/api/animations?page=2&limit=3");
    expect(titles(second.body)).toEqual(["Rhinoplasty"]);
    expect(second.body.hasMore).toBe(false);
    const past = await callRoute(animations, "/api/animations?page=9&limit=3");
    expect(past.body).toMatchObject({ animations: [], hasMore: false, total: 4 });
  });

  it("filters by category slug or id; a main category includes its subcategories", async () => {
    const main = await callRoute(animations, "/api/animations?category=plastic-surgery");
    expect(titles(main.body)).toEqual(["Tummy Tuck", "Facelift", "Rhinoplasty"]);
    const sub = await callRoute(animations, `/api/animations?category=${c.facial.id}`);
    expect(titles(sub.body)).toEqual(["Facelift", "Rhinoplasty"]);
    expect(sub.body.total).toBe(2);
  });

  it("searches titles and descriptions, case-insensitively", async () => {
    expect(titles((await callRoute(animations, "/api/animations?search=RHINO")).body)).toEqual(["Rhinoplasty"]);
    expect(titles((await callRoute(animations, "/api/animations?search=coronary")).body)).toEqual(["Heart Bypass"]);
    expect((await callRoute(animations, "/api/animations?search=zzz")).body).toMatchObject({ animations: [], total: 0 });
  });

  it("treats % and _ in a search term literally, and combines search with category and paging", async () => {
    expect((await callRoute(animations, "/api/animations?search=%25")).body).toMatchObject({ animations: [], total: 0 });
    expect((await callRoute(animations, "/api/animations?search=_")).body).toMatchObject({ animations: [], total: 0 });
    const inCategory = await callRoute(animations, "/api/animations?search=step&category=plastic-surgery");
    expect(titles(inCategory.body)).toEqual(["Tummy Tuck", "Facelift"]);
    const page2 = await callRoute(animations, "/api/animations?search=step&category=plastic-surgery&limit=1&page=2");
    expect(titles(page2.body)).toEqual(["Facelift"]);
    expect(page2.body).toMatchObject({ total: 2, hasMore: false });
    const past = await callRoute(animations, "/api/animations?search=step&limit=1&page=9");
    expect(past.body).toMatchObject({ animations: [], total: 2, hasMore: false });
  });

  it("finds what was just written: the search text follows every insert and edit", async () => {
    const rhino = await prisma.animation.findFirstOrThrow({ where: { title: "Rhinoplasty" } });
    await prisma.animation.update({ where: { id: rhino.id }, data: { description: "Reshapes the NASAL Dorsum." } });
    try {
      expect(titles((await callRoute(animations, "/api/animations?search=nasal dorsum")).body)).toEqual(["Rhinoplasty"]);
      // Bulk inserts go through the same trigger.
      await prisma.animation.createMany({ data: [{ title: "Zygoma Reduction", slug: "zygoma-reduction", description: "Bone contouring." }] });
      expect(titles((await callRoute(animations, "/api/animations?search=ZYGOMA")).body)).toEqual(["Zygoma Reduction"]);
    } finally {
      await prisma.animation.deleteMany({ where: { slug: "zygoma-reduction" } });
      await prisma.animation.update({ where: { id: rhino.id }, data: { description: rhino.description } });
    }
    expect((await callRoute(animations, "/api/animations?search=nasal dorsum")).body).toMatchObject({ animations: [], total: 0 });
  });

  it("light=true answers cards without description or any video link but the preview", async () => {
    const res = await callRoute(animations, "/api/animations?page=1&limit=6&light=true");
    const card = res.body.animations.find((a: { slug: string }) => a.slug === "rhinoplasty");
    expect(Object.keys(card).sort()).toEqual(
      ["categoryId", "categoryName", "coverImage", "duration", "id", "individualPrice", "previewVideo", "slug", "title"].sort(),
    );
    expect(card).toMatchObject({ categoryName: "Facial Procedures", duration: 125, individualPrice: 149, previewVideo: c.rhinoplasty.previewVideo });
    expect(res.headers.get("Cache-Control")).toBe("public, max-age=300");
  });

  it("never gives a visitor a full video or download file, and caches publicly", async () => {
    const res = await callRoute(animations, "/api/animations?limit=100");
    for (const a of res.body.animations) {
      expect(a.fullVideo).toBeNull();
      expect(a.downloadFile).toBeNull();
      expect(a.hasAccess).toBe(false);
    }
    expect(JSON.stringify(res.body)).not.toContain(c.rhinoplasty.fullVideo!);
    expect(res.headers.get("Cache-Control")).toBe("public, max-age=300");
    // Public for anonymous callers, but keyed on the credentials by any shared cache.
    // Accept-Encoding: compression (a kept answer names it first, decision 021).
    expect(res.headers.get("Vary")?.split(", ").sort()).toEqual(["Accept-Encoding", "Authorization", "Cookie"]);
    expect(res.headers.get("ETag")).toMatch(/^".+"$/);
  });

  it("shapes the list for a signed-in caller and marks it private", async () => {
    const user = await createUser();
    await grant(user.id, "individual", { animationId: c.rhinoplasty.id });
    const res = await callRoute(animations, "/api/animations", { cookie: await sessionCookieFor(user.id) });
    const byTitle = Object.fromEntries(res.body.animations.map((a: { title: string }) => [a.title, a]));
    expect(byTitle["Rhinoplasty"]).toMatchObject({
      hasAccess: true,
      canDownload: true,
      fullVideo: c.rhinoplasty.fullVideo,
      downloadFile: c.rhinoplasty.downloadFile,
    });
    expect(byTitle["Facelift"]).toMatchObject({ hasAccess: false, fullVideo: null, downloadFile: null });
    expect(byTitle["Rhinoplasty"].doctors).toEqual([expect.objectContaining({ name: "Dr. Jane Smith", slug: "jane-smith" })]);
    expect(res.headers.get("Cache-Control")).toBe("private, max-age=300");
    expect(res.headers.get("Vary")).toContain("Cookie");
  });

  it("answers 304 to a matching If-None-Match", async () => {
    const first = await callRoute(animations, "/api/animations?light=true");
    const again = await callRoute(animations, "/api/animations?light=true", { headers: { "If-None-Match": first.headers.get("ETag")! } });
    expect(again.status).toBe(304);
    expect(again.body).toBeNull();
  });

  it.each([
    ["page=0", "page must be a whole number from 1 to 1000000"],
    ["page=abc", "page must be a whole number from 1 to 1000000"],
    ["limit=0", "limit must be a whole number from 1 to 100"],
    ["limit=abc", "limit must be a whole number from 1 to 100"],
    ["limit=101", "limit must be a whole number from 1 to 100"],
    ["light=maybe", "light must be true or false"],
    [`search=${"x".repeat(101)}`, "search must be at most 100 characters"],
  ])("answers 400 for %s", async (query, message) => {
    const res = await callRoute(animations, `/api/animations?${query}`);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ message });
  });

  it("answers 404 for an unknown category", async () => {
    const res = await callRoute(animations, "/api/animations?category=nope");
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ message: "Category not found" });
  });
});

describe("GET /api/animations/{slugOrId}", () => {
  const detail = (slug: string, options = {}) => callRoute(animationDetail, `/api/animations/${slug}`, { params: { slugOrId: slug }, ...options });

  it("finds by slug or id, with doctors and category", async () => {
    const bySlug = await detail("rhinoplasty");
    expect(bySlug.status).toBe(200);
    expect(bySlug.body).toMatchObject({
      id: c.rhinoplasty.id,
      title: "Rhinoplasty",
      duration: 125,
      categoryName: "Facial Procedures",
      category: { slug: "facial-procedures", yearlyPrice: 199, parent: { slug: "plastic-surgery" } },
      doctors: [{ name: "Dr. Jane Smith", slug: "jane-smith", specialty: "Plastic Surgeon" }],
    });
    const byId = await detail(c.rhinoplasty.id);
    expect(byId.body.slug).toBe("rhinoplasty");
  });

  it("answers 404 for an unknown or inactive animation", async () => {
    for (const slug of ["nope", "retired-animation", "00000000-0000-4000-8000-000000000000"]) {
      const res = await detail(slug);
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ message: "Animation not found" });
    }
  });

  it("gives a visitor the preview only", async () => {
    const res = await detail("rhinoplasty");
    expect(res.body).toMatchObject({ hasAccess: false, canDownload: false, fullVideo: null, downloadFile: null, previewVideo: c.rhinoplasty.previewVideo });
    expect(res.headers.get("Cache-Control")).toBe("public, max-age=300");
  });

  it("gives a premium member the full video but no download", async () => {
    const user = await createUser({ accountType: "premium" });
    const res = await detail("rhinoplasty", { token: await accessTokenFor(user.id) });
    expect(res.body).toMatchObject({ hasAccess: true, canDownload: false, fullVideo: c.rhinoplasty.fullVideo, downloadFile: null });
    expect(res.headers.get("Cache-Control")).toBe("private, max-age=300");
  });

  it("gives a global subscriber the full video but no download", async () => {
    const user = await createUser();
    await grant(user.id, "global");
    const res = await detail("facelift", { cookie: await sessionCookieFor(user.id) });
    expect(res.body).toMatchObject({ hasAccess: true, fullVideo: c.facelift.fullVideo, downloadFile: null });
  });

  it("gives a category licence on the main category the video and the download", async () => {
    const user = await createUser();
    await grant(user.id, "category", { categoryId: c.plastic.id });
    const res = await detail("tummy-tuck", { cookie: await sessionCookieFor(user.id) });
    expect(res.body).toMatchObject({ hasAccess: true, canDownload: true, fullVideo: c.tummy.fullVideo, downloadFile: c.tummy.downloadFile });
    const other = await detail("heart-bypass", { cookie: await sessionCookieFor(user.id) });
    expect(other.body).toMatchObject({ hasAccess: false, fullVideo: null, downloadFile: null });
  });

  it("ignores expired and canceled subscriptions", async () => {
    const user = await createUser();
    const expired = await grant(user.id, "individual", { animationId: c.rhinoplasty.id });
    await prisma.subscription.update({ where: { id: expired.id }, data: { endDate: new Date(Date.now() - 1000) } });
    const canceled = await grant(user.id, "global");
    await prisma.subscription.update({ where: { id: canceled.id }, data: { status: "canceled" } });
    const res = await detail("rhinoplasty", { cookie: await sessionCookieFor(user.id) });
    expect(res.body).toMatchObject({ hasAccess: false, fullVideo: null, downloadFile: null });
  });

  it("does not count a view", async () => {
    const before = (await prisma.animation.findUniqueOrThrow({ where: { id: c.bypass.id } })).views;
    await detail("heart-bypass");
    expect((await prisma.animation.findUniqueOrThrow({ where: { id: c.bypass.id } })).views).toBe(before);
  });
});

describe("GET /api/categories", () => {
  it("lists active categories flat with parentId and counts", async () => {
    const res = await callRoute(categories, "/api/categories");
    expect(res.status).toBe(200);
    const bySlug = Object.fromEntries(res.body.map((cat: { slug: string }) => [cat.slug, cat]));
    expect(Object.keys(bySlug).sort()).toEqual(["body-contouring", "cardiology", "facial-procedures", "plastic-surgery"]);
    expect(bySlug["facial-procedures"]).toMatchObject({ parentId: c.plastic.id, yearlyPrice: 199, animationCount: 2 });
    expect(bySlug["plastic-surgery"]).toMatchObject({ parentId: null, yearlyPrice: null, animationCount: 3 });
    expect(res.headers.get("Cache-Control")).toBe("public, max-age=300");
  });

  it("counts follow every write: insert, deactivate, move, delete (and the unfiltered total counts uncategorised ones)", async () => {
    const count = async (slug: string) =>
      (await callRoute(categories, "/api/categories")).body.find((cat: { slug: string }) => cat.slug === slug).animationCount;
    const total = async () => (await callRoute(animations, "/api/animations?light=true")).body.total;
    const [facial, body, all] = [await count("facial-procedures"), await count("body-contouring"), await total()];
    const extra = await prisma.animation.create({ data: { title: "Brow Lift", slug: "brow-lift", description: "Forehead.", categoryId: c.facial.id } });
    const loose = await prisma.animation.create({ data: { title: "Uncategorised", slug: "uncategorised", description: "None." } });
    try {
      expect([await count("facial-procedures"), await total()]).toEqual([facial + 1, all + 2]);
      await prisma.animation.update({ where: { id: extra.id }, data: { categoryId: c.body.id } });
      expect([await count("facial-procedures"), await count("body-contouring")]).toEqual([facial, body + 1]);
      await prisma.animation.update({ where: { id: extra.id }, data: { isActive: false } });
      expect([await count("body-contouring"), await total()]).toEqual([body, all + 1]);
      await prisma.animation.update({ where: { id: extra.id }, data: { isActive: true } });
      await prisma.animation.delete({ where: { id: extra.id } });
      expect([await count("body-contouring"), await total()]).toEqual([body, all + 1]);
    } finally {
      await prisma.animation.deleteMany({ where: { id: { in: [extra.id, loose.id] } } });
    }
    expect([await count("facial-procedures"), await count("body-contouring"), await total()]).toEqual([facial, body, all]);
  });

  it("main: main categories with subcategories (id, name, slug, description, yearlyPrice, animationCount), cached 10 minutes", async () => {
    const res = await callRoute(categoriesMain, "/api/categories/main");
    expect(res.body.map((cat: { slug: string }) => cat.slug)).toEqual(["plastic-surgery", "cardiology"]);
    expect(res.body[0].subcategories).toEqual([
      { id: c.facial.id, name: "Facial Procedures", slug: "facial-procedures", description: "Face and neck.", yearlyPrice: 199, animationCount: 2 },
      // No price of its own: its licence sells at the default $299, and says so.
      { id: c.body.id, name: "Body Contouring", slug: "body-contouring", description: "Body shaping.", yearlyPrice: 299, animationCount: 1 },
    ]);
    expect(res.body[1].subcategories).toEqual([]);
    expect(res.headers.get("Cache-Control")).toBe("public, max-age=600");
    const again = await callRoute(categoriesMain, "/api/categories/main", { headers: { "If-None-Match": res.headers.get("ETag")! } });
    expect(again.status).toBe(304);
  });

  it("by slug or id, with parent and subcategories; 404 otherwise", async () => {
    const bySlug = await callRoute(categorySlug, "/api/categories/facial-procedures", { params: { slugOrId: "facial-procedures" } });
    expect(bySlug.body).toMatchObject({ id: c.facial.id, parent: { slug: "plastic-surgery" }, subcategories: [] });
    const byId = await callRoute(categorySlug, `/api/categories/${c.plastic.id}`, { params: { slugOrId: c.plastic.id } });
    expect(byId.body).toMatchObject({ slug: "plastic-surgery", parent: null });
    expect(byId.body.subcategories).toHaveLength(2);
    for (const slugOrId of ["nope", "hidden-category"]) {
      const res = await callRoute(categorySlug, `/api/categories/${slugOrId}`, { params: { slugOrId } });
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ message: "Category not found" });
    }
  });

  it("by path: /main and /main/sub; a wrong pairing is 404", async () => {
    const main = await callRoute(categoriesPath, "/api/categories/path/plastic-surgery", { params: { mainSlug: "plastic-surgery" } });
    expect(main.body).toMatchObject({ id: c.plastic.id, subcategories: [{ slug: "facial-procedures" }, { slug: "body-contouring" }] });
    const sub = await callRoute(categoriesPath, "/api/categories/path/plastic-surgery/facial-procedures", {
      params: { mainSlug: "plastic-surgery", subSlug: "facial-procedures" },
    });
    expect(sub.body).toMatchObject({ id: c.facial.id, name: "Facial Procedures" });
    for (const params of [{ mainSlug: "cardiology", subSlug: "facial-procedures" }, { mainSlug: "facial-procedures" }, { mainSlug: "nope" }] as Array<
      Record<string, string>
    >) {
      const res = await callRoute(categoriesPath, "/api/categories/path/x", { params });
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ message: "Category not found" });
    }
  });
});

describe("GET /api/doctors", () => {
  it("lists active doctors by name", async () => {
    const res = await callRoute(doctors, "/api/doctors");
    expect(res.body.map((d: { name: string }) => d.name)).toEqual(["Dr. Alan Grey", "Dr. Jane Smith"]);
    expect(res.body[1]).toMatchObject({ slug: "jane-smith", specialty: "Plastic Surgeon", website: "https://janesmith.example.com", instagram: "@janesmith" });
  });

  it("one doctor by slug or id with verifiedAnimations (public fields only)", async () => {
    const res = await callRoute(doctorSlug, "/api/doctors/jane-smith", { params: { slugOrId: "jane-smith" } });
    expect(res.status).toBe(200);
    expect(res.body.verifiedAnimations.map((a: { title: string }) => a.title)).toEqual(["Facelift", "Rhinoplasty"]);
    expect(Object.keys(res.body.verifiedAnimations[0]).sort()).toEqual(["coverImage", "description", "duration", "id", "slug", "title"]);
    const byId = await callRoute(doctorSlug, `/api/doctors/${c.lonely.id}`, { params: { slugOrId: c.lonely.id } });
    expect(byId.body).toMatchObject({ name: "Dr. Alan Grey", verifiedAnimations: [] });
  });

  it("answers 404 with 'Doctor not found'", async () => {
    const res = await callRoute(doctorSlug, "/api/doctors/nobody", { params: { slugOrId: "nobody" } });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ message: "Doctor not found" });
  });
});

describe("POST /api/report-misuse", () => {
  const valid = () => ({
    animationId: c.rhinoplasty.id,
    animationTitle: "Rhinoplasty",
    reporterEmail: "Watcher@Example.com",
    message: "This animation is on a clinic website without a licence.",
    link: "https://clinic.example.com/video",
  });

  it("stores the report", async () => {
    const res = await callRoute(reportMisuse, "/api/report-misuse", { json: valid() });
    expect(res.status).toBe(201);
    const row = await prisma.misuseReport.findUniqueOrThrow({ where: { id: res.body.id } });
    expect(row).toMatchObject({
      animationId: c.rhinoplasty.id,
      animationTitle: "Rhinoplasty",
      reporterEmail: "watcher@example.com",
      link: "https://clinic.example.com/video",
    });
  });

  it("accepts a report without a link", async () => {
    const res = await callRoute(reportMisuse, "/api/report-misuse", { json: { ...valid(), link: "" } });
    expect(res.status).toBe(201);
    expect((await prisma.misuseReport.findUniqueOrThrow({ where: { id: res.body.id } })).link).toBeNull();
  });

  it.each([
    [{ reporterEmail: "" }, "reporterEmail", "Email is required"],
    [{ reporterEmail: "not-an-email" }, "reporterEmail", "Must be a valid email"],
    [{ message: "  " }, "message", "Message is required"],
    [{ link: "javascript:alert(1)" }, "link", "Must be a valid URL"],
  ])("answers 400 for %o", async (patch, field, message) => {
    const res = await callRoute(reportMisuse, "/api/report-misuse", { json: { ...valid(), ...patch } });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe(message);
    expect(res.body.errors[field]).toEqual([message]);
  });

  it("takes at most 10 reports an hour from one address, like the detail page's dialog", async () => {
    const clientIp = "203.0.113.77";
    for (let i = 0; i < 10; i++) {
      expect((await callRoute(reportMisuse, "/api/report-misuse", { json: valid(), clientIp })).status).toBe(201);
    }
    const refused = await callRoute(reportMisuse, "/api/report-misuse", { json: valid(), clientIp });
    expect(refused.status).toBe(429);
    // When to try again, and the mailbox to write to meanwhile (ABUSE_EMAIL, else SUPPORT_EMAIL).
    expect(refused.body.message).toMatch(/^Too many reports from your address\. Please try again in \d+ minutes? or contact \S+@\S+ directly\.$/);
    expect(Number(refused.headers.get("Retry-After"))).toBeGreaterThan(0);
    expect((await callRoute(reportMisuse, "/api/report-misuse", { json: valid(), clientIp: "203.0.113.78" })).status).toBe(201);
  });

  it("answers 404 for an unknown animation and 405 for GET", async () => {
    const res = await callRoute(reportMisuse, "/api/report-misuse", { json: { ...valid(), animationId: "00000000-0000-4000-8000-000000000000" } });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ message: "Animation not found" });
    expect((await callRoute(reportMisuse, "/api/report-misuse")).status).toBe(405);
  });
});
