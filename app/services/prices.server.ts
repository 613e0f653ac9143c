// Prices of what is sold:
// the one source of every figure the pages show and the payments work charges. No database
// here: the premium price's setting is read by offers.server.ts and priced by `premiumPrice`.

/** Individual animation licence: $299/year. */
export const INDIVIDUAL_LICENCE_PRICE = 299;
/** A category licence costs the category's yearlyPrice, $299/year when it has none. */
export const DEFAULT_CATEGORY_LICENCE_PRICE = 299;
/** Premium yearly price when the setting global_subscription_yearly_price is unset or invalid. */
export const DEFAULT_PREMIUM_YEARLY_PRICE = 99;

/**
 * The premium plan as the marketing pages show it: "$9/month billed annually at $99/year".
 * The monthly figure is the yearly price over twelve months rounded UP to whole dollars
 * (99 / 12 = 8.25 → 9): it is the $9 the pages have always printed for 99, it never
 * advertises a month below the real cost, and it follows any yearly price an admin sets.
 */
export function premiumPrice(yearly: number) {
  return { yearly, monthly: Math.ceil(yearly / 12) };
}

export function categoryLicencePrice(yearlyPrice: { toString(): string } | number | null | undefined) {
  if (yearlyPrice === null || yearlyPrice === undefined) return DEFAULT_CATEGORY_LICENCE_PRICE;
  const value = Number(yearlyPrice.toString());
  return Number.isFinite(value) && value > 0 ? value : DEFAULT_CATEGORY_LICENCE_PRICE;
}
