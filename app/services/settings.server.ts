import { prisma } from "~/lib/db.server.ts";
import { memo, sharedCacheMs } from "~/lib/memo.server.ts";

// Defaults in code (ARCHITECTURE.md "Data"): a missing row never breaks a page.
export const SETTING_DEFAULTS = {
  platform_name: "Medanim",
  global_subscription_yearly_price: "99",
  homepage_animations_per_page: "6",
  support_email: "support@medanim.com",
  support_phone: "+1 (555) 010-2040",
  support_address: "500 Market Street, Suite 300, San Francisco, CA 94105",
} as const;

export type SettingKey = keyof typeof SETTING_DEFAULTS;

/** Writers of settings call forget(SETTINGS_CACHE_KEY): the rows are kept for sharedCacheMs. */
export const SETTINGS_CACHE_KEY = "settings";

/** Every setting, defaults filled in: one query for all of them, shared by every page. */
export function getSettings(): Promise<Record<SettingKey, string> & Record<string, string>> {
  return memo(SETTINGS_CACHE_KEY, sharedCacheMs(), async () => {
    const rows = await prisma.appSetting.findMany({ select: { key: true, value: true } });
    return { ...SETTING_DEFAULTS, ...Object.fromEntries(rows.map((r) => [r.key, r.value])) };
  });
}

export async function getSetting(key: SettingKey): Promise<string> {
  return (await getSettings())[key];
}

export function settingNumber(value: string, fallback: number) {
  const n = Number(value);
  return Number.isFinite(n) && n > 0 ? n : fallback;
}
