import { z } from "zod";
import { SELLER_SETTING_RULES } from "./invoicing.ts";
import { SearchSynonymsRule } from "./search.ts";

// /admin/settings, GET /api/admin/settings and PUT /api/settings/{key}. The rule for each
// key's value, shared by the form and the call.

export const PLATFORM_NAME_REQUIRED = "Platform name is required";
export const BACKUP_KEEP_INVALID = "Backups kept must be a whole number from 1 to 365";
export const PRICE_INVALID = "Annual price must be a positive amount in USD (at most two decimals)";

const text = (label: string, max: number) =>
  z
    .string({ error: `${label} is required` })
    .trim()
    .min(1, `${label} is required`)
    .max(max, `${label} must be at most ${max} characters`);

const price = z
  .string({ error: PRICE_INVALID })
  .trim()
  .regex(/^\d{1,6}(\.\d{1,2})?$/, PRICE_INVALID)
  .refine((value) => Number(value) > 0 && Number(value) <= 100_000, PRICE_INVALID);

/** Every key an admin may set, with the rule its value follows (values are stored as text). */
export const SETTING_VALUE_RULES = {
  platform_name: text("Platform name", 60),
  global_subscription_yearly_price: price,
  practice_seat_price: price,
  homepage_animations_per_page: z
    .string()
    .trim()
    .regex(/^\d{1,2}$/, "Animations per page must be a whole number from 1 to 48")
    .refine((v) => Number(v) >= 1 && Number(v) <= 48, "Animations per page must be a whole number from 1 to 48"),
  support_email: z.string().trim().toLowerCase().email("Must be a valid email").max(254, "Must be a valid email"),
  support_phone: text("Support phone", 40),
  support_address: text("Support address", 200),
  require_medical_review: z.enum(["true", "false"], { error: "Require medical review must be true or false" }),
  // Empty is allowed: no testimonial is then shown.
  testimonial_quote: z.string().trim().max(600, "Testimonial must be at most 600 characters"),
  testimonial_author: z.string().trim().max(120, "Author must be at most 120 characters"),
  ...SELLER_SETTING_RULES,
  search_synonyms: SearchSynonymsRule,
  analytics_retention_days: z
    .string()
    .trim()
    .regex(/^\d{1,4}$/, "Retention must be a whole number of days from 1 to 3650")
    .refine((v) => Number(v) >= 1 && Number(v) <= 3650, "Retention must be a whole number of days from 1 to 3650"),
  backup_keep: z
    .string()
    .trim()
    .regex(/^\d{1,3}$/, BACKUP_KEEP_INVALID)
    .refine((v) => Number(v) >= 1 && Number(v) <= 365, BACKUP_KEEP_INVALID),
} as const;

export const TESTIMONIAL_AUTHOR_REQUIRED = "Say who gave the testimonial";

export type EditableSettingKey = keyof typeof SETTING_VALUE_RULES;

export function isEditableSettingKey(key: string): key is EditableSettingKey {
  return Object.hasOwn(SETTING_VALUE_RULES, key);
}

/** PUT /api/settings/{key}: { value, description } (numbers are accepted for the price). */
export const SettingUpdateSchema = z.object({
  value: z.preprocess((v) => (typeof v === "number" || typeof v === "boolean" ? String(v) : v), z.string({ error: "Value is required" })),
  description: z.string().trim().max(500, "Description must be at most 500 characters").optional(),
});

/** The screen's form: Save All Settings saves both. */
export const SettingsFormSchema = z.object({
  platformName: SETTING_VALUE_RULES.platform_name,
  annualPrice: z.preprocess((v) => (typeof v === "string" ? v.replace(/^\$/, "") : v), price),
  /** Each practice seat beyond the three included; left empty, the price stays as it is. */
  seatPrice: z.preprocess((v) => (typeof v === "string" ? v.replace(/^\$/, "") : v), price).optional(),
  /** A checkbox: sent as "on" when ticked, absent when not. */
  requireMedicalReview: z.preprocess((v) => v === "on" || v === "true", z.boolean()),
  /** Days raw playback events are kept; left empty, the setting stays as it is. */
  analyticsRetentionDays: SETTING_VALUE_RULES.analytics_retention_days.optional(),
  /** Scheduled backup archives kept; left empty, the setting stays as it is. */
  backupKeep: SETTING_VALUE_RULES.backup_keep.optional(),
});

/** The screen's second form (intent "public-details"): what visitors see on the contact and sales pages. */
export const PublicDetailsSchema = z
  .object({
    intent: z.literal("public-details"),
    supportEmail: SETTING_VALUE_RULES.support_email,
    supportPhone: SETTING_VALUE_RULES.support_phone,
    supportAddress: SETTING_VALUE_RULES.support_address,
    // An empty field arrives as undefined (conform): stored as "", which shows no testimonial.
    testimonialQuote: SETTING_VALUE_RULES.testimonial_quote.optional().transform((v) => v ?? ""),
    testimonialAuthor: SETTING_VALUE_RULES.testimonial_author.optional().transform((v) => v ?? ""),
    // An emptied field arrives as undefined (conform): stored as "", no lay words.
    searchSynonyms: SETTING_VALUE_RULES.search_synonyms.optional().transform((v) => v ?? ""),
  })
  .refine((value) => !value.testimonialQuote || value.testimonialAuthor, { path: ["testimonialAuthor"], message: TESTIMONIAL_AUTHOR_REQUIRED });

/** The screen's third form (intent "invoicing"): the seller's details and tax rates every invoice prints. */
export const InvoicingSchema = z.object({
  intent: z.literal("invoicing"),
  // An empty field arrives as undefined (conform): stored as "".
  sellerLegalName: SELLER_SETTING_RULES.seller_legal_name.optional().transform((v) => v ?? ""),
  sellerAddress: SELLER_SETTING_RULES.seller_address.optional().transform((v) => v ?? ""),
  sellerTaxId: SELLER_SETTING_RULES.seller_tax_id.optional().transform((v) => v ?? ""),
  sellerCountry: SELLER_SETTING_RULES.seller_country.optional().transform((v) => v ?? ""),
  taxRates: SELLER_SETTING_RULES.tax_rates.optional().transform((v) => v ?? ""),
});

/** The preview under the price: the price per year rounded to a whole number. */
export function roundedYearlyPrice(value: string | number) {
  const n = Number(value);
  return Number.isFinite(n) && n > 0 ? Math.round(n) : null;
}
