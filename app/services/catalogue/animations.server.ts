import { prisma } from "~/lib/db.server.ts";
import { notFound } from "~/lib/errors.server.ts";
import { Prisma } from "~/generated/prisma/client.ts";
import { type Access, canDownload, canWatch } from "../licensing/access.server.ts";
import { individualLicencePrice } from "../commerce/prices.server.ts";
import { getSetting, settingNumber } from "../site/settings.server.ts";
import { cached, type CategoryTree, findCategory, getCategoryTree, NOT_FOUND, slugOrId, toRef } from "./categories.server.ts";
import { loadPlayerTracks } from "./captions.server.ts";
import { currentMedicalReview, medicalReviewSelect } from "./medical-review.server.ts";
import { mediaClaimsOf } from "./media-claims.ts";
import { getCurrentSet, playbackFor, previewUrls } from "../media/media-urls.server.ts";
import { listPackageFiles } from "../media/packages.server.ts";
import { getObjectInfo, objectIdFromPath } from "~/lib/storage.server.ts";
import { extensionForContentType } from "~/lib/upload.server.ts";
import type {
  AnimationCardDto,
  AnimationCategory,
  AnimationDetailDto,
  AnimationDto,
  AnimationList,
  AnimationSummaryDto,
  CaptionTrackDto,
  DoctorSummary,
  DownloadDto,
  PlaybackDto,
} from "./types.ts";
import { searchAnimations } from "./search.server.ts";
import { recordView } from "./views.server.ts";

// Animations of the public catalogue: lists (cards, summaries, full), one animation's detail.
// Every answer is shaped here for the viewer's rights, so no route can hand a full video or a
// download file to someone without the right.

/** Home page size when the setting is missing or invalid. */
export const DEFAULT_HOME_PAGE_SIZE = 6;
/** The subcategory and category listings show at most 50 animations. */
export const CATEGORY_LIST_LIMIT = 50;

export const cardSelect = {
  id: true,
  slug: true,
  title: true,
  coverImage: true,
  previewVideo: true,
  mediaSetId: true,
  duration: true,
  categoryId: true,
  individualPrice: true,
} satisfies Prisma.AnimationSelect;

const fullSelect = {
  ...cardSelect,
  description: true,
  fullVideo: true,
  downloadFile: true,
  views: true,
  createdAt: true,
} satisfies Prisma.AnimationSelect;

/** The detail adds the medical review record and the probed media facts (its caption tracks come beside the doctors). */
const detailSelect = { ...fullSelect, ...medicalReviewSelect, videoWidth: true, videoHeight: true, downloadFormats: true } satisfies Prisma.AnimationSelect;

type CardRow = Prisma.AnimationGetPayload<{ select: typeof cardSelect }>;
type FullRow = Prisma.AnimationGetPayload<{ select: typeof fullSelect }>;

export const doctorSummarySelect = { id: true, slug: true, name: true, specialty: true, photo: true } satisfies Prisma.DoctorSelect;

export function toCardDto(row: CardRow, tree: CategoryTree): AnimationCardDto {
  return {
    id: row.id,
    slug: row.slug,
    title: row.title,
    coverImage: row.coverImage,
    // The pipeline's preview (cut from its 720p rung) once a set exists, the stored one before.
    previewVideo: row.mediaSetId ? previewUrls(row.mediaSetId).mp4 : row.previewVideo,
    duration: row.duration,
    categoryId: row.categoryId,
    categoryName: row.categoryId ? (tree.byId.get(row.categoryId)?.name ?? null) : null,
    individualPrice: individualLicencePrice(row.individualPrice),
  };
}

/** What the access rules need: the animation, its category and that category's parent. */
function accessTarget(row: { id: string; categoryId: string | null }, tree: CategoryTree) {
  const parentId = row.categoryId ? (tree.byId.get(row.categoryId)?.parentId ?? null) : null;
  return { id: row.id, categoryId: row.categoryId, category: { parentId } };
}

/**
 * THE place where an animation meets a viewer: the full video and the download file survive
 * only for a viewer with the matching right; everyone else gets null and the preview.
 */
export function toAnimationDto(row: FullRow, doctors: DoctorSummary[], access: Access, tree: CategoryTree): AnimationDto {
  const target = accessTarget(row, tree);
  const watch = canWatch(access, target);
  const download = canDownload(access, target);
  return {
    ...toCardDto(row, tree),
    description: row.description,
    fullVideo: watch ? row.fullVideo : null,
    downloadFile: download ? row.downloadFile : null,
    hasAccess: watch,
    canDownload: download,
    views: row.views,
    createdAt: row.createdAt.toISOString(),
    doctors,
  };
}

export type AnimationListQuery = {
  /** Category slug or id; a main category includes its subcategories. */
  category?: string;
  search?: string;
  /** From 1. */
  page: number;
  limit: number;
  /** How many consecutive pages from `page` on (the no-JS home renders pages 1..N at once). */
  pages?: number;
  /** Rows read past the last page (home-list.server.ts reads as many as its "New" shelf may hold). */
  readAhead?: number;
};

function listWhere(query: AnimationListQuery, tree: CategoryTree) {
  const where: Prisma.AnimationWhereInput = { isActive: true };
  if (query.category) {
    const node = findCategory(tree, query.category);
    if (!node) throw notFound(NOT_FOUND.category);
    const ids = [node.id, ...(tree.childrenOf.get(node.id) ?? []).map((c) => c.id)];
    where.categoryId = ids.length === 1 ? ids[0] : { in: ids };
  }
  // A search term is matched by searchPage, in SQL.
  return where;
}

// Newest first, matching the (isActive, createdAt desc, id) and (isActive, categoryId, ...) indexes.
export const listOrder = [{ createdAt: "desc" }, { id: "desc" }] satisfies Prisma.AnimationOrderByWithRelationInput[];

type ListPage<Row> = { rows: Row[]; total: number; hasMore: boolean; suggestion?: string };

/**
 * One page of rows and the total. The count reads the index, not the rows; past the end there
 * is nothing to fetch. Cached per query (viewer-independent rows only).
 */
function fetchPage<S extends Prisma.AnimationSelect>(kind: string, select: S, query: AnimationListQuery, tree: CategoryTree) {
  const where = listWhere(query, tree);
  const skip = (query.page - 1) * query.limit;
  const span = query.limit * (query.pages ?? 1);
  const take = span + (query.readAhead ?? 0);
  const term = query.search?.trim() ?? "";
  const key = `list:${kind}:${JSON.stringify(where.categoryId ?? null)}:${term.toLowerCase()}:${skip}:${take}`;
  type Row = Prisma.AnimationGetPayload<{ select: S }>;
  return cached(key, async (): Promise<ListPage<Row>> => {
    if (term) return searchPage<Row>(where, term, skip, take, span, select, tree);
    const total = await countListed(where, tree);
    const rows = skip >= total ? [] : await prisma.animation.findMany({ where, orderBy: listOrder, skip, take, select });
    return { rows: rows as Row[], total, hasMore: skip + span < total };
  });
}

/**
 * How many active animations a listing holds, from the per-category counts a trigger keeps
 * (migration 20261121200000) rather than by counting rows: the same cost for 30 animations or
 * 30,000. Without a category filter: every category's count plus the uncategorised ones.
 */
async function countListed(where: Prisma.AnimationWhereInput, tree: CategoryTree): Promise<number> {
  if (where.categoryId !== undefined) {
    const ids = typeof where.categoryId === "string" ? [where.categoryId] : (where.categoryId as { in: string[] }).in;
    return ids.reduce((sum, id) => sum + (tree.byId.get(id)?.animationCount ?? 0), 0);
  }
  const [row] = await prisma.$queryRaw<Array<{ total: bigint | number }>>`
    SELECT (SELECT COALESCE(SUM("animationCount"), 0) FROM "Category")
         + (SELECT count(*) FROM "Animation" WHERE "categoryId" IS NULL AND "isActive") AS "total"`;
  return Number(row?.total ?? 0);
}

/**
 * A search's page (searchAnimations ranks and counts the matches in SQL), then the page's rows
 * by primary key, in rank order.
 */
async function searchPage<Row>(
  where: Prisma.AnimationWhereInput,
  term: string,
  skip: number,
  take: number,
  span: number,
  select: Prisma.AnimationSelect,
  tree: CategoryTree,
) {
  const categoryIds =
    where.categoryId === undefined ? null : typeof where.categoryId === "string" ? [where.categoryId] : (where.categoryId as { in: string[] }).in;
  const { ids, total, suggestion } = await searchAnimations(term, { categoryIds }, tree, skip, take);
  const found = ids.length ? ((await prisma.animation.findMany({ where: { id: { in: ids } }, select })) as unknown as Array<Row & { id: string }>) : [];
  const byId = new Map(found.map((row) => [row.id, row]));
  const rows = ids.map((id) => byId.get(id)).filter((row): row is Row & { id: string } => row !== undefined);
  return { rows: rows as Row[], total, hasMore: skip + span < total, ...(suggestion ? { suggestion } : {}) };
}

/** Cards for the home page, search and `light=true` calls: no access-dependent fields at all. */
export async function listAnimationCards(query: AnimationListQuery, tree?: CategoryTree): Promise<AnimationList<AnimationCardDto>> {
  const t = tree ?? (await getCategoryTree());
  // Cards carry nothing viewer-specific: the finished list is cached, not only its rows.
  return cached(
    `cards:${JSON.stringify([query.category ?? "", query.search?.trim().toLowerCase() ?? "", query.page, query.limit, query.pages ?? 1, query.readAhead ?? 0])}`,
    async () => {
      const { rows, total, hasMore, suggestion } = await fetchPage("card", cardSelect, query, t);
      return { animations: rows.map((row) => toCardDto(row, t)), hasMore, total, ...(suggestion ? { suggestion } : {}) };
    },
  );
}

/** Full animations shaped for this viewer (`light=false` calls). */
export async function listAnimations(query: AnimationListQuery, access: Access): Promise<AnimationList<AnimationDto>> {
  const tree = await getCategoryTree();
  const { rows, total, hasMore, suggestion } = await fetchPage("full", fullSelect, query, tree);
  const doctors = await doctorsFor(rows.map((r) => r.id));
  return { animations: rows.map((row) => toAnimationDto(row, doctors.get(row.id) ?? [], access, tree)), hasMore, total, ...(suggestion ? { suggestion } : {}) };
}

const summarySelect = { ...cardSelect, description: true, views: true } satisfies Prisma.AnimationSelect;

/** Category and subcategory grids: public fields and this viewer's `hasAccess`, no video links. */
export async function listAnimationSummaries(query: AnimationListQuery, access: Access, tree?: CategoryTree): Promise<AnimationList<AnimationSummaryDto>> {
  const t = tree ?? (await getCategoryTree());
  const { rows, total, hasMore } = await fetchPage("summary", summarySelect, query, t);
  return {
    animations: rows.map((row) => ({
      ...toCardDto(row, t),
      description: row.description,
      views: row.views,
      hasAccess: canWatch(access, accessTarget(row, t)),
    })),
    hasMore,
    total,
  };
}

/** The active doctors of several animations in one query. */
function doctorsFor(animationIds: string[]): Promise<Map<string, DoctorSummary[]>> {
  if (!animationIds.length) return Promise.resolve(new Map());
  return cached(`doctors-of:${animationIds.join(",")}`, () => loadDoctorsFor(animationIds));
}

async function loadDoctorsFor(animationIds: string[]): Promise<Map<string, DoctorSummary[]>> {
  const byAnimation = new Map<string, DoctorSummary[]>();
  const doctors = await prisma.doctor.findMany({
    where: { isActive: true, animations: { some: { animationId: { in: animationIds } } } },
    orderBy: { name: "asc" },
    select: { ...doctorSummarySelect, animations: { where: { animationId: { in: animationIds } }, select: { animationId: true } } },
  });
  for (const { animations, ...doctor } of doctors) {
    for (const { animationId } of animations) byAnimation.set(animationId, [...(byAnimation.get(animationId) ?? []), doctor]);
  }
  return byAnimation;
}

/**
 * One animation by slug (id as the fallback) for this viewer. `countView` counts one view
 * (the detail page does; HEAD requests and the /api call do not).
 */
export async function getAnimation(
  slugOrIdValue: string,
  access: Access,
  { countView = false, path }: { countView?: boolean; path?: { mainSlug: string; subSlug: string } } = {},
): Promise<AnimationDetailDto> {
  const [tree, found] = await Promise.all([getCategoryTree(), cached(`animation:${slugOrIdValue}`, () => loadAnimation(slugOrIdValue))]);
  if (!found) throw notFound(NOT_FOUND.animation);
  const { row, doctors, tracks, transcript, set, packagedVideos } = found;
  // Within /category/{main}/{sub}/{slug} the animation must belong to that subcategory.
  if (path) {
    const sub = row.categoryId ? tree.byId.get(row.categoryId) : undefined;
    const main = sub?.parentId ? tree.byId.get(sub.parentId) : undefined;
    if (sub?.slug !== path.subSlug || main?.slug !== path.mainSlug) throw notFound(NOT_FOUND.animation);
  }
  if (countView) await recordView(row.id);
  const dto = toAnimationDto(row, doctors, access, tree);
  if (countView) dto.views += 1;
  return {
    ...dto,
    category: animationCategory(row.categoryId, tree),
    captions: tracks,
    transcript,
    // Judged per request, not cached: a review stops being claimed the moment its next date passes.
    medicalReview: currentMedicalReview(row),
    // The package's videos: the set's download files, or before any, the master as uploaded (packages.server.ts).
    media: mediaClaimsOf({ ...row, mediaSet: { renditions: packagedVideos } }),
    playback: set ? playbackFor(set, access.userId ? { userId: access.userId, watch: dto.hasAccess } : null) : null,
  };
}

async function loadAnimation(slugOrIdValue: string) {
  const row = await prisma.animation.findFirst({ where: { isActive: true, ...slugOrId(slugOrIdValue) }, select: detailSelect });
  if (!row) return null;
  const [doctors, { tracks, transcript }, set] = await Promise.all([
    prisma.doctor.findMany({
      where: { isActive: true, animations: { some: { animationId: row.id } } },
      orderBy: { name: "asc" },
      select: doctorSummarySelect,
    }),
    loadPlayerTracks(row.id, { withTranscript: true }),
    getCurrentSet(row.mediaSetId),
  ]);
  const downloads = set?.renditions.filter((r) => r.kind === "download") ?? [];
  const masterId = downloads.length ? null : objectIdFromPath(row.fullVideo);
  const master = masterId ? await getObjectInfo(masterId) : null;
  const masterExt = master && extensionForContentType(master.contentType);
  const packagedVideos = masterExt ? [{ file: `master.${masterExt}`, width: row.videoWidth, height: row.videoHeight }] : downloads;
  return { row, doctors, tracks, transcript, set, packagedVideos };
}

/** What a side-column entry shows: no preview, price or category (every page carries eight). */
export type RelatedAnimation = { id: string; slug: string; title: string; coverImage: string | null; duration: number };

const relatedSelect = { id: true, slug: true, title: true, coverImage: true, duration: true } satisfies Prisma.AnimationSelect;

/** How many animations each list of the detail page's side column shows. */
export const RELATED_LIMIT = 4;

/**
 * The detail page's side column: more animations of the same subcategory, and more by the
 * animation's first doctor (none repeated, the animation itself left out). Two bounded queries
 * (the category's newest-first index; the doctor's links), cached with the catalogue.
 */
export function listRelatedAnimations(animation: { id: string; categoryId: string | null }, doctorId: string | null) {
  return cached(`related:${animation.id}:${doctorId ?? ""}`, async () => {
    const [sameCategory, byDoctor] = await Promise.all([
      animation.categoryId
        ? prisma.animation.findMany({
            where: { isActive: true, categoryId: animation.categoryId, id: { not: animation.id } },
            orderBy: listOrder,
            take: RELATED_LIMIT,
            select: relatedSelect,
          })
        : Promise.resolve([]),
      doctorId
        ? prisma.animation.findMany({
            where: { isActive: true, id: { not: animation.id }, doctors: { some: { doctorId } } },
            orderBy: listOrder,
            take: RELATED_LIMIT * 2,
            select: relatedSelect,
          })
        : Promise.resolve([]),
    ]);
    const shown = new Set(sameCategory.map((row) => row.id));
    return {
      sameCategory,
      byDoctor: byDoctor.filter((row) => !shown.has(row.id)).slice(0, RELATED_LIMIT),
    };
  });
}

function animationCategory(categoryId: string | null, tree: CategoryTree): AnimationCategory | null {
  const node = categoryId ? tree.byId.get(categoryId) : undefined;
  if (!node) return null;
  const parent = node.parentId ? tree.byId.get(node.parentId) : undefined;
  return { ...toRef(node), yearlyPrice: node.yearlyPrice, parent: parent ? toRef(parent) : null };
}

/**
 * The home page size (setting homepage_animations_per_page, default 6, at most 100). Read through
 * the settings' own cache, not kept under the catalogue's: a settings write drops only theirs.
 */
export async function getHomePageSize(): Promise<number> {
  return Math.min(100, Math.floor(settingNumber(await getSetting("homepage_animations_per_page"), DEFAULT_HOME_PAGE_SIZE)));
}

export type Playable =
  | {
      watchable: true;
      animation: {
        id: string;
        slug: string;
        title: string;
        description: string;
        coverImage: string | null;
        fullVideo: string | null;
        duration: number | null;
        categoryName: string | null;
        /** Only with a download right (a licence); null otherwise. */
        downloadFile: string | null;
        captions: CaptionTrackDto[];
        playback: PlaybackDto | null;
        /** The licence package and each of its files (/packages/…), with a download right; empty otherwise. */
        downloads: DownloadDto[];
      };
    }
  /** No right to the full video: the animation's own page, with its preview. */
  | { watchable: false; pageHref: string };

/** The licence package of an animation and each of its files, as download links: for someone with the download right. */
export async function packageDownloads(animation: { id: string; slug: string }): Promise<DownloadDto[]> {
  const files = (await listPackageFiles([animation.id])).get(animation.id) ?? [];
  if (!files.length) return [];
  return [
    { label: "License package (ZIP)", format: "ZIP", href: `/packages/${animation.slug}.zip`, bytes: null },
    ...files.map((f) => ({
      label: `${f.label}${f.width && f.height ? `, ${Math.min(f.width, f.height)}p` : ""}`,
      format: f.format,
      href: `/packages/${animation.slug}/${f.name}`,
      bytes: f.size,
    })),
  ];
}

/** The full player's animation (/watch/{id}) as this viewer may have it; 404 for an unknown id. */
export async function getPlayableAnimation(id: string, access: Access): Promise<Playable> {
  // The tracks are asked for beside the animation: a few wasted rows for an unknown id or a
  // viewer without the right, one round trip less for everyone who may watch.
  const [row, { tracks }] = await Promise.all([
    // Unpublished too: a licence that names it keeps playing it (decision 032); canWatch decides.
    prisma.animation.findFirst({
      where: { id },
      select: {
        id: true,
        isActive: true,
        slug: true,
        title: true,
        description: true,
        coverImage: true,
        fullVideo: true,
        downloadFile: true,
        duration: true,
        categoryId: true,
        mediaSetId: true,
        category: { select: { name: true, parentId: true } },
      },
    }),
    loadPlayerTracks(id),
  ]);
  if (!row) throw notFound(NOT_FOUND.animation);
  if (!canWatch(access, row)) {
    // An unpublished animation has no public page to send a viewer to.
    if (!row.isActive) throw notFound(NOT_FOUND.animation);
    return { watchable: false, pageHref: `/animations/${row.slug || row.id}` };
  }
  const { categoryId: _, category, downloadFile, mediaSetId, isActive: __, ...shown } = row;
  const download = canDownload(access, row);
  const [set, downloads] = await Promise.all([getCurrentSet(mediaSetId), download ? packageDownloads(row) : []]);
  const userId = access.userId;
  return {
    watchable: true,
    animation: {
      ...shown,
      categoryName: category?.name ?? null,
      downloadFile: download ? downloadFile : null,
      captions: tracks,
      playback: set && userId ? playbackFor(set, { userId, watch: true }) : null,
      downloads,
    },
  };
}
