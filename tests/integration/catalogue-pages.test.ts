import { beforeAll, describe, expect, it } from "vitest";
import { dropAllCaches } from "~/lib/cache-registry.server.ts";
import { prisma } from "~/lib/db.server.ts";
import * as animationRedirect from "~/routes/public/animation-redirect.tsx";
import * as animation from "~/routes/public/animation.tsx";
import * as categorySub from "~/routes/public/category-sub.tsx";
import * as category from "~/routes/public/category.tsx";
import * as doctor from "~/routes/public/doctor.tsx";
import * as home from "~/routes/public/home.tsx";
import * as legacyCategory from "~/routes/public/legacy-category.tsx";
import * as search from "~/routes/public/search.tsx";
import { createUser, sessionCookieFor } from "../helpers/factories.ts";
import { createCatalogue, grant } from "../helpers/catalogue.ts";
import { callRoute } from "../helpers/route.ts";
import { flushViewCounts, queueView } from "~/services/catalogue/views.server.ts";

let c: Awaited<ReturnType<typeof createCatalogue>>;

beforeAll(async () => {
  c = await createCatalogue();
});

const titles = (list: Array<{ title: string }>) => list.map((a) => a.title);

describe("home loader", () => {
  it("shows the first page, the filter bar and the visitor's view", async () => {
    const res = await callRoute(home, "/");
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ premium: false, category: null, page: 1, pageSize: 6, hasMore: false, total: 4 });
    expect(titles(res.body.animations)).toEqual(["Heart Bypass", "Tummy Tuck", "Facelift", "Rhinoplasty"]);
    expect(res.body.categories).toEqual([
      {
        id: c.plastic.id,
        name: "Plastic Surgery",
        slug: "plastic-surgery",
        subcategories: [
          { id: c.facial.id, name: "Facial Procedures", slug: "facial-procedures" },
          { id: c.body.id, name: "Body Contouring", slug: "body-contouring" },
        ],
      },
      { id: c.cardiology.id, name: "Cardiology", slug: "cardiology", subcategories: [] },
    ]);
  });

  it("takes the page size from homepage_animations_per_page and renders pages 1..N without JavaScript", async () => {
    await prisma.appSetting.create({ data: { key: "homepage_animations_per_page", value: "3" } });
    try {
      const first = await callRoute(home, "/");
      expect(first.body).toMatchObject({ pageSize: 3, hasMore: true });
      expect(first.body.animations).toHaveLength(3);
      const second = await callRoute(home, "/?page=2");
      expect(second.body).toMatchObject({ page: 2, firstPage: 1, hasMore: false });
      expect(second.body.animations).toHaveLength(4);
    } finally {
      await prisma.appSetting.delete({ where: { key: "homepage_animations_per_page" } });
    }
  });

  it("filters by ?category (a main category includes its subcategories); unknown shows nothing", async () => {
    expect(titles((await callRoute(home, "/?category=plastic-surgery")).body.animations)).toEqual(["Tummy Tuck", "Facelift", "Rhinoplasty"]);
    expect(titles((await callRoute(home, "/?category=body-contouring")).body.animations)).toEqual(["Tummy Tuck"]);
    const unknown = await callRoute(home, "/?category=nope");
    expect(unknown.status).toBe(200);
    expect(unknown.body.animations).toEqual([]);
  });

  it("tells premium members apart and never carries a full video", async () => {
    const user = await createUser({ accountType: "premium" });
    const res = await callRoute(home, "/", { cookie: await sessionCookieFor(user.id) });
    expect(res.body.premium).toBe(true);
    expect(JSON.stringify(res.body)).not.toContain(c.rhinoplasty.fullVideo!);
    expect(JSON.stringify(res.body)).not.toContain(c.rhinoplasty.downloadFile!);
  });
});

describe("search loader", () => {
  it("makes no query for a blank term and finds by title", async () => {
    expect((await callRoute(search, "/search?q=%20%20")).body).toMatchObject({ q: "", results: null });
    const res = await callRoute(search, "/search?q=lift");
    expect(titles(res.body.results.animations)).toEqual(["Facelift"]);
    expect((await callRoute(search, "/search?q=nothing-like-this")).body.results).toMatchObject({ animations: [], total: 0 });
  });
});

describe("animation detail", () => {
  const load = (slug: string, options: Parameters<typeof callRoute>[2] = {}) => callRoute(animation, `/animations/${slug}`, { params: { slug }, ...options });

  it("shows a visitor the preview only, with the licence prices", async () => {
    const res = await load("rhinoplasty");
    expect(res.status).toBe(200);
    expect(res.body.animation).toMatchObject({
      title: "Rhinoplasty",
      fullVideo: null,
      downloadFile: null,
      hasAccess: false,
      previewVideo: c.rhinoplasty.previewVideo,
    });
    // Its own price ($149, not the $299 default) and its sub-category's licence.
    expect(res.body).toMatchObject({ premium: false, offers: { price: 149, category: { slug: "facial-procedures", price: 199 }, cheaperCategory: null } });
    expect(JSON.stringify(res.body)).not.toContain(c.rhinoplasty.fullVideo!);
  });

  it("fills the side column: more of its subcategory and more from its doctor, never itself or a retired one", async () => {
    const res = await load("rhinoplasty");
    expect(titles(res.body.related.sameCategory)).toEqual(["Facelift"]);
    // Facelift is Dr. Smith's too, but is already listed above.
    expect(res.body.related).toMatchObject({ doctorName: "Dr. Jane Smith", byDoctor: [] });
    expect(JSON.stringify(res.body.related)).not.toContain(c.rhinoplasty.fullVideo!);
    const alone = await load("heart-bypass");
    expect(alone.body.related).toMatchObject({ sameCategory: [], byDoctor: [], doctorName: null });
  });

  it("shows a premium member the full video; the category price defaults to 299, no dearer than the animation", async () => {
    const user = await createUser({ accountType: "premium" });
    const res = await load("tummy-tuck", { cookie: await sessionCookieFor(user.id) });
    expect(res.body.animation).toMatchObject({ fullVideo: c.tummy.fullVideo, downloadFile: null, canDownload: false });
    expect(res.body).toMatchObject({
      premium: true,
      offers: { price: 299, category: { slug: "body-contouring", price: 299 }, cheaperCategory: { slug: "body-contouring" } },
    });
  });

  it("gives an individual licence holder the download", async () => {
    const user = await createUser();
    await grant(user.id, "individual", { animationId: c.facelift.id });
    const res = await load("facelift", { cookie: await sessionCookieFor(user.id) });
    expect(res.body.animation).toMatchObject({ fullVideo: c.facelift.fullVideo, downloadFile: c.facelift.downloadFile, canDownload: true });
  });

  it("counts one view per GET, none for HEAD", async () => {
    const views = async () => (await prisma.animation.findUniqueOrThrow({ where: { id: c.bypass.id } })).views;
    // Views the earlier cases' pages queued are written first: only this case's are counted. The
    // view counter drops no cache, so the catalogue's copy may show a count CATALOGUE_CACHE_MS old.
    await flushViewCounts();
    dropAllCaches();
    const before = await views();
    const res = await load("heart-bypass");
    expect(res.body.animation.views).toBe(before + 1);
    // Batched with the catalogue cache on (views.server.ts): written at the next flush.
    await flushViewCounts();
    expect(await views()).toBe(before + 1);
    await load("heart-bypass", { method: "HEAD" });
    await flushViewCounts();
    expect(await views()).toBe(before + 1);
  });

  it("batches queued views into one UPDATE per flush (the production path)", async () => {
    const views = async (id: string) => (await prisma.animation.findUniqueOrThrow({ where: { id } })).views;
    // Views the earlier cases' pages queued are written first: only these three are counted.
    await flushViewCounts();
    const [a, b] = [await views(c.tummy.id), await views(c.facelift.id)];
    queueView(c.tummy.id);
    queueView(c.tummy.id);
    queueView(c.facelift.id);
    expect(await views(c.tummy.id)).toBe(a);
    expect(await flushViewCounts()).toBe(2);
    expect([await views(c.tummy.id), await views(c.facelift.id)]).toEqual([a + 2, b + 1]);
    expect(await flushViewCounts()).toBe(0);
  });

  it("falls back to the id and answers 404 for unknown animations", async () => {
    expect((await load(c.facelift.id)).body.animation.slug).toBe("facelift");
    const res = await load("no-such-animation");
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ message: "Animation not found" });
  });

  it("within a category path, the animation must belong to that subcategory", async () => {
    const ok = await callRoute(animation, "/category/plastic-surgery/facial-procedures/rhinoplasty", {
      params: { mainSlug: "plastic-surgery", subSlug: "facial-procedures", animationSlug: "rhinoplasty" },
    });
    expect(ok.status).toBe(200);
    const wrong = await callRoute(animation, "/category/plastic-surgery/body-contouring/rhinoplasty", {
      params: { mainSlug: "plastic-surgery", subSlug: "body-contouring", animationSlug: "rhinoplasty" },
    });
    expect(wrong.status).toBe(404);
  });

  it("stores a misuse report and redirects back with the success toast", async () => {
    const res = await callRoute(animation, "/animations/rhinoplasty", {
      params: { slug: "rhinoplasty" },
      form: {
        intent: "report-misuse",
        animationId: c.rhinoplasty.id,
        animationTitle: "Rhinoplasty",
        reporterEmail: "a@example.com",
        message: "Copied",
        link: "",
      },
    });
    expect(res.status).toBe(302);
    expect(res.location).toBe("/animations/rhinoplasty");
    expect(res.headers.get("Set-Cookie")).toContain("medanim_toast=");
    expect(await prisma.misuseReport.count({ where: { animationId: c.rhinoplasty.id, reporterEmail: "a@example.com" } })).toBe(1);
  });

  it("rejects a misuse report without email and message, keeping the answers", async () => {
    const res = await callRoute(animation, "/animations/rhinoplasty", {
      params: { slug: "rhinoplasty" },
      form: { intent: "report-misuse", animationId: c.rhinoplasty.id, reporterEmail: "", message: "", link: "https://x.example" },
    });
    expect(res.status).toBe(400);
    expect(res.body.result.error).toMatchObject({ reporterEmail: ["Email is required"], message: ["Message is required"] });
    expect(res.body.result.initialValue).toMatchObject({ link: "https://x.example" });
  });

  it("/animation/{slug} and /legacy/category/{slug} redirect permanently", async () => {
    const a = await callRoute(animationRedirect, "/animation/rhinoplasty", { params: { slug: "rhinoplasty" } });
    expect([a.status, a.location]).toEqual([301, "/animations/rhinoplasty"]);
    const l = await callRoute(legacyCategory, "/legacy/category/cardiology", { params: { slug: "cardiology" } });
    expect([l.status, l.location]).toEqual([308, "/category/cardiology"]);
  });
});

describe("category screens", () => {
  it("/category/{main} is the main screen with specialties", async () => {
    const res = await callRoute(category, "/category/plastic-surgery", { params: { slug: "plastic-surgery" } });
    expect(res.body.kind).toBe("main");
    expect(res.body.category.subcategories.map((s: { slug: string; animationCount: number }) => [s.slug, s.animationCount])).toEqual([
      ["facial-procedures", 2],
      ["body-contouring", 1],
    ]);
  });

  it("/category/{sub} is the listing screen with the viewer's access", async () => {
    const res = await callRoute(category, "/category/facial-procedures", { params: { slug: "facial-procedures" } });
    expect(res.body.kind).toBe("listing");
    expect(res.body.category).toMatchObject({ name: "Facial Procedures", yearlyPrice: 199, animationCount: 2 });
    expect(res.body.animations.map((a: { title: string; hasAccess: boolean }) => [a.title, a.hasAccess])).toEqual([
      ["Facelift", false],
      ["Rhinoplasty", false],
    ]);
    expect(JSON.stringify(res.body)).not.toContain(c.facelift.fullVideo!);
  });

  it("/category/{main}/{sub} is the subcategory screen; wrong pairs and unknown slugs are 404", async () => {
    const ok = await callRoute(categorySub, "/category/plastic-surgery/body-contouring", {
      params: { mainSlug: "plastic-surgery", subSlug: "body-contouring" },
    });
    expect(titles(ok.body.animations)).toEqual(["Tummy Tuck"]);
    expect(ok.body.category.parent).toMatchObject({ slug: "plastic-surgery" });
    const wrong = await callRoute(categorySub, "/category/cardiology/body-contouring", { params: { mainSlug: "cardiology", subSlug: "body-contouring" } });
    expect(wrong.status).toBe(404);
    for (const slug of ["nope", "hidden-category"]) {
      const res = await callRoute(category, `/category/${slug}`, { params: { slug } });
      expect(res.status).toBe(404);
    }
  });
});

describe("doctor profile", () => {
  it("shows the doctor and verified animations; unknown is 404", async () => {
    const res = await callRoute(doctor, "/doctors/jane-smith", { params: { slugOrId: "jane-smith" } });
    expect(res.body.doctor).toMatchObject({ name: "Dr. Jane Smith", instagram: "@janesmith" });
    expect(titles(res.body.doctor.verifiedAnimations)).toEqual(["Facelift", "Rhinoplasty"]);
    const missing = await callRoute(doctor, "/doctors/nobody", { params: { slugOrId: "nobody" } });
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ message: "Doctor not found" });
  });
});
