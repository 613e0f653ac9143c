import { prisma } from "~/lib/db.server.ts";
import type { Prisma } from "~/generated/prisma/client.ts";
import { getTotalSpent } from "../commerce/payments.server.ts";
import { listPackageFiles, type PackageFile } from "../media/packages.server.ts";
import { activeLicenceWhere, heldWhere } from "./access.server.ts";

// The member's library (the animations their licences cover) and the dashboard's figures
// (decision 004). Read-only: the rows it reads are written by subscriptions and payments.

/**
 * The library lists what the user holds a licence for: individual licences and category
 * licences (every animation of a licensed category and of its sub-categories). A global
 * subscription or a premium account streams the whole catalogue, which the home page already
 * lists; the library does not repeat it (docs/decisions: "My Animations lists licences").
 */
async function activeLicences(userId: string, now: Date) {
  return prisma.subscription.findMany({
    where: activeLicenceWhere(now, { AND: [heldWhere(userId), { type: { in: ["individual", "category"] } }] }),
    select: { id: true, type: true, animationId: true, categoryId: true, endDate: true },
  });
}

type Licence = Awaited<ReturnType<typeof activeLicences>>[number];

export type LibraryFilter = { q?: string; licence?: "individual" | "category"; category?: string };

function libraryWhere(allLicences: Licence[], { q, licence, category }: LibraryFilter = {}): Prisma.AnimationWhereInput | null {
  const licences = licence ? allLicences.filter((l) => l.type === licence) : allLicences;
  const animationIds = [...new Set(licences.filter((l) => l.type === "individual" && l.animationId).map((l) => l.animationId!))];
  const categoryIds = [...new Set(licences.filter((l) => l.type === "category" && l.categoryId).map((l) => l.categoryId!))];
  // An individual licence keeps its animation after it is unpublished; a category licence covers
  // what the catalogue publishes (decision 032, the rule of access.server.ts's AccessTarget).
  const or: Prisma.AnimationWhereInput[] = [];
  if (animationIds.length) or.push({ id: { in: animationIds } });
  if (categoryIds.length) or.push({ isActive: true, OR: [{ categoryId: { in: categoryIds } }, { category: { parentId: { in: categoryIds } } }] });
  if (!or.length) return null;
  const where: Prisma.AnimationWhereInput = { OR: or };
  const and: Prisma.AnimationWhereInput[] = [];
  if (q) and.push({ OR: [{ title: { contains: q, mode: "insensitive" } }, { description: { contains: q, mode: "insensitive" } }] });
  if (category) and.push({ OR: [{ categoryId: category }, { category: { parentId: category } }] });
  if (and.length) where.AND = and;
  return where;
}

const libraryAnimationSelect = {
  id: true,
  slug: true,
  title: true,
  description: true,
  coverImage: true,
  duration: true,
  categoryId: true,
  category: { select: { name: true, parentId: true } },
} satisfies Prisma.AnimationSelect;

type LibraryRow = Prisma.AnimationGetPayload<{ select: typeof libraryAnimationSelect }>;

/**
 * Which licence gives the animation, and until when: the licence that lasts longest among those
 * that cover it (an individual licence wins a tie).
 */
function licenceFor(animation: LibraryRow, licences: Licence[]) {
  let best: { licenseType: "individual" | "category"; expiryDate: Date | null; licenceId: string | null } | null = null;
  const categories = [animation.categoryId, animation.category?.parentId].filter(Boolean);
  for (const l of licences) {
    const covers =
      (l.type === "individual" && l.animationId === animation.id) || (l.type === "category" && l.categoryId !== null && categories.includes(l.categoryId));
    if (!covers) continue;
    const type = l.type as "individual" | "category";
    const later = !best || (l.endDate?.getTime() ?? 0) > (best.expiryDate?.getTime() ?? 0);
    const tieIndividual = best && (l.endDate?.getTime() ?? 0) === (best.expiryDate?.getTime() ?? 0) && type === "individual";
    if (later || tieIndividual) best = { licenseType: type, expiryDate: l.endDate, licenceId: l.id };
  }
  return best ?? { licenseType: "category" as const, expiryDate: null, licenceId: null };
}

function toLibraryJson(animation: LibraryRow, licences: Licence[]) {
  const licence = licenceFor(animation, licences);
  return {
    id: animation.id,
    slug: animation.slug,
    title: animation.title,
    description: animation.description,
    coverImage: animation.coverImage,
    duration: animation.duration,
    categoryName: animation.category?.name ?? null,
    licenseType: licence.licenseType as "individual" | "category" | "global",
    expiryDate: licence.expiryDate,
    /** The subscription that gives it (its certificate is /licences/{licenceId}/certificate). */
    licenceId: licence.licenceId,
  };
}

export type LibraryAnimation = ReturnType<typeof toLibraryJson>;

export async function getLibrary(userId: string, options: LibraryFilter & { page?: number; pageSize?: number; now?: Date } = {}) {
  const { page = 1, pageSize = 24, now = new Date() } = options;
  const licences = await activeLicences(userId, now);
  const where = libraryWhere(licences, options);
  if (!where) return { animations: [] as LibraryAnimation[], total: 0, page, pageSize };
  const [rows, total] = await Promise.all([
    prisma.animation.findMany({
      where,
      orderBy: [{ title: "asc" }, { id: "asc" }],
      skip: (page - 1) * pageSize,
      take: pageSize,
      select: libraryAnimationSelect,
    }),
    prisma.animation.count({ where }),
  ]);
  return { animations: rows.map((r) => toLibraryJson(r, licences)), total, page, pageSize };
}

/** totalSpent: completed payments; activeSubscriptions: active and unexpired; licensed animations. */
export async function getDashboardStats(userId: string, now = new Date()) {
  const [totalSpent, activeSubscriptions, library] = await Promise.all([
    getTotalSpent(userId),
    prisma.subscription.count({ where: activeLicenceWhere(now, heldWhere(userId)) }),
    getLibrary(userId, { pageSize: 3, now }),
  ]);
  return {
    totalSpent,
    activeSubscriptions,
    licensedAnimations: library.total,
    recentAnimations: library.animations,
  };
}

export type DownloadEntry = LibraryAnimation & {
  /** The whole package (/packages/{slug}.zip), or null while the animation has nothing to package. */
  packageHref: string | null;
  files: (PackageFile & { href: string })[];
  downloads: { count: number; lastAt: Date | null };
};

/**
 * The Downloads library: every animation the member's or their practice's licences let them
 * download, filtered by licence, category and search, each with its package, its single files,
 * and how often this member downloaded it. Bounded: five queries for a page, whatever its size.
 */
export async function getDownloads(userId: string, options: LibraryFilter & { page?: number; pageSize?: number; now?: Date } = {}) {
  const { page = 1, pageSize = 24, now = new Date() } = options;
  const licences = await activeLicences(userId, now);
  const where = libraryWhere(licences, options);
  const everything = libraryWhere(licences);
  if (!where || !everything) return { animations: [] as DownloadEntry[], total: 0, page, pageSize, categories: [] as { id: string; name: string }[] };
  const [rows, total, categories] = await Promise.all([
    prisma.animation.findMany({
      where,
      orderBy: [{ title: "asc" }, { id: "asc" }],
      skip: (page - 1) * pageSize,
      take: pageSize,
      select: libraryAnimationSelect,
    }),
    prisma.animation.count({ where }),
    prisma.category.findMany({ where: { animations: { some: everything } }, orderBy: { name: "asc" }, select: { id: true, name: true } }),
  ]);
  const ids = rows.map((r) => r.id);
  const [files, counts] = await Promise.all([
    listPackageFiles(ids),
    ids.length
      ? prisma.download.groupBy({ by: ["animationId"], where: { userId, animationId: { in: ids } }, _count: { _all: true }, _max: { createdAt: true } })
      : [],
  ]);
  const animations = rows.map((row): DownloadEntry => {
    const own = files.get(row.id) ?? [];
    const count = counts.find((c) => c.animationId === row.id);
    return {
      ...toLibraryJson(row, licences),
      packageHref: own.length ? `/packages/${row.slug}.zip` : null,
      files: own.map((f) => ({ ...f, href: `/packages/${row.slug}/${f.name}` })),
      downloads: { count: count?._count._all ?? 0, lastAt: count?._max.createdAt ?? null },
    };
  });
  return { animations, total, page, pageSize, categories };
}
