import { prisma, uniqueViolation } from "~/lib/db.server.ts";
import { conflict, notFound, ServiceError } from "~/lib/errors.server.ts";
import { confirmChangedUploads } from "~/lib/upload-form.server.ts";
import type { Prisma } from "~/generated/prisma/client.ts";
import { UUID_RE } from "~/validation/account.ts";
import { type CategoryInput, slugFromName } from "~/validation/admin-catalogue.ts";
import { type Actor, recordAudit } from "../admin/audit.server.ts";
import { activeLicenceWhere } from "../licensing/access.server.ts";
import { NOT_FOUND } from "./categories.server.ts";

// Categories in the back office (/admin/categories and its /api calls). Main categories have no
// parent and no price; a sub-category's parent is a main category. Deleting (decision 009): refused
// while the category has sub-categories or active category licences; otherwise its animations are
// left without a category (and say so first).

export const CATEGORIES_PAGE_SIZE = 20;
export const MAIN_HAS_NO_PRICE = "Main categories have no yearly price: only sub-categories are sold as licenses";
export const PARENT_MUST_BE_MAIN = "Choose an existing main category";
export const HAS_SUBCATEGORIES = "Delete or move its sub-categories first";
export const HAS_ACTIVE_LICENCES = "This category has active licenses. Deactivate it instead.";

const adminCategorySelect = {
  id: true,
  name: true,
  slug: true,
  description: true,
  thumbnail: true,
  yearlyPrice: true,
  parentId: true,
  sortOrder: true,
  isActive: true,
  animationCount: true,
  createdAt: true,
  updatedAt: true,
  parent: { select: { name: true } },
  _count: { select: { children: true, animations: true } },
} satisfies Prisma.CategorySelect;

type Row = Prisma.CategoryGetPayload<{ select: typeof adminCategorySelect }>;

function toAdminCategory({ _count, parent, yearlyPrice, ...row }: Row) {
  return {
    ...row,
    yearlyPrice: yearlyPrice === null ? null : Number(yearlyPrice),
    parentName: parent?.name ?? null,
    subcategoryCount: _count.children,
    // Every animation in it, published or not (animationCount counts the published ones).
    totalAnimations: _count.animations,
  };
}

export type AdminCategory = ReturnType<typeof toAdminCategory>;
export type CategoryTab = "main" | "sub";

export async function listAdminCategories({ tab, search, page }: { tab: CategoryTab; search?: string; page: number }) {
  const term = search?.trim();
  const contains = term ? { contains: term, mode: "insensitive" as const } : null;
  const where: Prisma.CategoryWhereInput = {
    parentId: tab === "main" ? null : { not: null },
    ...(contains ? { OR: [{ name: contains }, { slug: contains }] } : {}),
  };
  const [rows, mainCount, subCount, average] = await Promise.all([
    prisma.category.findMany({
      where,
      select: adminCategorySelect,
      orderBy: [{ sortOrder: "asc" }, { name: "asc" }, { id: "asc" }],
      skip: (page - 1) * CATEGORIES_PAGE_SIZE,
      take: CATEGORIES_PAGE_SIZE + 1,
    }),
    prisma.category.count({ where: { parentId: null } }),
    prisma.category.count({ where: { parentId: { not: null } } }),
    // The average price is the mean yearlyPrice across the sub-categories.
    prisma.category.aggregate({ where: { parentId: { not: null }, yearlyPrice: { not: null } }, _avg: { yearlyPrice: true } }),
  ]);
  return {
    categories: rows.slice(0, CATEGORIES_PAGE_SIZE).map(toAdminCategory),
    page,
    hasNext: rows.length > CATEGORIES_PAGE_SIZE,
    counts: { main: mainCount, sub: subCount },
    averageSubPrice: average._avg.yearlyPrice === null ? null : Number(average._avg.yearlyPrice),
  };
}

export async function getAdminCategory(id: string) {
  if (!UUID_RE.test(id)) return null;
  const row = await prisma.category.findUnique({ where: { id }, select: adminCategorySelect });
  return row ? toAdminCategory(row) : null;
}

/** The main categories a sub-category may belong to (the parent select). */
export function listMainCategoryOptions() {
  return prisma.category.findMany({ where: { parentId: null }, select: { id: true, name: true }, orderBy: [{ sortOrder: "asc" }, { name: "asc" }] });
}

async function checkedValues(input: CategoryInput, id?: string) {
  if (input.parentId) {
    if (input.parentId === id) throw new ServiceError("A category cannot be its own parent", 400, "parentId");
    const parent = await prisma.category.findUnique({ where: { id: input.parentId }, select: { parentId: true } });
    if (!parent || parent.parentId !== null) throw new ServiceError(PARENT_MUST_BE_MAIN, 400, "parentId");
    if (id && (await prisma.category.count({ where: { parentId: id } })) > 0) {
      throw new ServiceError("A main category with sub-categories cannot become a sub-category", 400, "parentId");
    }
  } else if (input.yearlyPrice !== null) {
    throw new ServiceError(MAIN_HAS_NO_PRICE, 400, "yearlyPrice");
  }
  const slug = input.slug ?? slugFromName(input.name);
  if (!slug) throw new ServiceError("Enter a slug: the name has no letters or digits to make one from", 400, "slug");
  return {
    name: input.name,
    slug,
    description: input.description ?? null,
    thumbnail: input.thumbnail ?? null,
    yearlyPrice: input.parentId ? input.yearlyPrice : null,
    parentId: input.parentId,
    sortOrder: input.sortOrder,
    isActive: input.isActive,
  };
}

function uniqueConflict(error: unknown): never {
  const violation = uniqueViolation(error);
  if (violation) {
    throw violation.target.includes("slug") ? conflict("This slug is already in use", "slug") : conflict("A category with this name already exists", "name");
  }
  throw error;
}

const summaryOf = (values: { name: string; parentId: string | null }) => `${values.parentId ? "sub-category" : "main category"} “${values.name}”`;

/** `confirmPriceChange` runs before anything is written when the new sub-category names a price. */
export async function createCategory(actor: Actor, input: CategoryInput, confirmPriceChange: () => Promise<unknown>) {
  const values = await checkedValues(input);
  if (values.yearlyPrice !== null) await confirmPriceChange();
  await confirmChangedUploads({ thumbnail: values.thumbnail }, {}, { thumbnail: "thumbnail" });
  const created = await prisma
    .$transaction(async (tx) => {
      const row = await tx.category.create({ data: values, select: adminCategorySelect });
      await recordAudit(tx, actor, {
        action: "category.create",
        entityType: "category",
        entityId: row.id,
        summary: `Created ${summaryOf(values)}`,
        after: values,
      });
      return row;
    })
    .catch(uniqueConflict);
  return toAdminCategory(created);
}

/**
 * `confirmPriceChange` runs before anything is written when the yearly price changes (a main
 * category's is none): a price is guarded by step-up (decision 019), the other fields are not.
 */
export async function updateCategory(actor: Actor, id: string, input: CategoryInput, confirmPriceChange: () => Promise<unknown>) {
  const current = await getAdminCategory(id);
  if (!current) throw notFound(NOT_FOUND.category);
  const price = (value: number | string | null) => (value === null ? null : Number(value).toFixed(2));
  if (price(input.parentId ? input.yearlyPrice : null) !== price(current.yearlyPrice)) await confirmPriceChange();
  const values = await checkedValues({ ...input, slug: input.slug ?? current.slug }, id);
  await confirmChangedUploads({ thumbnail: values.thumbnail }, { thumbnail: current.thumbnail }, { thumbnail: "thumbnail" });
  const updated = await prisma
    .$transaction(async (tx) => {
      const row = await tx.category.update({ where: { id }, data: values, select: adminCategorySelect });
      const { name, slug, description, thumbnail, yearlyPrice, parentId, sortOrder, isActive } = current;
      await recordAudit(tx, actor, {
        action: "category.update",
        entityType: "category",
        entityId: id,
        summary: `Updated ${summaryOf(values)}`,
        before: { name, slug, description, thumbnail, yearlyPrice, parentId, sortOrder, isActive },
        after: { ...values, yearlyPrice: values.yearlyPrice === null ? null : Number(values.yearlyPrice) },
      });
      return row;
    })
    .catch(uniqueConflict);
  return toAdminCategory(updated);
}

export async function deleteCategory(actor: Actor, id: string, now = new Date()) {
  const current = await getAdminCategory(id);
  if (!current) throw notFound(NOT_FOUND.category);
  await prisma.$transaction(async (tx) => {
    // Locked so a sub-category or licence created meanwhile cannot slip past the checks.
    await tx.$queryRaw`SELECT id FROM "Category" WHERE id = ${id}::uuid FOR UPDATE`;
    if ((await tx.category.count({ where: { parentId: id } })) > 0) throw conflict(HAS_SUBCATEGORIES);
    const licences = await tx.subscription.count({ where: activeLicenceWhere(now, { categoryId: id }) });
    if (licences > 0) throw conflict(HAS_ACTIVE_LICENCES);
    // Animations, old licences and checkouts keep their rows with no category (onDelete: SetNull).
    await tx.category.delete({ where: { id } });
    await recordAudit(tx, actor, {
      action: "category.delete",
      entityType: "category",
      entityId: id,
      summary: `Deleted ${summaryOf(current)}; ${current.totalAnimations} animation${current.totalAnimations === 1 ? "" : "s"} left without a category`,
      before: { name: current.name, slug: current.slug, parentId: current.parentId, yearlyPrice: current.yearlyPrice },
    });
  });
  return current;
}
