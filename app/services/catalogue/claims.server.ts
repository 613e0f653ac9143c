import { prisma } from "~/lib/db.server.ts";
import { Prisma } from "~/generated/prisma/client.ts";
import { formatFileTypes, formatResolution, pluralize } from "~/lib/format.ts";
import { cardSelect, listOrder, toCardDto } from "./animations.server.ts";
import { cached, type CategoryTree, getCategoryTree } from "./categories.server.ts";
import type { AnimationCardDto } from "./types.ts";

// What the marketing pages may promise, computed from the published catalogue (a
// claim with no data behind it is not shown). Resolution and formats come from what was
// recorded when each file was stored (media-facts.server.ts); "new" is by publication date.

const DAY_MS = 24 * 60 * 60 * 1000;
/** "New animations added weekly" holds only while something was added in the last 7 days. */
export const WEEK_DAYS = 7;
/** The "New" shelf and the monthly count look back 30 days. */
export const NEW_DAYS = 30;
/** Cards on the home page's "New" shelf. */
export const NEW_SHELF_SIZE = 4;

export type CatalogueClaims = {
  /** The best resolution on offer ("4K", "480p"); null when no published video was probed. */
  resolution: string | null;
  /** The download formats on offer ("MP4 and WebM"); null when no package's contents are known. */
  formats: string | null;
  /** "New animations added weekly", "3 new animations in the last 30 days", or null. */
  freshness: string | null;
  newThisWeek: number;
  newThisMonth: number;
};

type ClaimsRow = { lines: number | null; week: bigint | number; month: bigint | number; formats: string[] | null };

/** The whole published catalogue's claims, or those of some categories (a category license). */
export function getCatalogueClaims({ categoryIds, now = new Date() }: { categoryIds?: string[]; now?: Date } = {}): Promise<CatalogueClaims> {
  const scope = categoryIds ? Prisma.sql`AND "categoryId" IN (${Prisma.join(categoryIds.map((id) => Prisma.sql`${id}::uuid`))})` : Prisma.empty;
  if (categoryIds?.length === 0) return Promise.resolve({ resolution: null, formats: null, freshness: null, newThisWeek: 0, newThisMonth: 0 });
  return cached(`claims:${categoryIds?.join(",") ?? ""}`, async () => {
    const [row] = await prisma.$queryRaw<ClaimsRow[]>`
      SELECT max(LEAST("videoWidth", "videoHeight")) AS "lines",
             count(*) FILTER (WHERE "createdAt" > ${new Date(now.getTime() - WEEK_DAYS * DAY_MS)}) AS "week",
             count(*) FILTER (WHERE "createdAt" > ${new Date(now.getTime() - NEW_DAYS * DAY_MS)}) AS "month",
             array(
               SELECT unnest("downloadFormats") FROM "Animation" WHERE "isActive" ${scope}
               UNION
               -- The pipeline's download renditions of the sets animations play (download.mp4, download.webm).
               SELECT upper(substring(r."file" from '\.([a-z0-9]+)$')) FROM "MediaRendition" r
               JOIN "Animation" ON "Animation"."mediaSetId" = r."setId"
               WHERE r."kind" = 'download' AND "isActive" ${scope}
               UNION
               -- Before any download rendition, a package carries the master as uploaded (packages.server.ts).
               SELECT CASE o."contentType" WHEN 'video/mp4' THEN 'MP4' WHEN 'video/webm' THEN 'WEBM' WHEN 'video/quicktime' THEN 'MOV' END
               FROM "Animation" JOIN "StoredObject" o ON "Animation"."fullVideo" = '/objects/uploads/' || o."id"::text
               WHERE "isActive" ${scope} AND o."contentType" IN ('video/mp4', 'video/webm', 'video/quicktime')
                 AND NOT EXISTS (SELECT 1 FROM "MediaRendition" d WHERE d."setId" = "Animation"."mediaSetId" AND d."kind" = 'download')
               ORDER BY 1) AS "formats"
      FROM "Animation" WHERE "isActive" ${scope}`;
    const newThisWeek = Number(row?.week ?? 0);
    const newThisMonth = Number(row?.month ?? 0);
    return {
      resolution: row?.lines ? formatResolution(row.lines, row.lines) : null,
      formats: row?.formats?.length ? formatFileTypes(row.formats) : null,
      freshness: freshnessClaim(newThisWeek, newThisMonth),
      newThisWeek,
      newThisMonth,
    };
  });
}

export function freshnessClaim(newThisWeek: number, newThisMonth: number): string | null {
  if (newThisWeek > 0) return "New animations added weekly";
  if (newThisMonth > 0) return `${pluralize(newThisMonth, "new animation")} in the last ${NEW_DAYS} days`;
  return null;
}

/** The home page's "New" shelf: published in the last 30 days, newest first. */
export function listNewAnimationCards(tree?: CategoryTree, now = new Date()): Promise<AnimationCardDto[]> {
  return cached("new-shelf", async () => {
    const [t, rows] = await Promise.all([
      tree ?? getCategoryTree(),
      prisma.animation.findMany({
        where: { isActive: true, createdAt: { gt: new Date(now.getTime() - NEW_DAYS * DAY_MS) } },
        orderBy: listOrder,
        take: NEW_SHELF_SIZE,
        select: cardSelect,
      }),
    ]);
    return rows.map((row) => toCardDto(row, t));
  });
}
