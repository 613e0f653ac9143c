import { PrismaPGlite } from "pglite-prisma-adapter";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { PrismaClient } from "~/generated/prisma/client.ts";
import { type Database, getDb, pgliteJobConnection, setDb } from "~/lib/db.server.ts";
import { resetEnv } from "~/lib/env.server.ts";
import { applyMigrations } from "~/lib/migrate.server.ts";
import { openPglite } from "~/lib/pglite.server.ts";
import * as animationDetail from "~/routes/api/animations.slug.ts";
import * as animationsApi from "~/routes/api/animations.ts";
import * as animation from "~/routes/public/animation.tsx";
import * as category from "~/routes/public/category.tsx";
import * as doctor from "~/routes/public/doctor.tsx";
import * as home from "~/routes/public/home.tsx";
import * as search from "~/routes/public/search.tsx";
import { createCatalogue, objectPath } from "../helpers/catalogue.ts";
import { createUser, sessionCookieFor } from "../helpers/factories.ts";
import { callRoute } from "../helpers/route.ts";
import { templateDump } from "../setup/database-template.ts";

// No page issues a query per item (no N+1): every SQL statement that reaches the database
// driver is counted, and the counts must not grow with the size of the catalogue.

// From the run's migrated template (migrate() below then has nothing to do), else migrated here.
const pglite = openPglite(undefined, templateDump(inject("databaseTemplate")));
const sent: string[] = [];
let counting = false;
const originalQuery = pglite.query.bind(pglite);
pglite.query = ((...args: Parameters<typeof pglite.query>) => {
  if (counting) sent.push(String(args[0]));
  return originalQuery(...args);
}) as typeof pglite.query;

const countingDb: Database = {
  kind: "pglite",
  prisma: new PrismaClient({ adapter: new PrismaPGlite(pglite) }),
  migrate: () =>
    applyMigrations({
      exec: async (sql) => void (await pglite.exec(sql)),
      query: async <T>(sql: string, params?: unknown[]) => (await originalQuery<T>(sql, params)).rows,
    }),
  ping: async () => void (await originalQuery("SELECT 1")),
  maintain: async () => void (await pglite.exec("VACUUM ANALYZE")),
  jobs: pgliteJobConnection(pglite),
  poolStats: () => null,
  close: async () => {
    await countingDb.prisma.$disconnect();
    await pglite.close();
  },
};

let previous: Database;
let c: Awaited<ReturnType<typeof createCatalogue>>;
let cookie: string;

beforeAll(async () => {
  // Every cache off, the signed-in caller's kept rows too (decision 023; this file's Prisma
  // client reports no statements, so nothing here would drop them): each count is a first request's.
  process.env.MEMBER_CACHE_MS = "0";
  process.env.CATALOGUE_CACHE_MS = "0";
  process.env.PAGE_CACHE_MS = "0";
  resetEnv();
  previous = getDb();
  await countingDb.migrate();
  setDb(countingDb);
  c = await createCatalogue();
  // Two tracks with transcripts: the detail reads both tracks but only the English transcript.
  await countingDb.prisma.animationCaption.createMany({
    data: ["es", "en"].map((language) => ({
      animationId: c.rhinoplasty.id,
      language,
      label: language,
      path: objectPath(),
      transcript: `Transcript ${language}`,
    })),
  });
  const member = await createUser({ accountType: "premium" });
  cookie = await sessionCookieFor(member.id);
});

afterAll(async () => {
  delete process.env.MEMBER_CACHE_MS;
  delete process.env.CATALOGUE_CACHE_MS;
  delete process.env.PAGE_CACHE_MS;
  resetEnv();
  setDb(previous);
  await countingDb.close();
});

async function queriesOf(run: () => Promise<unknown>) {
  sent.length = 0;
  counting = true;
  try {
    await run();
  } finally {
    counting = false;
  }
  return [...sent];
}

const pages = {
  home: () => callRoute(home, "/"),
  "home, page 3 of a category": () => callRoute(home, "/?category=plastic-surgery&page=3"),
  "home, signed in": () => callRoute(home, "/", { cookie }),
  search: () => callRoute(search, "/search?q=explained"),
  detail: () => callRoute(animation, "/animations/rhinoplasty", { params: { slug: "rhinoplasty" } }),
  "detail, signed in": () => callRoute(animation, "/animations/rhinoplasty", { params: { slug: "rhinoplasty" }, cookie }),
  "category listing": () => callRoute(category, "/category/facial-procedures", { params: { slug: "facial-procedures" } }),
  doctor: () => callRoute(doctor, "/doctors/jane-smith", { params: { slugOrId: "jane-smith" } }),
  "api list": () => callRoute(animationsApi, "/api/animations?limit=50", { cookie }),
  "api detail": () => callRoute(animationDetail, "/api/animations/rhinoplasty", { params: { slugOrId: "rhinoplasty" } }),
} as const;

/**
 * The most statements each page may send, whatever the catalogue's size. A signed-in viewer
 * adds three: the session, its user, and the active subscriptions.
 */
const BOUNDS: Record<keyof typeof pages, number> = {
  // The tree, the page size setting, the "New" shelf, the catalogue's total, the cards; and the
  // review coverage behind the headline's "Doctor-Verified" (two counts, cached with the
  // catalogue in production); the layout's site name and legal pages for the page's head (the
  // root's own read, a cache hit in production). A category filter hides the shelf and the total.
  home: 9,
  "home, page 3 of a category": 8,
  "home, signed in": 12,
  // The tree, the matches, the cards; and the synonyms setting and the doctors' names the words
  // are matched against (cache hits in production).
  search: 5,
  // The tree, the animation, its doctors and its reviewer beside its caption tracks, then the
  // side column: more of its subcategory beside more of its first doctor, and the offers'
  // prices, which read the category tree again (a cache hit in production; these counts run
  // with the cache off). This catalogue's masters are not transcoded: one more for the master's
  // type, which its package then carries (none once a set has download files).
  detail: 9,
  "detail, signed in": 12,
  "category listing": 3,
  // The doctor, their animations, and the reviewers of those animations.
  doctor: 3,
  "api list": 8,
  // The category tree, the animation, then its doctors and reviewer beside its caption tracks
  // (the first with its transcript), and the untranscoded master's type.
  "api detail": 6,
};

describe("query counts", () => {
  let small: Record<string, number>;

  it("stay within a small fixed bound on a small catalogue", async () => {
    small = {};
    const failures: string[] = [];
    for (const [name, run] of Object.entries(pages)) {
      const statements = await queriesOf(run);
      small[name] = statements.length;
      if (statements.length > BOUNDS[name as keyof typeof pages]) failures.push(`${name}:\n${statements.join("\n")}`);
    }
    expect(failures).toEqual([]);
  });

  it("do not grow with the number of animations, doctors and categories", async () => {
    const prisma = countingDb.prisma;
    const extraDoctors = await Promise.all(
      Array.from({ length: 5 }, (_, i) => prisma.doctor.create({ data: { name: `Dr. Extra ${i}`, slug: `extra-${i}`, specialty: "Surgeon" } })),
    );
    const subs = await Promise.all(
      Array.from({ length: 4 }, (_, i) => prisma.category.create({ data: { name: `Extra Sub ${i}`, slug: `extra-sub-${i}`, parentId: c.plastic.id } })),
    );
    const rows = Array.from({ length: 120 }, (_, i) => ({
      title: `Extra procedure ${i}`,
      slug: `extra-procedure-${i}`,
      description: "Another procedure, explained.",
      categoryId: [c.facial.id, ...subs.map((s) => s.id)][i % 5]!,
      coverImage: objectPath(),
      previewVideo: objectPath(),
      fullVideo: objectPath(),
      downloadFile: objectPath(),
    }));
    await prisma.animation.createMany({ data: rows });
    const created = await prisma.animation.findMany({ where: { slug: { startsWith: "extra-procedure-" } }, select: { id: true } });
    await prisma.animationDoctor.createMany({
      data: created.flatMap((a, i) => [
        { animationId: a.id, doctorId: extraDoctors[i % 5]!.id },
        { animationId: a.id, doctorId: c.smith.id },
      ]),
    });

    const large: Record<string, number> = {};
    for (const [name, run] of Object.entries(pages)) large[name] = (await queriesOf(run)).length;
    expect(large).toEqual(small);
  });
});
