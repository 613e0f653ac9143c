import { beforeAll, describe, expect, it } from "vitest";
import { prisma } from "~/lib/db.server.ts";
import { ANIMATIONS, animationSlug } from "../../prisma/seed-data/animations.ts";
import { CATEGORIES } from "../../prisma/seed-data/categories.ts";
import { DOCTORS } from "../../prisma/seed-data/doctors.ts";
import { sendToApp } from "../helpers/app.ts";
import { accessTokenFor, createUser } from "../helpers/factories.ts";
import { DEFAULT_SEARCH_SYNONYMS, SYNONYMS_INVALID } from "~/validation/search.ts";

// Search that forgives typos, through the front door (/search and GET /api/animations), on the
// demo catalogue's titles, descriptions, categories and doctors (without its media files).

const DAY = 24 * 60 * 60 * 1000;

beforeAll(async () => {
  const categories = new Map<string, string>();
  for (const main of CATEGORIES) {
    const { id } = await prisma.category.create({ data: { name: main.name, slug: main.slug, description: main.description, sortOrder: main.sortOrder } });
    for (const sub of main.subcategories) {
      const created = await prisma.category.create({
        data: { name: sub.name, slug: sub.slug, description: sub.description, parentId: id, yearlyPrice: sub.yearlyPrice },
      });
      categories.set(sub.slug, created.id);
    }
  }
  const doctors = new Map<string, string>();
  for (const doctor of DOCTORS) {
    const { id } = await prisma.doctor.create({ data: { name: doctor.name, slug: doctor.slug, specialty: doctor.specialty, description: doctor.description } });
    doctors.set(doctor.slug, id);
  }
  const now = Date.now();
  for (const seed of ANIMATIONS) {
    await prisma.animation.create({
      data: {
        title: seed.title,
        slug: animationSlug(seed.title),
        description: seed.description,
        duration: seed.duration,
        isActive: seed.isActive ?? true,
        createdAt: new Date(now - seed.ageDays * DAY),
        categoryId: categories.get(seed.category)!,
        doctors: { create: seed.doctors.map((slug) => ({ doctorId: doctors.get(slug)! })) },
      },
    });
  }
});

type ApiList = { animations: Array<{ title: string }>; total: number; hasMore: boolean; suggestion?: string };

async function api(search: string): Promise<ApiList & { status: number }> {
  const res = await sendToApp(`/api/animations?${new URLSearchParams({ search, limit: "50" })}`, {});
  return { status: res.status, ...(res.status === 200 ? JSON.parse(res.body.toString("utf8")) : { animations: [], total: 0, hasMore: false }) };
}

/** The /search page's HTML, with React's text-node separators taken out. */
async function page(q: string) {
  const res = await sendToApp(`/search?${new URLSearchParams({ q })}`, {});
  return { status: res.status, html: res.body.toString("utf8").replaceAll("<!-- -->", "") };
}

const titles = (list: ApiList) => list.animations.map((a) => a.title);
/** Card titles in page order. */
const cardTitles = (html: string) =>
  [...html.matchAll(/data-testid="animation-card"[\s\S]*?<h3[^>]*>([\s\S]*?)<\/h3>/g)].map((m) => m[1]!.replace(/<[^>]+>/g, ""));

const DID_YOU_MEAN = /Did you mean/;

describe("search that forgives typos", () => {
  it.each([
    ["rhinoplsty", "rhinoplasty", ["Closed Rhinoplasty and Tip Refinement", "Open Rhinoplasty: Reshaping the Nasal Framework"]],
    ["facelfit", "facelift", ["Deep Plane Facelift"]],
    ["cardiak", "cardiac", ["Cardiac Catheterization Explained"]],
  ])("%s finds the %s animations first, with the correction as suggestion", async (typed, corrected, first) => {
    const list = await api(typed);
    expect(list.status).toBe(200);
    expect(list.suggestion).toBe(corrected);
    expect(titles(list).slice(0, first.length).sort()).toEqual([...first].sort());
    // The correction as typed finds the same animations, without a suggestion.
    const exact = await api(corrected);
    expect(exact.suggestion).toBeUndefined();
    expect(new Set(titles(exact).slice(0, first.length))).toEqual(new Set(first));
  });

  it("leaves exact terms as they were: titles first, no suggestion, never fewer results than a typo of them", async () => {
    const list = await api("rhinoplasty");
    expect(list.suggestion).toBeUndefined();
    // Every animation whose text holds the word, and those of the procedure (category) it names.
    const expected = ANIMATIONS.filter(
      (a) => (a.isActive ?? true) && (`${a.title}\n${a.description}`.toLowerCase().includes("rhinoplasty") || a.category === "rhinoplasty"),
    );
    expect(list.total).toBe(expected.length);
    expect(
      titles(list)
        .slice(0, 2)
        .every((t) => t.includes("Rhinoplasty")),
    ).toBe(true);
    expect(titles(await api("Nasal Framework"))).toEqual(["Open Rhinoplasty: Reshaping the Nasal Framework"]);
    for (const [exact, typo] of [
      ["rhinoplasty", "rhinoplsty"],
      ["facelift", "facelfit"],
      ["abdominoplasty", "abdominoplsty"],
      ["cardiac", "cardiak"],
      ["okafor", "okafr"],
      ["septoplasty", "septoplsty"],
      ["blepharoplasty", "blepharoplsty"],
    ]) {
      const [right, wrong] = [await api(exact!), await api(typo!)];
      expect(wrong.total, typo).toBeGreaterThan(0);
      expect(right.total, `${exact} against ${typo}`).toBeGreaterThanOrEqual(wrong.total);
    }
  });

  // The first result a searcher expects: exact titles, prefixes, typos and lay words.
  it.each([
    ["deep plane facelift", /^Deep Plane Facelift$/],
    ["facelift", /^Deep Plane Facelift$/],
    ["facelfit", /^Deep Plane Facelift$/],
    ["face lift", /^Deep Plane Facelift$/],
    ["tummy tuck", /^Abdominoplasty with Muscle Repair$/],
    ["abdominoplasty", /^Abdominoplasty with Muscle Repair$/],
    ["abdominoplsty", /^Abdominoplasty with Muscle Repair$/],
    ["boob job", /^Breast Augmentation with Implants$/],
    ["breast aug", /^Breast Augmentation with Implants$/],
    ["nose job", /Rhinoplasty/],
    ["septoplasty", /^Septoplasty for a Deviated Septum$/],
    ["eyelid surgery", /^Upper and Lower Blepharoplasty$/],
    ["lipo", /^Tumescent Liposuction$/],
    ["pacemaker", /^Pacemaker Implantation$/],
    ["cardiak catheterization", /^Cardiac Catheterization Explained$/],
    ["knee replacement", /^Total Knee Replacement$/],
    ["mohs", /^Mohs Micrographic Surgery$/],
    ["melanoma", /^Recognising Melanoma: The ABCDE Rule$/],
    ["slipped disc", /^Lumbar Microdiscectomy$/],
    ["parkinson", /^Deep Brain Stimulation for Parkinson's Disease$/],
    ["acl", /^ACL Reconstruction$/],
    ["thrombectomy", /^Mechanical Thrombectomy$/],
  ])("%s: first result %s", async (query, first) => {
    expect(titles(await api(query))[0]).toMatch(first);
  });

  it("search understands the lay words an admin writes in settings; a malformed line is refused and changes nothing", async () => {
    const admin = await createUser({ role: "admin" }, { secondFactor: true });
    const token = await accessTokenFor(admin.id);
    const put = (value: string) =>
      sendToApp("/api/settings/search_synonyms", {
        method: "PUT",
        headers: new Headers({ Authorization: `Bearer ${token}`, "Content-Type": "application/json" }),
        body: JSON.stringify({ value }),
      });
    expect((await put("crooked nose fix=septoplasty")).status).toBe(200);
    expect(titles(await api("crooked nose fix"))[0]).toBe("Septoplasty for a Deviated Septum");
    const refused = await put("nose job rhinoplasty");
    expect(refused.status).toBe(400);
    expect(JSON.parse(refused.body.toString("utf8")).message).toBe(SYNONYMS_INVALID);
    expect(titles(await api("crooked nose fix"))[0]).toBe("Septoplasty for a Deviated Septum");
    expect((await put(DEFAULT_SEARCH_SYNONYMS)).status).toBe(200);
  });

  it("a lay word finds every animation of its procedure, and says what it searched for", async () => {
    const list = await api("nose job");
    expect(list.suggestion).toBe("rhinoplasty");
    expect(titles(list)).toEqual(expect.arrayContaining(["Closed Rhinoplasty and Tip Refinement", "Open Rhinoplasty: Reshaping the Nasal Framework"]));
    expect(list.total).toBe((await api("rhinoplasty")).total);
  });

  it("takes several words sensibly: a word that matches nothing does not empty the list", async () => {
    expect(titles(await api("deep plane facelift recovery"))[0]).toBe("Deep Plane Facelift");
    const typo = await api("facelfit recovery");
    expect(titles(typo)[0]).toBe("Deep Plane Facelift");
    expect(typo.suggestion).toBe("facelift recovery");
    // Words in any order, across title and description.
    expect(titles(await api("facelift deep"))[0]).toBe("Deep Plane Facelift");
  });

  it("matches procedures (categories) and doctors by name, misspelt or not", async () => {
    const okafor = ANIMATIONS.filter((a) => (a.isActive ?? true) && a.doctors.includes("james-okafor")).map((a) => a.title);
    expect(okafor.length).toBeGreaterThan(0);
    expect(new Set(titles(await api("okafor")))).toEqual(new Set(okafor));
    const misspelt = await api("okafr");
    expect(misspelt.suggestion).toBe("okafor");
    expect(new Set(titles(misspelt))).toEqual(new Set(okafor));
    // "Breast Surgery" is a procedure category: its animations, whatever their titles say.
    const breast = ANIMATIONS.filter((a) => (a.isActive ?? true) && a.category === "breast-surgery").map((a) => a.title);
    expect(
      titles(await api("brest surgery"))
        .slice(0, breast.length)
        .sort(),
    ).toEqual([...breast].sort());
  });

  it("never offers a withdrawn animation, nor suggests its words", async () => {
    const withdrawn = ANIMATIONS.find((a) => a.isActive === false)!;
    const list = await api(withdrawn.title.toLowerCase().replace("hair", "hiar"));
    expect(titles(list)).not.toContain(withdrawn.title);
    expect(list.suggestion ?? "").not.toContain("hair");
  });

  it("/search shows Did you mean with a plain link and the corrected results", async () => {
    const { status, html } = await page("facelfit");
    expect(status).toBe(200);
    expect(html).toMatch(/Did you mean <a [^>]*href="\/search\?q=facelift"[^>]*>facelift<\/a>\?/);
    expect(html).toMatch(/Showing 1 result for “facelift”: nothing matched “facelfit”/);
    expect(cardTitles(html)[0]).toBe("Deep Plane Facelift");

    const cardiak = await page("cardiak");
    expect(cardiak.html).toMatch(/Did you mean <a [^>]*href="\/search\?q=cardiac"[^>]*>cardiac<\/a>\?/);
    expect(cardTitles(cardiak.html)).toContain("Cardiac Catheterization Explained");
  });

  it("/search shows no suggestion for a correct term, and the empty state when nothing is close", async () => {
    const exact = await page("facelift");
    expect(exact.html).not.toMatch(DID_YOU_MEAN);
    expect(cardTitles(exact.html)[0]).toBe("Deep Plane Facelift");
    const nothing = await page("zzzz-nothing-like-this");
    expect(nothing.status).toBe(200);
    expect(nothing.html).toContain("No Results Found");
    expect(nothing.html).not.toMatch(DID_YOU_MEAN);
    expect(await api("zzzz-nothing-like-this")).toMatchObject({ animations: [], total: 0 });
  });

  it.each([
    ["%", 0],
    ["_", 0],
    ["%_%", 0],
    ["\\", 0],
    ['\'; DROP TABLE "Animation"; --', null],
    ["rhino%plasty", null],
    ["rhinoplasty) OR (1=1", null],
    ["ü ñ 日本語 🦴", 0],
  ])("junk term %j answers 200, never 500", async (term, total) => {
    const list = await api(term);
    expect(list.status).toBe(200);
    if (total !== null) expect(list.total).toBe(total);
    expect((await page(term)).status).toBe(200);
  });

  it("a term too long is a 400 on the API and cut to 100 characters on /search", async () => {
    const long = "rhinoplsty ".repeat(500);
    expect((await sendToApp(`/api/animations?search=${encodeURIComponent(long)}`, {})).status).toBe(400);
    const { status, html } = await page(long);
    expect(status).toBe(200);
    expect(html).toMatch(DID_YOU_MEAN);
  });
});
