import { z } from "zod";

// Who invoices are made out to (the member's billing details) and the seller's side (settings):
// the shapes a tax id and a rate table must have, shared by the forms, the /api and the service.

export const INVOICE_NOT_FOUND = "Invoice not found";

/** EU member states with the prefix their VAT numbers carry (Greece's is EL). */
export const EU_VAT_PREFIX: Record<string, string> = {
  AT: "AT",
  BE: "BE",
  BG: "BG",
  CY: "CY",
  CZ: "CZ",
  DE: "DE",
  DK: "DK",
  EE: "EE",
  ES: "ES",
  FI: "FI",
  FR: "FR",
  GR: "EL",
  HR: "HR",
  HU: "HU",
  IE: "IE",
  IT: "IT",
  LT: "LT",
  LU: "LU",
  LV: "LV",
  MT: "MT",
  NL: "NL",
  PL: "PL",
  PT: "PT",
  RO: "RO",
  SE: "SE",
  SI: "SI",
  SK: "SK",
};

export function isEuCountry(country: string | null | undefined) {
  return Boolean(country && Object.hasOwn(EU_VAT_PREFIX, country));
}

/** A tax id as printed: upper case, no spaces, dots or dashes inside an EU VAT number. */
export function normaliseTaxId(taxId: string, country: string) {
  const trimmed = taxId.trim().toUpperCase();
  return isEuCountry(country) ? trimmed.replace(/[\s.-]/g, "") : trimmed.replace(/\s+/g, " ");
}

/** An EU VAT number's shape: the country's prefix, then 2 to 13 letters and digits. */
export function looksLikeEuVatId(taxId: string, country: string) {
  const prefix = EU_VAT_PREFIX[country];
  return Boolean(prefix && new RegExp(`^${prefix}[0-9A-Z]{2,13}$`).test(taxId));
}

export const COUNTRY_INVALID = "Choose the country as a two-letter code, such as DE or US";
export const vatIdInvalid = (country: string) =>
  `Enter the VAT number with its country prefix ${EU_VAT_PREFIX[country]} and no other letters, such as ${EU_VAT_PREFIX[country]}123456789`;
export const TAX_ID_INVALID = "A tax ID is 4 to 30 letters, digits, spaces, dots, dashes or slashes";

const required = (label: string, max: number) =>
  z
    .string({ error: `${label} is required` })
    .trim()
    .min(1, `${label} is required`)
    .max(max, `${label} must be at most ${max} characters`);

const country = z
  .string({ error: COUNTRY_INVALID })
  .trim()
  .toUpperCase()
  .regex(/^[A-Z]{2}$/, COUNTRY_INVALID);

/** The member's billing details' fields, as the form's constraints read them. */
export const BillingDetailsFields = z.object({
  legalName: required("Legal name", 200),
  address: required("Address", 500),
  country,
  taxId: z.string().trim().max(40, "Tax ID must be at most 40 characters").optional(),
  // An API client's "" means none, as an emptied form field does (conform sends it as absent).
  billingEmail: z.preprocess(
    (value) => (typeof value === "string" && value.trim() === "" ? undefined : value),
    z.string().trim().toLowerCase().email("Invalid email address").max(254, "Invalid email address").optional(),
  ),
});

/** The member's billing details (the /billing form and PUT /api/billing-details): a tax id is normalised, then its shape checked. */
export const BillingDetailsSchema = BillingDetailsFields.transform((value) => ({
  ...value,
  taxId: value.taxId ? normaliseTaxId(value.taxId, value.country) : undefined,
})).superRefine((value, ctx) => {
  if (!value.taxId) return;
  if (isEuCountry(value.country)) {
    if (!looksLikeEuVatId(value.taxId, value.country)) ctx.addIssue({ code: "custom", path: ["taxId"], message: vatIdInvalid(value.country) });
  } else if (!/^[0-9A-Z][0-9A-Z .\-/]{2,28}[0-9A-Z]$/.test(value.taxId)) {
    ctx.addIssue({ code: "custom", path: ["taxId"], message: TAX_ID_INVALID });
  }
});

export type BillingDetailsInput = z.output<typeof BillingDetailsSchema>;

export const TAX_RATES_INVALID = "Write one rate per country as CC=rate, such as DE=19, FR=20 (percent, up to two decimals)";

/** The tax rate table setting: "DE=19, FR=20" (percent per country); empty charges no tax anywhere. */
export function parseTaxRates(text: string): Map<string, number> | null {
  const rates = new Map<string, number>();
  for (const entry of text
    .split(/[,\n;]/)
    .map((part) => part.trim())
    .filter(Boolean)) {
    const match = /^([A-Za-z]{2})\s*[=:]\s*(\d{1,2}(?:\.\d{1,2})?)\s*%?$/.exec(entry);
    if (!match) return null;
    rates.set(match[1]!.toUpperCase(), Number(match[2]));
  }
  return rates;
}

/** The seller's settings an invoice prints, with the rule for each value. */
export const SELLER_SETTING_RULES = {
  seller_legal_name: z.string().trim().max(200, "Legal name must be at most 200 characters"),
  seller_address: z.string().trim().max(500, "Address must be at most 500 characters"),
  seller_tax_id: z.string().trim().toUpperCase().max(40, "Tax ID must be at most 40 characters"),
  // Empty until the seller says where it is taxed.
  seller_country: z.union([z.literal(""), country]),
  tax_rates: z
    .string()
    .trim()
    .max(2000, TAX_RATES_INVALID)
    .refine((value) => parseTaxRates(value) !== null, TAX_RATES_INVALID),
} as const;
