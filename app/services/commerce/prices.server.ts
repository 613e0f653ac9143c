// Prices of what is sold: the one rule behind every figure the pages, cards and /api answers
// show and the figure checkout charges (docs/architecture.md, "Claims come from data"). No
// database here: offers.server.ts finds the rows and prices them with these functions.

/** Individual animation licence when the animation carries no usable individualPrice: $299/year. */
export const DEFAULT_INDIVIDUAL_LICENCE_PRICE = 299;
/** A category licence costs the category's yearlyPrice, $299/year when it has none. */
export const DEFAULT_CATEGORY_LICENCE_PRICE = 299;
/** Premium yearly price when the setting global_subscription_yearly_price is unset or invalid. */
export const DEFAULT_PREMIUM_YEARLY_PRICE = 99;

type Amount = { toString(): string } | number | null | undefined;

function positive(value: Amount): number | null {
  if (value === null || value === undefined) return null;
  const number = Number(value.toString());
  return Number.isFinite(number) && number > 0 ? number : null;
}

/**
 * The premium plan as the marketing pages show it: "$9/month billed annually at $99/year".
 * The monthly figure is the yearly price over twelve months rounded UP to whole dollars
 * (99 / 12 = 8.25 → 9): it is the $9 the pages have always printed for 99, it never
 * advertises a month below the real cost, and it follows any yearly price an admin sets.
 */
export function premiumPrice(yearly: number) {
  return { yearly, monthly: Math.ceil(yearly / 12) };
}

/** An animation's individual licence: its individualPrice as the admin set it, $299 without one. */
export function individualLicencePrice(individualPrice: Amount) {
  return positive(individualPrice) ?? DEFAULT_INDIVIDUAL_LICENCE_PRICE;
}

/**
 * A category's licence, or null when the category is not for sale: only sub-categories are sold
 * (decision 009, "Main categories carry no price"), so a main category has no licence price
 * even if an old row still holds a yearlyPrice.
 */
export function categoryLicencePrice(category: { parentId: string | null; yearlyPrice: Amount }) {
  if (category.parentId === null) return null;
  return positive(category.yearlyPrice) ?? DEFAULT_CATEGORY_LICENCE_PRICE;
}

/**
 * Whether one animation costs at least as much as the licence for its whole category: then the
 * category licence is the better buy and the pages must not present the animation's licence
 * as the smaller option.
 */
export function categoryLicenceIsCheaper(individual: number, categoryLicence: number | null): categoryLicence is number {
  return categoryLicence !== null && individual >= categoryLicence;
}
