import { prisma } from "~/lib/db.server.ts";
import { findCategory, getCategoryTree } from "./catalogue.server.ts";
import { getSetting, settingNumber } from "./settings.server.ts";

// Prices of what is sold (spec public-and-user-side.md section 9, admin-and-support.md section 9).
// The later payments work charges these same figures: nothing else decides a price.

/** Individual animation licence: $299/year. */
export const INDIVIDUAL_LICENCE_PRICE = 299;
/** A category licence costs the category's yearlyPrice, $299/year when it has none. */
export const DEFAULT_CATEGORY_LICENCE_PRICE = 299;
/** Premium yearly price when the setting global_subscription_yearly_price is unset or invalid. */
export const DEFAULT_PREMIUM_YEARLY_PRICE = 99;

/**
 * The premium plan as the marketing pages show it: "$9/month billed annually at $99/year".
 * The monthly figure is the yearly price over twelve months rounded UP to whole dollars
 * (99 / 12 = 8.25 → 9): it is what the spec prints for 99, it never advertises a month below
 * the real cost, and it follows any yearly price an admin sets.
 */
export async function getPremiumPrice() {
  const yearly = settingNumber(await getSetting("global_subscription_yearly_price"), DEFAULT_PREMIUM_YEARLY_PRICE);
  return { yearly, monthly: Math.ceil(yearly / 12) };
}

export function categoryLicencePrice(yearlyPrice: { toString(): string } | number | null | undefined) {
  if (yearlyPrice === null || yearlyPrice === undefined) return DEFAULT_CATEGORY_LICENCE_PRICE;
  const value = Number(yearlyPrice.toString());
  return Number.isFinite(value) && value > 0 ? value : DEFAULT_CATEGORY_LICENCE_PRICE;
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
 * gave it a yearlyPrice (spec: main categories "should not have a price" by default).
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

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The animation an individual licence page is about, by id or slug; null when unknown. */
export async function findLicensableAnimation(idOrSlug: string | null) {
  if (!idOrSlug || idOrSlug.length > 200) return null;
  return prisma.animation.findFirst({
    where: { isActive: true, OR: [{ slug: idOrSlug }, ...(UUID.test(idOrSlug) ? [{ id: idOrSlug }] : [])] },
    select: { id: true, slug: true, title: true },
  });
}
