import { prisma } from "~/lib/db.server.ts";
import { findCategory, getCategoryTree, listMainCategories, slugOrId } from "./catalogue/categories.server.ts";
import { categoryLicencePrice, DEFAULT_CATEGORY_LICENCE_PRICE, DEFAULT_PREMIUM_YEARLY_PRICE, premiumPrice } from "./prices.server.ts";
import { getSetting, settingNumber } from "./settings.server.ts";

// What is offered for sale: the premium plan at its current price, the categories and
// animations a licence can be bought for, and what a category licence costs at least. The
// figures come from prices.server.ts; this module finds the items they apply to.

/** The premium plan's price: the setting global_subscription_yearly_price, $99 when unset. */
export async function getPremiumPrice() {
  return premiumPrice(settingNumber(await getSetting("global_subscription_yearly_price"), DEFAULT_PREMIUM_YEARLY_PRICE));
}

// The category questions below read the cached category tree of the catalogue (one query for
// the whole tree, shared with every category screen) instead of querying again.

/** The active category a licence page is about, by slug or id; null when there is none. */
export async function findLicensableCategory(slugOrId: string | null) {
  if (!slugOrId || slugOrId.length > 200) return null;
  const category = findCategory(await getCategoryTree(), slugOrId);
  return category && { id: category.id, name: category.name, slug: category.slug, isMain: !category.parentId, price: categoryLicencePrice(category.yearlyPrice) };
}

/**
 * The category licence when no category is chosen: the lowest price over the sub-categories
 * (what one licence costs at least) and whether they all cost the same.
 */
export async function getCategoryLicenceFromPrice() {
  const tree = await getCategoryTree();
  const prices = [...tree.childrenOf.values()].flat().map((sub) => categoryLicencePrice(sub.yearlyPrice));
  if (prices.length === 0) return { price: DEFAULT_CATEGORY_LICENCE_PRICE, varies: false };
  const lowest = Math.min(...prices);
  return { price: lowest, varies: prices.some((p) => p !== lowest) };
}

/**
 * What can be licensed, for /global-license: each active main category with its active
 * sub-categories and their prices. A main category is offered as a whole only when an admin
 * gave it a yearlyPrice (main categories carry no price by default; decision 009).
 */
export async function listLicensableCategories() {
  const tree = await getCategoryTree();
  return tree.mains.map((main) => ({
    id: main.id,
    name: main.name,
    slug: main.slug,
    description: main.description,
    price: main.yearlyPrice === null ? null : categoryLicencePrice(main.yearlyPrice),
    subcategories: (tree.childrenOf.get(main.id) ?? []).map((sub) => ({
      id: sub.id,
      name: sub.name,
      slug: sub.slug,
      description: sub.description,
      price: categoryLicencePrice(sub.yearlyPrice),
      animationCount: sub.animationCount,
    })),
  }));
}

/** The licence pages' "Available Specialties": each main category with its published animations, its subcategories' included. */
export async function listSpecialties() {
  const mains = await listMainCategories();
  return mains.map((c) => ({ name: c.name, slug: c.slug, animationCount: c.animationCount }));
}

/** The animation an individual licence page is about, by id or slug; null when unknown. */
export async function findLicensableAnimation(idOrSlug: string | null) {
  if (!idOrSlug || idOrSlug.length > 200) return null;
  return prisma.animation.findFirst({
    where: { isActive: true, ...slugOrId(idOrSlug) },
    select: { id: true, slug: true, title: true },
  });
}
