import { prisma } from "~/lib/db.server.ts";
import { formatMoney } from "~/lib/format.ts";
import { mediaClaimsOf } from "../catalogue/media-claims.ts";
import { cached, type CategoryTree, findCategory, getCategoryTree, slugOrId } from "../catalogue/categories.server.ts";
import {
  categoryLicenceIsCheaper,
  DEFAULT_CATEGORY_LICENCE_PRICE,
  DEFAULT_INDIVIDUAL_LICENCE_PRICE,
  DEFAULT_PREMIUM_YEARLY_PRICE,
  individualLicencePrice,
  premiumPrice,
} from "./prices.server.ts";
import { getSetting, settingNumber } from "../site/settings.server.ts";

// What is offered for sale: the premium plan at its current price, the sub-categories and
// animations a licence can be bought for, and how their prices compare. The figures come from
// prices.server.ts (the category tree's yearlyPrice is already the licence price); this module
// finds the items they apply to. Checkout prices with the same functions.

/** The premium plan's price: the setting global_subscription_yearly_price, $99 when unset. */
export async function getPremiumPrice() {
  return premiumPrice(settingNumber(await getSetting("global_subscription_yearly_price"), DEFAULT_PREMIUM_YEARLY_PRICE));
}

/** "Plastic Surgery is not sold as a whole: …" (decision 009: only sub-categories are sold). */
export function mainCategoryNotSold(name: string) {
  return `${name} is not sold as a whole: choose one of its specialties.`;
}

// The category questions below read the cached category tree of the catalogue (one query for
// the whole tree, shared with every category screen) instead of querying again.

type Node = NonNullable<ReturnType<typeof findCategory>>;

/** A sub-category as a licence on offer. */
export type CategoryOffer = { id: string; name: string; slug: string; price: number; animationCount: number; path: string };

function toOffer(node: Node & { yearlyPrice: number }, tree: CategoryTree): CategoryOffer {
  const parent = node.parentId ? tree.byId.get(node.parentId) : undefined;
  return {
    id: node.id,
    name: node.name,
    slug: node.slug,
    price: node.yearlyPrice,
    animationCount: node.animationCount,
    path: parent ? `/category/${parent.slug}/${node.slug}` : `/category/${node.slug}`,
  };
}

const forSale = (node: Node | null | undefined): node is Node & { yearlyPrice: number } => Boolean(node && node.yearlyPrice !== null);

/**
 * The category a licence can be bought for, by slug or id: an active sub-category. A main
 * category answers `{ main }` instead (it is not for sale), anything else null.
 */
export async function findLicensableCategory(
  slugOrIdValue: string | null,
): Promise<{ category: CategoryOffer; main?: never } | { main: { name: string; slug: string }; category?: never } | null> {
  if (!slugOrIdValue || slugOrIdValue.length > 200) return null;
  const tree = await getCategoryTree();
  const node = findCategory(tree, slugOrIdValue);
  if (!node) return null;
  if (!forSale(node)) return { main: { name: node.name, slug: node.slug } };
  return { category: toOffer(node, tree) };
}

/**
 * The category licence when no category is chosen: the lowest price over the sub-categories
 * (what one licence costs at least) and whether they all cost the same.
 */
export async function getCategoryLicenceFromPrice() {
  const tree = await getCategoryTree();
  const prices = [...tree.byId.values()].filter(forSale).map((sub) => sub.yearlyPrice);
  if (prices.length === 0) return { price: DEFAULT_CATEGORY_LICENCE_PRICE, varies: false };
  const lowest = Math.min(...prices);
  return { price: lowest, varies: prices.some((p) => p !== lowest) };
}

/**
 * What can be licensed, for /global-license and the licence pages' "Available Specialties":
 * each active main category (a heading, never an offer of its own) with the active
 * sub-categories that are sold, their prices and their published animations.
 */
export async function listLicensableCategories() {
  const tree = await getCategoryTree();
  return tree.mains.map((main) => ({
    id: main.id,
    name: main.name,
    slug: main.slug,
    description: main.description,
    subcategories: (tree.childrenOf.get(main.id) ?? []).filter(forSale).map((sub) => ({ ...toOffer(sub, tree), description: sub.description })),
  }));
}

type PriceRange = { min: number; max: number };

/** The lowest and highest individual price of the published animations, per category id. */
function getIndividualPriceRanges(): Promise<Map<string | null, PriceRange>> {
  return cached("individual-prices", async () => {
    const groups = await prisma.animation.groupBy({
      by: ["categoryId"],
      where: { isActive: true },
      _min: { individualPrice: true },
      _max: { individualPrice: true },
    });
    return new Map(
      groups.map((g) => [g.categoryId, { min: individualLicencePrice(g._min.individualPrice), max: individualLicencePrice(g._max.individualPrice) }]),
    );
  });
}

/**
 * The individual licence when no animation is chosen: what one costs at least, and whether
 * prices differ; `categoryOftenCheaper` when some published animation costs at least as much
 * as the licence for its whole category (then no page may call one animation the smaller buy).
 */
export async function getIndividualLicenceFromPrice() {
  const [ranges, tree] = await Promise.all([getIndividualPriceRanges(), getCategoryTree()]);
  const all = [...ranges.values()];
  if (all.length === 0) return { price: DEFAULT_INDIVIDUAL_LICENCE_PRICE, varies: false, categoryOftenCheaper: false };
  const min = Math.min(...all.map((r) => r.min));
  const max = Math.max(...all.map((r) => r.max));
  const categoryOftenCheaper = [...ranges].some(([categoryId, range]) => {
    const category = categoryId ? tree.byId.get(categoryId) : undefined;
    return categoryLicenceIsCheaper(range.max, category?.yearlyPrice ?? null);
  });
  return { price: min, varies: min !== max, categoryOftenCheaper };
}

/**
 * One animation beside a category licence (or beside category licences in general, without
 * one): what the cheapest costs, and `categoryOftenCheaper` when the category licence costs no
 * more than it (every animation in that category, then). Null when the category has none.
 */
export async function getSingleAnimationOption(category: { id: string; price: number } | null) {
  if (!category) return getIndividualLicenceFromPrice();
  const range = (await getIndividualPriceRanges()).get(category.id);
  return range ? { price: range.min, categoryOftenCheaper: categoryLicenceIsCheaper(range.min, category.price) } : null;
}

/**
 * The licences on offer for one animation: its own at its price (the figure checkout charges),
 * and the licence for its category when that one is for sale, again as `cheaperCategory` when it
 * costs no more than this one animation.
 */
export async function getAnimationOffers(animation: { individualPrice: number | { toString(): string }; categoryId: string | null }) {
  const tree = await getCategoryTree();
  const node = animation.categoryId ? tree.byId.get(animation.categoryId) : undefined;
  const category = forSale(node) ? toOffer(node, tree) : null;
  const price = individualLicencePrice(animation.individualPrice);
  return { price, category, cheaperCategory: category && categoryLicenceIsCheaper(price, category.price) ? category : null };
}

/** The animation an individual licence is about, by id or slug, with its offers; null when unknown or unpublished. */
export async function findLicensableAnimation(idOrSlug: string | null) {
  if (!idOrSlug || idOrSlug.length > 200) return null;
  const row = await prisma.animation.findFirst({
    where: { isActive: true, ...slugOrId(idOrSlug) },
    select: {
      id: true,
      slug: true,
      title: true,
      individualPrice: true,
      categoryId: true,
      videoWidth: true,
      videoHeight: true,
      downloadFormats: true,
      mediaSet: { select: { renditions: { where: { kind: "download" }, select: { file: true, width: true, height: true } } } },
    },
  });
  return row && { id: row.id, slug: row.slug, title: row.title, media: mediaClaimsOf(row), ...(await getAnimationOffers(row)) };
}

/**
 * The admin form's warning (a notice, never a refusal): an individual price that is not below
 * the licence for the animation's whole category makes the category licence the better buy,
 * and the public pages will say so. Null when the price is below it or no licence is sold.
 */
export async function getIndividualPriceWarning(animation: { individualPrice: number | string; categoryId: string | null }) {
  const { price, cheaperCategory } = await getAnimationOffers(animation);
  if (!cheaperCategory) return null;
  return `The individual price (${formatMoney(price)}) is not below the ${cheaperCategory.name} category license (${formatMoney(cheaperCategory.price)}/year), which covers every animation in it: the public pages will point buyers to the category license.`;
}
