import { prisma } from "~/lib/db.server.ts";
import { notFound } from "~/lib/errors.server.ts";
import { memo, sharedCacheMs } from "~/lib/memo.server.ts";
import type { CategoryDetailDto, CategoryDto, CategoryRef, SubcategoryDto } from "./types.ts";
import { UUID_RE } from "~/validation/account.ts";
import { categoryLicencePrice } from "../commerce/prices.server.ts";

// The public catalogue's category tree, and the short-lived cache every catalogue module reads
// through (animations, doctors); a write to what it reads drops it (cache-registry.server.ts).

/** Not-found texts of the catalogue (routes answer them with 404). */
export const NOT_FOUND = {
  animation: "Animation not found",
  category: "Category not found",
  doctor: "Doctor not found",
} as const;

/** Slug first, id as the fallback; a non-UUID never reaches the uuid column (that would throw). */
export function slugOrId(value: string) {
  return UUID_RE.test(value) ? { OR: [{ slug: value }, { id: value }] } : { slug: value };
}

// ---------------------------------------------------------------------------------------------
// Caching. Anonymous pages are the bulk of the traffic and read the same rows: the public,
// viewer-independent parts (category tree, list pages, an animation with its doctors) are kept
// for CATALOGUE_CACHE_MS (2 s), then read again. Viewer rights are applied after, on every
// request, so the cache never decides who sees what.

const CACHE_PREFIX = "catalogue:";

export function cached<T>(key: string, load: () => Promise<T>, ttlMs = sharedCacheMs()): Promise<T> {
  return memo(CACHE_PREFIX + key, ttlMs, load);
}

// ---------------------------------------------------------------------------------------------
// Categories: one query loads the whole (small) active tree with animation counts; every
// category screen, filter and breadcrumb reads from it instead of querying per item.

type CategoryNode = CategoryDto & { sortOrder: number };

export type CategoryTree = {
  byId: Map<string, CategoryNode>;
  bySlug: Map<string, CategoryNode>;
  mains: CategoryNode[];
  childrenOf: Map<string, CategoryNode[]>;
};

export function getCategoryTree(): Promise<CategoryTree> {
  return cached("tree", loadCategoryTree);
}

async function loadCategoryTree(): Promise<CategoryTree> {
  const rows = await prisma.category.findMany({
    where: { isActive: true },
    orderBy: [{ sortOrder: "asc" }, { name: "asc" }],
    select: {
      id: true,
      name: true,
      slug: true,
      description: true,
      thumbnail: true,
      yearlyPrice: true,
      parentId: true,
      sortOrder: true,
      animationCount: true,
    },
  });
  // yearlyPrice is what the category's licence costs (prices.server.ts): every screen, card and
  // /api answer that shows it reads it here, and checkout charges the same figure.
  const nodes: CategoryNode[] = rows.map((row) => ({ ...row, yearlyPrice: categoryLicencePrice(row) }));
  const byId = new Map(nodes.map((n) => [n.id, n]));
  // A subcategory of an inactive main category is hidden with it.
  const visible = nodes.filter((n) => n.parentId === null || byId.has(n.parentId));
  const childrenOf = new Map<string, CategoryNode[]>();
  for (const node of visible) {
    if (node.parentId) childrenOf.set(node.parentId, [...(childrenOf.get(node.parentId) ?? []), node]);
  }
  return {
    byId: new Map(visible.map((n) => [n.id, n])),
    bySlug: new Map(visible.map((n) => [n.slug, n])),
    mains: visible.filter((n) => n.parentId === null),
    childrenOf,
  };
}

export function findCategory(tree: CategoryTree, slugOrIdValue: string) {
  return tree.bySlug.get(slugOrIdValue) ?? tree.byId.get(slugOrIdValue) ?? null;
}

function toSubcategoryDto(node: CategoryNode): SubcategoryDto {
  return {
    id: node.id,
    name: node.name,
    slug: node.slug,
    description: node.description,
    yearlyPrice: node.yearlyPrice,
    animationCount: node.animationCount,
  };
}

function toCategoryDto(node: CategoryNode, tree: CategoryTree): CategoryDto {
  // A main category counts its own animations and its subcategories'.
  const children = tree.childrenOf.get(node.id) ?? [];
  return {
    ...toSubcategoryDto(node),
    animationCount: node.animationCount + children.reduce((sum, c) => sum + c.animationCount, 0),
    thumbnail: node.thumbnail,
    parentId: node.parentId,
  };
}

export function toRef(node: CategoryNode): CategoryRef {
  return { id: node.id, name: node.name, slug: node.slug };
}

function toCategoryDetail(node: CategoryNode, tree: CategoryTree): CategoryDetailDto {
  const parent = node.parentId ? tree.byId.get(node.parentId) : undefined;
  return {
    ...toCategoryDto(node, tree),
    parent: parent ? toRef(parent) : null,
    subcategories: (tree.childrenOf.get(node.id) ?? []).map(toSubcategoryDto),
  };
}

/** Every active category, mains and subcategories, flat (GET /api/categories). */
export function listCategories(): Promise<CategoryDto[]> {
  return cached("categories", async () => {
    const tree = await getCategoryTree();
    return [...tree.byId.values()].map((node) => toCategoryDto(node, tree));
  });
}

/** Main categories with their subcategories (GET /api/categories/main, the home filter bar). */
export function listMainCategories(tree?: CategoryTree): Promise<CategoryDetailDto[]> {
  if (tree) return Promise.resolve(tree.mains.map((node) => toCategoryDetail(node, tree)));
  return cached("mains", async () => {
    const t = await getCategoryTree();
    return t.mains.map((node) => toCategoryDetail(node, t));
  });
}

/** A category by slug or id, with its parent and subcategories. */
export async function getCategory(slugOrIdValue: string, loadedTree?: CategoryTree): Promise<CategoryDetailDto> {
  const tree = loadedTree ?? (await getCategoryTree());
  const node = findCategory(tree, slugOrIdValue);
  if (!node) throw notFound(NOT_FOUND.category);
  return toCategoryDetail(node, tree);
}

/**
 * A category by its path: `/main` must be a main category, `/main/sub` a subcategory of it
 * (GET /api/categories/path/..., the /category/{main}/{sub} screens).
 */
export async function getCategoryByPath(mainSlug: string, subSlug?: string, loadedTree?: CategoryTree): Promise<CategoryDetailDto> {
  const tree = loadedTree ?? (await getCategoryTree());
  const main = tree.bySlug.get(mainSlug);
  if (!main || main.parentId !== null) throw notFound(NOT_FOUND.category);
  if (subSlug === undefined) return toCategoryDetail(main, tree);
  const sub = tree.bySlug.get(subSlug);
  if (!sub || sub.parentId !== main.id) throw notFound(NOT_FOUND.category);
  return toCategoryDetail(sub, tree);
}
