// Pure display helpers, safe in the browser and on the server. `format*` never throws.

export { formatSeconds } from "./duration.ts";

/** Duration as minutes:seconds (durations are shown as minutes:seconds), e.g. 125 → "2:05". */
export function formatDuration(totalSeconds: number | null | undefined): string {
  const seconds = Math.max(0, Math.floor(Number(totalSeconds) || 0));
  const minutes = Math.floor(seconds / 60);
  return `${minutes}:${String(seconds % 60).padStart(2, "0")}`;
}

// Formatters are built once: constructing Intl objects per call is slow on hot pages.
const WHOLE_DOLLARS = new Intl.NumberFormat("en-US", { style: "currency", currency: "USD", minimumFractionDigits: 0, maximumFractionDigits: 0 });
const DOLLARS_AND_CENTS = new Intl.NumberFormat("en-US", { style: "currency", currency: "USD", minimumFractionDigits: 2, maximumFractionDigits: 2 });

/**
 * US dollars: whole amounts without cents ("$299"), others with two decimals ("$12.50").
 * Accepts numbers, numeric strings and Prisma decimals (anything with a numeric toString).
 */
export function formatPrice(amount: number | string | { toString(): string } | null | undefined): string {
  const value = Number(typeof amount === "number" ? amount : String(amount ?? ""));
  if (!Number.isFinite(value)) return "$0";
  return (Number.isInteger(value) ? WHOLE_DOLLARS : DOLLARS_AND_CENTS).format(value);
}

/**
 * A yearly price with its period, "$299/year": every price label of a product that runs for a
 * year and renews says so, rather than a bare amount a buyer could read as paid once.
 */
export function formatYearlyPrice(amount: Parameters<typeof formatPrice>[0]): string {
  return `${formatPrice(amount)}/year`;
}

/**
 * An integer with comma thousands separators, as en-US writes it ("12,345"). Counts are on
 * every card and detail page, and Intl.NumberFormat.format costs ~10 µs a call.
 */
function groupThousands(value: number): string {
  if (!Number.isInteger(value)) return String(value);
  return String(value).replace(/\B(?=(\d{3})+(?!\d))/g, ",");
}

/** A count with its noun, e.g. (1, "animation") → "1 animation", (3, "animation") → "3 animations". */
export function pluralize(count: number, singular: string, plural = `${singular}s`): string {
  return `${groupThousands(count)} ${count === 1 ? singular : plural}`;
}

/** The first `max` characters of a text and "..." (the doctor's About text is cut at 300); shorter texts unchanged. */
export function truncateText(text: string, max: number): string {
  if (text.length <= max) return text;
  return `${text.slice(0, max).trimEnd()}...`;
}

/**
 * The heading rule for animation descriptions: a line of at most 50 characters,
 * made only of letters and spaces, starting with a capital letter, is a heading.
 */
export function isDescriptionHeading(line: string): boolean {
  const trimmed = line.trim();
  return trimmed.length > 0 && trimmed.length <= 50 && /^\p{Lu}[\p{L} ]*$/u.test(trimmed);
}

export type DescriptionBlock = { kind: "heading"; text: string } | { kind: "paragraph"; text: string };

/** Splits a description into headings and paragraphs (blank lines separate paragraphs). */
export function parseDescription(description: string): DescriptionBlock[] {
  const blocks: DescriptionBlock[] = [];
  let paragraph: string[] = [];
  const flush = () => {
    if (paragraph.length) blocks.push({ kind: "paragraph", text: paragraph.join("\n") });
    paragraph = [];
  };
  for (const raw of description.replace(/\r\n?/g, "\n").split("\n")) {
    const line = raw.trim();
    if (!line) {
      flush();
    } else if (isDescriptionHeading(line)) {
      flush();
      blocks.push({ kind: "heading", text: line });
    } else {
      paragraph.push(line);
    }
  }
  flush();
  return blocks;
}

/** A number with thousands separators, e.g. 12345 → "12,345". */
export function formatCount(value: number): string {
  return groupThousands(Math.max(0, Math.floor(value)));
}

/** An Instagram handle or link as a profile URL and a label ("@handle"). */
export function instagramLink(value: string): { href: string; label: string } {
  const trimmed = value.trim();
  if (/^https?:\/\//i.test(trimmed)) {
    const handle = trimmed.replace(/^https?:\/\/(www\.)?instagram\.com\//i, "").replace(/[/?#].*$/, "");
    return { href: trimmed, label: handle && handle !== trimmed ? `@${handle}` : trimmed };
  }
  const handle = trimmed.replace(/^@/, "");
  return { href: `https://instagram.com/${encodeURIComponent(handle)}`, label: `@${handle}` };
}

// ---- account helpers (dashboard, library, billing) ----

/** US dollars, always with cents, as billing shows money, e.g. 99 → "$99.00". */
export function formatMoney(amount: number | string | { toString(): string } | null | undefined): string {
  const value = Number(typeof amount === "number" ? amount : String(amount ?? ""));
  return (Number.isFinite(value) ? value : 0).toLocaleString("en-US", { style: "currency", currency: "USD" });
}

/**
 * A date as "Mar 3, 2026". Rendered in UTC so the server's HTML and the browser's hydration
 * agree whatever the visitor's time zone.
 */
export function formatDate(value: Date | string | number | null | undefined): string {
  const date = validDate(value);
  return date ? SHORT_DATE.format(date) : "";
}

/** "a" or "an" before a word, by its first letter: "an individual license", "a category license". */
export function withArticle(phrase: string): string {
  return `${/^[aeiou]/i.test(phrase) ? "an" : "a"} ${phrase}`;
}

/** A date in long US form ("November 21, 2026"), as content pages print "Last updated". */
export function formatLongDate(value: Date | string | number | null | undefined): string {
  const date = validDate(value);
  return date ? LONG_DATE.format(date) : "";
}

/** A moment as "Mar 3, 2026, 14:05 UTC" (the audit log, job states). */
export function formatDateTime(value: Date | string | number | null | undefined): string {
  const date = validDate(value);
  return date ? `${DATE_TIME.format(date)} UTC` : "";
}

/**
 * Dashboard figures, abbreviated with one decimal: K above 1,000 and M above
 * 1,000,000: 950 → "950", 1500 → "1.5K", 2340000 → "2.3M".
 */
export function formatCompact(value: number): string {
  const n = Number.isFinite(value) ? value : 0;
  const sign = n < 0 ? "-" : "";
  const abs = Math.abs(n);
  // 999,999 would round to "1000.0K": past 999.95K it reads as millions.
  if (abs >= 999_950) return `${sign}${(abs / 1_000_000).toFixed(1)}M`;
  if (abs >= 1_000) return `${sign}${(abs / 1_000).toFixed(1)}K`;
  return `${sign}${Number.isInteger(abs) ? abs : abs.toFixed(2)}`;
}

// In UTC, so server and browser print the same day. Built once (see WHOLE_DOLLARS).
const SHORT_DATE = new Intl.DateTimeFormat("en-US", { year: "numeric", month: "short", day: "numeric", timeZone: "UTC" });
const DATE_TIME = new Intl.DateTimeFormat("en-US", {
  year: "numeric",
  month: "short",
  day: "numeric",
  hour: "2-digit",
  minute: "2-digit",
  hourCycle: "h23",
  timeZone: "UTC",
});
const LONG_DATE = new Intl.DateTimeFormat("en-US", { year: "numeric", month: "long", day: "numeric", timeZone: "UTC" });

function validDate(value: Date | string | number | null | undefined) {
  if (value === null || value === undefined) return null;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? null : date;
}

const DAY_MS = 24 * 60 * 60 * 1000;

/** Whole days from now until `value`, rounded up (negative once past); null without a date. */
export function daysUntil(value: Date | string | number | null | undefined, now: Date = new Date()): number | null {
  if (value === null || value === undefined) return null;
  const time = new Date(value).getTime();
  if (Number.isNaN(time)) return null;
  return Math.ceil((time - now.getTime()) / DAY_MS);
}

/** An animation is 'expiring soon' when its expiry is 30 days or less away. */
export const EXPIRING_SOON_DAYS = 30;
export function isExpiringSoon(value: Date | string | number | null | undefined, now: Date = new Date()): boolean {
  const days = daysUntil(value, now);
  return days !== null && days <= EXPIRING_SOON_DAYS;
}

/**
 * A video's resolution by its lines (the shorter side, so a portrait 2160×3840 is 4K too):
 * "4K" from 2160, then 1440p, Full HD, HD, else the lines themselves ("270p").
 */
export function formatResolution(width: number, height: number): string {
  const lines = Math.min(width, height);
  if (lines >= 2160) return "4K";
  if (lines >= 1440) return "1440p";
  if (lines >= 1080) return "1080p (Full HD)";
  if (lines >= 720) return "720p (HD)";
  return `${lines}p`;
}

/** ["MP4", "WEBM"] → "MP4 and WebM" (file types as people write them). */
export function formatFileTypes(types: readonly string[]): string {
  const names = types.map((type) => (type === "WEBM" ? "WebM" : type));
  if (names.length <= 1) return names[0] ?? "";
  return `${names.slice(0, -1).join(", ")} and ${names.at(-1)}`;
}

const SIZE_UNITS = ["B", "KB", "MB", "GB", "TB"] as const;

/**
 * A file's size as a download list shows it, in steps of 1024 (as operating systems and the
 * admin's upload limits count): "812 B", "4.2 MB", "37 MB" (one decimal below 10 only).
 */
export function formatFileSize(bytes: number): string {
  let value = Math.max(0, bytes);
  let unit = 0;
  while (value >= 1024 && unit < SIZE_UNITS.length - 1) {
    value /= 1024;
    unit++;
  }
  const shown = unit === 0 || value >= 10 ? String(Math.round(value)) : value.toFixed(1).replace(/\.0$/, "");
  // 1023.6 KB rounds to "1024 KB": say "1 MB" instead.
  if (shown === "1024" && unit < SIZE_UNITS.length - 1) return `1 ${SIZE_UNITS[unit + 1]}`;
  return `${shown} ${SIZE_UNITS[unit]}`;
}
