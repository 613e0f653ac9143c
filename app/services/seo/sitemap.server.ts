import crypto from "node:crypto";
import { prisma } from "~/lib/db.server.ts";
import { getEnv } from "~/lib/env.server.ts";
import { hasRenditions, renditionUrl } from "~/lib/image-renditions.ts";
import { memo, sharedCacheMs } from "~/lib/memo.server.ts";
import { Prisma } from "~/generated/prisma/client.ts";
import { RESERVED_PAGE_SLUGS } from "~/validation/admin-content.ts";
import { cached, getCategoryTree } from "../catalogue/categories.server.ts";
import { PAGE_CACHE_PREFIX } from "../site/content.server.ts";
import { previewUrls } from "../media/media-urls.server.ts";
import { animationEntry, sitemapRef, urlEntry, xmlFooter, xmlHeader } from "./sitemap-xml.ts";

// The sitemap (sitemaps.org 0.9, Google's video extension), from the database.
//
// Always an index (/sitemap.xml) over one file per kind: robots.txt names one address whose
// shape never changes as the catalogue passes 50,000 URLs, and each file's lastmod lets a
// crawler skip the kinds that did not change. Every file sits at the site's root, since a
// sitemap may only list URLs at or below its own location.
//
// Only what a visitor can open: the active category tree (a subcategory of an inactive main is
// hidden with it), active doctors, published pages, active animations; the same conditions as
// the pages that answer those URLs. Cached with what they read, so the writes that drop those
// caches (cache-registry.server.ts) show on the next request.
//
// Animations are ordered oldest first by (createdAt, id), so adding animations only grows the
// last file. The plan (where each file starts, how many URLs it has, its lastmod) is one scan of
// the active animations, cached; a file's rows are then read by keyset pages from its start, a
// batch at a time into the response: no OFFSET, never the whole catalogue in memory.

/** The sitemap files this module answers, by path. */
export const SITEMAP_FILES = {
  index: "/sitemap.xml",
  pages: "/sitemap-pages.xml",
  categories: "/sitemap-categories.xml",
  doctors: "/sitemap-doctors.xml",
  animations: "/sitemap-animations.xml",
} as const;

/** The public pages that are code, not rows (the product's route table): listed without a lastmod. */
export const STATIC_PUBLIC_PATHS = ["/", "/premium", "/help", "/contact", "/individual-license", "/category-license", "/global-license"];

// The protocol's cap per file. Categories, doctors and pages are tables of tens or hundreds of rows.
const MAX_URLS = 50_000;
/** Rows read per query while an animation file is written. */
const BATCH = 1000;

/** A small sitemap's entries as paths: the origin is the request's, added when it is written. */
export type SmallSitemap = { entries: Array<{ path: string; lastmod: Date | null }>; lastmod: Date | null };

/** The origin every <loc> starts with: APP_URL when set, else the request's own. */
export function siteOrigin(request: Request) {
  return new URL(getEnv().APP_URL ?? request.url).origin;
}

const absolute = (origin: string, path: string) => new URL(path, origin).href;

function newest(dates: Array<Date | null>) {
  let latest: Date | null = null;
  for (const date of dates) if (date && (!latest || date > latest)) latest = date;
  return latest;
}

function smallSitemap(entries: SmallSitemap["entries"]): SmallSitemap {
  return { entries, lastmod: newest(entries.map((e) => e.lastmod)) };
}

export function urlsetXml(sitemap: SmallSitemap, origin: string) {
  return xmlHeader("urlset") + sitemap.entries.map((e) => urlEntry(absolute(origin, e.path), e.lastmod)).join("") + xmlFooter("urlset");
}

// ---- pages, categories, doctors ----

/** The static public pages and the published content pages, at the address the site links to. */
export function pagesSitemap(): Promise<SmallSitemap> {
  // Under the pages' cache prefix ("*" is never in a slug): a page write drops it.
  return memo(`${PAGE_CACHE_PREFIX}*sitemap`, sharedCacheMs(), async () => {
    const pages = await prisma.page.findMany({
      where: { isPublished: true, slug: { notIn: RESERVED_PAGE_SLUGS } },
      orderBy: { slug: "asc" },
      take: MAX_URLS - STATIC_PUBLIC_PATHS.length,
      select: { slug: true, updatedAt: true },
    });
    return smallSitemap([
      ...STATIC_PUBLIC_PATHS.map((path) => ({ path, lastmod: null })),
      // The footer links /about and /{slug} (the same page as /pages/{slug}, which is not linked).
      ...pages.map((page) => ({ path: `/${page.slug}`, lastmod: page.updatedAt })),
    ]);
  });
}

/** Main categories at /category/{slug}, subcategories at /category/{main}/{sub}. */
export function categoriesSitemap(): Promise<SmallSitemap> {
  return cached("sitemap:categories", async () => {
    const tree = await getCategoryTree();
    const ids = [...tree.byId.keys()];
    const rows = ids.length ? await prisma.category.findMany({ where: { id: { in: ids } }, select: { id: true, updatedAt: true } }) : [];
    const updatedAt = new Map(rows.map((row) => [row.id, row.updatedAt]));
    return smallSitemap(
      tree.mains.flatMap((main) => [
        { path: `/category/${encodeURIComponent(main.slug)}`, lastmod: updatedAt.get(main.id) ?? null },
        ...(tree.childrenOf.get(main.id) ?? []).map((sub) => ({
          path: `/category/${encodeURIComponent(main.slug)}/${encodeURIComponent(sub.slug)}`,
          lastmod: updatedAt.get(sub.id) ?? null,
        })),
      ]),
    );
  });
}

/** Active doctors' profiles (the condition of doctors.server.ts listDoctors and getDoctor). */
export function doctorsSitemap(): Promise<SmallSitemap> {
  return cached("sitemap:doctors", async () => {
    const doctors = await prisma.doctor.findMany({
      where: { isActive: true },
      orderBy: { slug: "asc" },
      take: MAX_URLS,
      select: { slug: true, updatedAt: true },
    });
    return smallSitemap(doctors.map((d) => ({ path: `/doctors/${encodeURIComponent(d.slug)}`, lastmod: d.updatedAt })));
  });
}

// ---- animations ----

/**
 * What an animation page shows changes with its row (Prisma sets updatedAt on every update: a
 * new media set, a recorded review), and when its review lapses: the page stops claiming it.
 */
const ANIMATION_LASTMOD = Prisma.sql`GREATEST(a."updatedAt", a."medicallyReviewedAt", CASE WHEN a."reviewDueAt" <= now() THEN a."reviewDueAt" END)`;

export type AnimationFilePlan = {
  /** From 1. */
  page: number;
  urls: number;
  lastmod: Date | null;
  /** The first row's key: createdAt as text (timestamp without zone, as stored) and id. */
  firstCreatedAt: string;
  firstId: string;
};

/**
 * How long the plan is kept when the caches are on: five minutes, as long as a shared cache may
 * keep a file (Cache-Control). Why longer than the catalogue's seconds: the plan is a scan of
 * every active animation (about 2 s at 100,000, bench/README.md), and a crawler reads the index
 * and then each file over minutes; with the catalogue's TTL every file would pay for the scan
 * again. A write on this instance, an admin's or the media pipeline's set switch, still drops it
 * at once (cache-registry.server.ts); other instances show it in the plan's lastmod and boundaries
 * within the five minutes (the rows themselves are read fresh for every file).
 */
const PLAN_CACHE_MS = 5 * 60_000;

/** Where each animation file starts: one scan of the active animations in (createdAt, id) order. */
export function animationPlan(): Promise<AnimationFilePlan[]> {
  const perFile = getEnv().SITEMAP_URLS_PER_FILE;
  const ttl = sharedCacheMs() && Math.max(sharedCacheMs(), PLAN_CACHE_MS);
  return cached(
    `sitemap:animation-plan:${perFile}`,
    async () => {
      const rows = await prisma.$queryRaw<
        Array<{ file: bigint | number; urls: bigint | number; lastmod: Date | null; firstCreatedAt: string; firstId: string }>
      >`
      WITH ranked AS (
        SELECT a."id", a."createdAt", ${ANIMATION_LASTMOD} AS "lastmod",
               row_number() OVER (ORDER BY a."createdAt", a."id") - 1 AS "n"
        FROM "Animation" AS a
        WHERE a."isActive"
      )
      SELECT "n" / ${perFile} AS "file", count(*) AS "urls", max("lastmod") AS "lastmod",
             max(CASE WHEN "n" % ${perFile} = 0 THEN "createdAt"::text END) AS "firstCreatedAt",
             max(CASE WHEN "n" % ${perFile} = 0 THEN "id"::text END) AS "firstId"
      FROM ranked
      GROUP BY 1
      ORDER BY 1`;
      return rows.map((row) => ({
        page: Number(row.file) + 1,
        urls: Number(row.urls),
        lastmod: row.lastmod,
        firstCreatedAt: row.firstCreatedAt,
        firstId: row.firstId,
      }));
    },
    ttl,
  );
}

type AnimationRow = {
  id: string;
  createdAtKey: string;
  createdAt: Date;
  slug: string;
  title: string;
  description: string;
  coverImage: string | null;
  previewVideo: string | null;
  previewSetId: string | null;
  duration: number;
  lastmod: Date | null;
};

function animationBatch(after: { createdAt: string; id: string; inclusive: boolean }, limit: number) {
  const from = after.inclusive
    ? Prisma.sql`(a."createdAt", a."id") >= (${after.createdAt}::timestamp, ${after.id}::uuid)`
    : Prisma.sql`(a."createdAt", a."id") > (${after.createdAt}::timestamp, ${after.id}::uuid)`;
  // The pipeline's preview is public (media-urls.server.ts) once the current set has one.
  return prisma.$queryRaw<AnimationRow[]>`
    SELECT a."id"::text AS "id", a."createdAt"::text AS "createdAtKey", a."createdAt", a."slug", a."title",
           left(a."description", 2048) AS "description", a."coverImage", a."previewVideo", a."duration",
           ${ANIMATION_LASTMOD} AS "lastmod",
           CASE WHEN EXISTS (SELECT 1 FROM "MediaRendition" AS r WHERE r."setId" = a."mediaSetId" AND r."kind" = 'preview')
                THEN a."mediaSetId"::text END AS "previewSetId"
    FROM "Animation" AS a
    WHERE a."isActive" AND ${from}
    ORDER BY a."createdAt", a."id"
    LIMIT ${limit}`;
}

function animationXml(row: AnimationRow, origin: string) {
  const loc = absolute(origin, `/animations/${encodeURIComponent(row.slug)}`);
  const preview = row.previewSetId ? previewUrls(row.previewSetId).mp4 : row.previewVideo;
  const cover = row.coverImage;
  // A video entry needs a thumbnail and a file anyone may fetch: only the public preview is one.
  const video =
    cover && preview
      ? {
          thumbnailLoc: absolute(origin, hasRenditions(cover) ? renditionUrl(cover, "16x9", 1280, "jpg") : cover),
          contentLoc: absolute(origin, preview),
          title: row.title,
          description: row.description,
          duration: row.duration,
          publishedAt: row.createdAt,
        }
      : null;
  return animationEntry(loc, row.lastmod, video) ?? "";
}

/** One animation file's plan, or null past the last (or with no active animation). */
export async function animationFile(page: number) {
  return (await animationPlan()).find((file) => file.page === page) ?? null;
}

/** What an animation file is made of, for its ETag: a change to any row in it moves its lastmod or count. */
export function animationFileTag(file: AnimationFilePlan, origin: string) {
  const facts = [file.page, file.urls, file.lastmod?.toISOString(), file.firstCreatedAt, file.firstId, origin, getEnv().MEDIA_BASE_URL ?? ""];
  return crypto.createHash("sha1").update(JSON.stringify(facts)).digest("base64url");
}

/** The file's XML, written a batch of rows at a time as the response is read. */
export function streamAnimationFile(file: AnimationFilePlan, origin: string): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  let cursor = { createdAt: file.firstCreatedAt, id: file.firstId, inclusive: true };
  let left = file.urls;
  let started = false;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (!started) {
        started = true;
        controller.enqueue(encoder.encode(xmlHeader("urlset", true)));
        return;
      }
      // Rows written since the plan was made may shift a boundary: the file never exceeds its count.
      const rows = left > 0 ? await animationBatch(cursor, Math.min(BATCH, left)) : [];
      if (rows.length) {
        controller.enqueue(encoder.encode(rows.map((row) => animationXml(row, origin)).join("")));
        left -= rows.length;
        const last = rows.at(-1)!;
        cursor = { createdAt: last.createdAtKey, id: last.id, inclusive: false };
      }
      if (!rows.length || left <= 0) {
        controller.enqueue(encoder.encode(xmlFooter("urlset")));
        controller.close();
      }
    },
  });
}

// ---- the index ----

export async function sitemapIndex(origin: string): Promise<string> {
  const [pages, categories, doctors, plan] = await Promise.all([pagesSitemap(), categoriesSitemap(), doctorsSitemap(), animationPlan()]);
  const refs = [
    sitemapRef(absolute(origin, SITEMAP_FILES.pages), pages.lastmod),
    // A kind with nothing public is left out rather than listed empty.
    categories.entries.length ? sitemapRef(absolute(origin, SITEMAP_FILES.categories), categories.lastmod) : "",
    doctors.entries.length ? sitemapRef(absolute(origin, SITEMAP_FILES.doctors), doctors.lastmod) : "",
    ...plan.map((file) => sitemapRef(absolute(origin, `${SITEMAP_FILES.animations}?page=${file.page}`), file.lastmod)),
  ];
  return xmlHeader("sitemapindex") + refs.join("") + xmlFooter("sitemapindex");
}
