import { prisma } from "~/lib/db.server.ts";
import type { Prisma } from "~/generated/prisma/client.ts";
import { memo, sharedCacheMs } from "~/lib/memo.server.ts";
import { notFound, ServiceError } from "~/lib/errors.server.ts";
import { DEFAULT_SEARCH_SYNONYMS } from "~/validation/search.ts";
import { isEditableSettingKey, SETTING_VALUE_RULES, type EditableSettingKey } from "~/validation/admin-settings.ts";
import { type Actor, recordAudit } from "../admin/audit.server.ts";

// Defaults in code (docs/architecture.md, "Data"): a missing row never breaks a page.
export const SETTING_DEFAULTS = {
  platform_name: "Medanim",
  global_subscription_yearly_price: "99",
  // Each seat of a practice's licence beyond the included three, per year (decision 030).
  practice_seat_price: "49",
  homepage_animations_per_page: "6",
  support_email: "support@medanim.com",
  support_phone: "+1 (555) 010-2040",
  support_address: "500 Market Street, Suite 300, San Francisco, CA 94105",
  // On by default (decision 032): an animation is published only with a current medical review.
  require_medical_review: "true",
  // No testimonial until an admin (or the demo seed) sets one: a quote nobody gave is not shown.
  testimonial_quote: "",
  testimonial_author: "",
  // What invoices print as the seller, and the tax rate per country (validation/invoicing.ts):
  // empty until an admin sets them, so no invoice claims a tax id or a rate nobody gave.
  seller_legal_name: "",
  seller_address: "",
  seller_tax_id: "",
  seller_country: "",
  tax_rates: "",
  // Lay words search understands (validation/search.ts): "nose job" finds rhinoplasty.
  search_synonyms: DEFAULT_SEARCH_SYNONYMS,
  // Days of raw playback events kept (issue 46); the daily numbers made from them stay.
  analytics_retention_days: "90",
  // Scheduled backup archives kept (decision 035); older ones of the job's own are deleted.
  backup_keep: "7",
} as const;

/**
 * The demo's invented contact details and testimonial (the demo's are plainly marked).
 * A page showing one of these values labels it "Demo content"; an admin's own value is not.
 */
export const DEMO_SETTING_VALUES: Partial<Record<keyof typeof SETTING_DEFAULTS, string>> = {
  support_phone: "+1 (555) 010-2040",
  support_address: "500 Market Street, Suite 300, San Francisco, CA 94105",
  testimonial_quote:
    "These animations changed how I explain procedures. My patients arrive at surgery understanding exactly what will happen, and my consultations are shorter and calmer.",
  testimonial_author: "Dr. Emily Carter, Board-Certified Plastic Surgeon",
};

export function isDemoSetting(key: keyof typeof SETTING_DEFAULTS, value: string) {
  return DEMO_SETTING_VALUES[key] === value;
}

export type SettingKey = keyof typeof SETTING_DEFAULTS;

/** The header and footer's data (content.server.ts getLayoutData), which shows the platform name. */
export const LAYOUT_CACHE_KEY = "layout";

/** The rows are kept for sharedCacheMs; a write to them drops the copy (cache-registry.server.ts). */
const SETTINGS_CACHE_KEY = "settings";

type Settings = Record<SettingKey, string> & Record<string, string>;

/** Every setting, defaults filled in: one query for all of them, shared by every page. */
export function getSettings(): Promise<Settings> {
  return memo(SETTINGS_CACHE_KEY, sharedCacheMs(), () => readSettings());
}

/**
 * The settings as `db` sees them, not kept. Inside a transaction, pass its client: the shared
 * copy may have been dropped by the transaction's own writes, and refilling it through the pool
 * would wait for the transaction's connection (PGlite has one) until the transaction timed out.
 */
export async function readSettings(db: Pick<Prisma.TransactionClient, "appSetting"> = prisma): Promise<Settings> {
  const rows = await db.appSetting.findMany({ select: { key: true, value: true } });
  return { ...SETTING_DEFAULTS, ...Object.fromEntries(rows.map((r) => [r.key, r.value])) };
}

export async function getSetting(key: SettingKey): Promise<string> {
  return (await getSettings())[key];
}

export function settingNumber(value: string, fallback: number) {
  const n = Number(value);
  return Number.isFinite(n) && n > 0 ? n : fallback;
}

// ---- admin writes (/admin/settings) ----

export const SETTING_NOT_FOUND = "Setting not found";

const DESCRIPTIONS: Record<EditableSettingKey, string> = {
  platform_name: "The name shown in the header, the footer and e-mails",
  global_subscription_yearly_price: "Premium yearly price in USD (new subscriptions only)",
  practice_seat_price: "Yearly price in USD of each seat of a practice's license beyond the 3 included (new purchases only)",
  homepage_animations_per_page: "Animations per page on the home page",
  support_email: "Support e-mail shown on the contact page",
  support_phone: "Support phone shown on the contact page",
  support_address: "Postal address shown on the contact page",
  require_medical_review: "Only animations with a current medical review can be published",
  testimonial_quote: "Customer quote shown on the premium and license pages (empty: none shown)",
  testimonial_author: "Who said the testimonial, shown under it",
  seller_legal_name: "The seller's legal name printed on invoices (empty: the platform name)",
  seller_address: "The seller's address printed on invoices",
  seller_tax_id: "The seller's VAT or tax ID printed on invoices",
  seller_country: "Where the seller is taxed (two letters): decides reverse charge for EU businesses",
  tax_rates: "Tax included in prices, per buyer country, as DE=19, FR=20 (a country not listed: no tax)",
  search_synonyms: "Lay words search understands, one per line as lay words=medical term (nose job=rhinoplasty)",
  analytics_retention_days: "Days raw playback events are kept before deletion (the daily numbers made from them stay)",
  backup_keep: "How many archives of the daily backup are kept; older ones the job wrote are deleted",
};

/** Every editable setting with its value (defaults filled in), description and last change. */
export async function listAdminSettings() {
  const rows = await prisma.appSetting.findMany({ select: { key: true, value: true, description: true, updatedAt: true } });
  const stored = new Map(rows.map((row) => [row.key, row]));
  return (Object.keys(SETTING_VALUE_RULES) as EditableSettingKey[]).map((key) => ({
    key,
    value: stored.get(key)?.value ?? SETTING_DEFAULTS[key],
    description: stored.get(key)?.description ?? DESCRIPTIONS[key],
    updatedAt: stored.get(key)?.updatedAt ?? null,
  }));
}

/**
 * Saves several settings in one transaction, each checked by its rule, with one audit row per
 * changed key. A new premium price applies to checkouts started after this (a checkout fixes its
 * amount when it starts; existing subscriptions keep theirs).
 */
export async function saveSettings(actor: Actor, changes: Array<{ key: string; value: string; description?: string }>) {
  const checked = changes.map(({ key, value, description }) => {
    if (!isEditableSettingKey(key)) throw notFound(SETTING_NOT_FOUND);
    const parsed = SETTING_VALUE_RULES[key].safeParse(value);
    if (!parsed.success) throw new ServiceError(parsed.error.issues[0]?.message ?? "Invalid value", 400, "value");
    return { key, value: String(parsed.data), description };
  });
  const saved = await prisma.$transaction(async (tx) => {
    const before = await tx.appSetting.findMany({ where: { key: { in: checked.map((c) => c.key) } } });
    const out = [];
    for (const { key, value, description } of checked) {
      const was = before.find((row) => row.key === key);
      const row = await tx.appSetting.upsert({
        where: { key },
        create: { key, value, description: description ?? DESCRIPTIONS[key] },
        update: { value, ...(description !== undefined ? { description } : {}) },
        select: { key: true, value: true, description: true, updatedAt: true },
      });
      const oldValue = was?.value ?? SETTING_DEFAULTS[key];
      if (oldValue !== value || (description !== undefined && description !== was?.description)) {
        await recordAudit(tx, actor, {
          action: "setting.update",
          entityType: "setting",
          entityId: key,
          summary: `Changed ${key} from “${oldValue}” to “${value}”`,
          before: { value: oldValue, description: was?.description ?? null },
          after: { value, description: row.description },
        });
      }
      out.push(row);
    }
    return out;
  });
  return saved;
}
