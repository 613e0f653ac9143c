import { memo, sharedCacheMs } from "~/lib/memo.server.ts";
import { prisma } from "~/lib/db.server.ts";
import { getEnv } from "~/lib/env.server.ts";
import { ServiceError } from "~/lib/errors.server.ts";
import { logger } from "~/lib/logger.server.ts";
import { sendTemplatedEmail } from "~/lib/mail.server.ts";
import { enforceRateLimit } from "~/lib/rate-limit.server.ts";
import { sanitizeHtml } from "~/lib/sanitize.server.ts";
import type { PageType } from "~/generated/prisma/client.ts";
import { CONTACT_CATEGORIES, CONTACT_FAILURE, PageSlugSchema, type ContactInput } from "~/validation/content.ts";
import { getSettings, isDemoSetting, LAYOUT_CACHE_KEY, SETTING_DEFAULTS, type SettingKey } from "./settings.server.ts";
import { UUID_RE } from "~/validation/account.ts";
import { fillLicenceTerms } from "../licensing/licence-terms.server.ts";

/**
 * What every page's header and footer need. Read on every page, so kept briefly (see
 * sharedCacheMs); a write to pages or settings drops it (cache-registry.server.ts).
 */
export function getLayoutData() {
  return memo(LAYOUT_CACHE_KEY, sharedCacheMs(), loadLayoutData);
}

async function loadLayoutData() {
  const [legalPages, platform] = await Promise.all([
    prisma.page.findMany({
      where: { type: "legal", isPublished: true },
      select: { slug: true, title: true },
      orderBy: { title: "asc" },
    }),
    prisma.appSetting.findUnique({ where: { key: "platform_name" }, select: { value: true } }),
  ]);
  return { legalPages, platformName: platform?.value ?? SETTING_DEFAULTS.platform_name };
}

// ---- pages ----

/**
 * A page by slug: published pages for everyone, drafts only when the caller may see them
 * (admins). Null for anything that is not a page, so callers answer 404. The content comes
 * back sanitised (line breaks intact): raw admin HTML never leaves this module. `cached`
 * (the HTML pages) keeps the row for sharedCacheMs, like the layout; /api/pages/slug reads it
 * fresh (never cached: an admin's edit shows at once).
 */
export async function getPage(slug: string, { includeDrafts = false, cached = false } = {}) {
  if (!PageSlugSchema.safeParse(slug).success) return null;
  const page = cached ? await memo(`${PAGE_CACHE_PREFIX}${slug}`, sharedCacheMs(), () => loadPage(slug)) : await loadPage(slug);
  if (!page || (!page.isPublished && !includeDrafts)) return null;
  return { ...page, content: await fillLicenceTerms(sanitizeHtml(page.content)) };
}

export const PAGE_CACHE_PREFIX = "page:";

function loadPage(slug: string) {
  return prisma.page.findUnique({
    where: { slug },
    select: { id: true, slug: true, title: true, content: true, metaDescription: true, metaKeywords: true, type: true, isPublished: true, updatedAt: true },
  });
}

/** Published pages of one type (the footer's legal links), as id, slug and title. */
export function listPublishedPages(type: PageType) {
  return prisma.page.findMany({
    where: { type, isPublished: true },
    select: { id: true, slug: true, title: true },
    orderBy: { title: "asc" },
  });
}

// ---- settings ----

// Only these keys leave the server through GET /api/settings: an admin may store other rows
// (provider keys, internal switches) that must never be public.
export const PUBLIC_SETTING_KEYS = [
  "platform_name",
  "global_subscription_yearly_price",
  "homepage_animations_per_page",
  "support_email",
  "support_phone",
  "support_address",
] as const satisfies readonly SettingKey[];

/** The public settings with their defaults filled in, as the /api contract's `{ key, value }` array. */
export async function getPublicSettings() {
  const settings = await getSettings();
  return PUBLIC_SETTING_KEYS.map((key) => ({ key, value: settings[key] }));
}

/** The contact page's side panel; `demo` when the phone or address is the demo's invented one. */
export async function getSupportDetails() {
  const settings = await getSettings();
  return {
    email: settings.support_email,
    phone: settings.support_phone,
    address: settings.support_address,
    hours: "Mon-Fri 9AM-5PM PST",
    demo: isDemoSetting("support_phone", settings.support_phone) || isDemoSetting("support_address", settings.support_address),
  };
}

/** The sales pages' testimonial from the settings; null when none is set. */
export async function getTestimonial() {
  const settings = await getSettings();
  if (!settings.testimonial_quote) return null;
  return { quote: settings.testimonial_quote, author: settings.testimonial_author, demo: isDemoSetting("testimonial_quote", settings.testimonial_quote) };
}

// ---- FAQs ----

export const DEFAULT_FAQ_GROUP = "General";

// FAQs and their categories are public and read-mostly: kept for sharedCacheMs like the
// catalogue; a write to either table drops them (cache-registry.server.ts).
const FAQ_CACHE_PREFIX = "faq:";

/** Active FAQ categories in their admin-defined order (the Help Center's filter). */
export function listFaqCategories() {
  return memo(`${FAQ_CACHE_PREFIX}categories`, sharedCacheMs(), () =>
    prisma.faqCategory.findMany({
      where: { isActive: true },
      orderBy: [{ sortOrder: "asc" }, { name: "asc" }],
      select: { id: true, name: true, slug: true, description: true, sortOrder: true },
    }),
  );
}

export type FaqFilter = { category?: string | null; search?: string | null };

/**
 * Active FAQs, optionally in one category (id or slug) and matching a search term in the
 * question or answer (case-insensitive). Answers are sanitised HTML, ready to render.
 * An FAQ in a deactivated category is hidden with it; one without a category belongs to the
 * "General" group. An unknown category matches nothing.
 */
export function listFaqs({ category, search }: FaqFilter = {}) {
  const key = `${FAQ_CACHE_PREFIX}list:${JSON.stringify([category?.trim() ?? "", search?.trim().toLowerCase() ?? ""])}`;
  return memo(key, sharedCacheMs(), async () => (await loadFaqs({ category, search }, false)).map(({ isActive: _, ...faq }) => faq));
}

/** Every FAQ, inactive ones and those of inactive categories too, in the same order (admins' Help Center). */
export function listFaqsForAdmin(filter: FaqFilter = {}) {
  return loadFaqs(filter, true);
}

// The Help Center shows at most this many; there are a few dozen in practice.
const FAQ_LIMIT = 500;

async function loadFaqs({ category, search }: FaqFilter, includeInactive: boolean) {
  const term = search?.trim().slice(0, 200);
  const categoryKey = category?.trim().slice(0, 200);
  const active = includeInactive ? {} : { isActive: true };
  const faqs = await prisma.faq.findMany({
    where: {
      ...active,
      ...(includeInactive ? {} : { OR: [{ categoryId: null }, { category: { isActive: true } }] }),
      ...(categoryKey ? { category: { ...active, OR: [{ slug: categoryKey }, ...(UUID_RE.test(categoryKey) ? [{ id: categoryKey }] : [])] } } : {}),
      ...(term
        ? { AND: [{ OR: [{ question: { contains: term, mode: "insensitive" as const } }, { answer: { contains: term, mode: "insensitive" as const } }] }] }
        : {}),
    },
    orderBy: [{ sortOrder: "asc" }, { createdAt: "asc" }],
    select: {
      id: true,
      question: true,
      answer: true,
      categoryId: true,
      sortOrder: true,
      views: true,
      isActive: true,
      category: { select: { name: true, sortOrder: true } },
    },
    take: FAQ_LIMIT,
  });
  // Grouped screens read best in the categories' order, General (no category) first; within a
  // category the FAQs keep their own order (the sort is stable).
  const rank = (c: { name: string; sortOrder: number } | null) => (c ? ([c.sortOrder, c.name] as const) : ([-Infinity, ""] as const));
  faqs.sort((a, b) => {
    const [ra, na] = rank(a.category);
    const [rb, nb] = rank(b.category);
    return ra - rb || na.localeCompare(nb);
  });
  return Promise.all(
    faqs.map(async ({ category: cat, answer, ...faq }) => ({
      ...faq,
      answer: await fillLicenceTerms(sanitizeHtml(answer)),
      categoryName: cat?.name ?? DEFAULT_FAQ_GROUP,
    })),
  );
}

/** FAQs grouped by category name, in display order. */
export function groupFaqs<T extends { categoryName: string }>(faqs: T[]) {
  const groups = new Map<string, T[]>();
  for (const faq of faqs) {
    const list = groups.get(faq.categoryName) ?? [];
    list.push(faq);
    groups.set(faq.categoryName, list);
  }
  return [...groups].map(([name, items]) => ({ name, faqs: items }));
}

/** Counts one view of an active FAQ; null when there is no such FAQ (404). */
export async function registerFaqView(id: string) {
  if (!UUID_RE.test(id)) return null;
  const updated = await prisma.faq.updateManyAndReturn({
    where: { id, isActive: true },
    data: { views: { increment: 1 } },
    select: { views: true },
  });
  return updated[0]?.views ?? null;
}

// ---- contact ----

/**
 * Stores a contact message and e-mails it to the support inbox. Delivery goes to the
 * operator's SUPPORT_EMAIL (deploy-time configuration, not the support_email setting shown on
 * the page, which may be a public alias): messages always reach the team that runs the site,
 * and an admin setting cannot redirect visitors' messages elsewhere. A failed e-mail does not
 * lose the message: it is stored first, and the failure is in the e-mail log.
 */
export async function submitContactMessage(input: ContactInput, userId: string | null, client: string) {
  await enforceRateLimit(`contact:${client}`, CONTACT_RULE);
  const message = await prisma.contactMessage.create({ data: { ...input, userId }, select: { id: true, createdAt: true } }).catch((error: unknown) => {
    // The visitor keeps what they typed and sees the product's failure text.
    logger.error({ err: error }, "contact message not stored");
    throw new ServiceError(CONTACT_FAILURE, 500);
  });
  const categoryLabel = CONTACT_CATEGORIES.find((c) => c.value === input.category)?.label ?? input.category;
  await sendTemplatedEmail({
    template: "contact_message",
    to: getEnv().SUPPORT_EMAIL,
    variables: { name: input.name, email: input.email, subject: input.subject, category: categoryLabel, message: input.message },
  });
  return message;
}

// ---- performance reports ----

export type PerformanceKind = "log" | "page-load" | "video-load";

const MAX_TEXT = 500;
const MAX_DURATION_MS = 10 * 60 * 1000;

function text(value: unknown, max = MAX_TEXT): string | null {
  return typeof value === "string" && value.trim() ? value.trim().slice(0, max) : null;
}

function millis(value: unknown): number | null {
  const n = typeof value === "string" ? Number(value) : value;
  return typeof n === "number" && Number.isFinite(n) && n >= 0 && n <= MAX_DURATION_MS ? Math.round(n * 100) / 100 : null;
}

/**
 * Turns a client's performance report (POST /api/performance/{kind}) into a row,
 * or null when it carries nothing usable. Loose on purpose: clients fire and forget, so a
 * malformed report is dropped, never answered with an error; strings are capped and numbers
 * bounded so nothing unbounded is stored.
 */
export function parsePerformanceReport(kind: PerformanceKind, body: unknown) {
  const b = (typeof body === "object" && body !== null ? body : {}) as Record<string, unknown>;
  const base = { kind, url: text(b.url, 2000), userAgent: text(b.userAgent) };
  if (kind === "log") {
    const operation = text(b.operation, 200);
    const duration = millis(b.duration);
    return operation && duration !== null ? { ...base, operation, duration, data: undefined } : null;
  }
  if (kind === "page-load") {
    const timings = {
      pageLoad: millis(b.pageLoad),
      domContentLoaded: millis(b.domContentLoaded),
      firstPaint: millis(b.firstPaint),
      firstContentfulPaint: millis(b.firstContentfulPaint),
    };
    if (timings.pageLoad === null) return null;
    return { ...base, operation: "page-load", duration: timings.pageLoad, data: timings };
  }
  const videoId = text(b.videoId, 100);
  const loadTime = millis(b.loadTime);
  return videoId && loadTime !== null ? { ...base, operation: "video-load", duration: loadTime, data: { videoId, loadTime } } : null;
}

/** Stores a performance report; never throws (a lost metric must not break the caller). */
export async function recordPerformance(kind: PerformanceKind, body: unknown, userAgentHeader: string | null) {
  const row = parsePerformanceReport(kind, body);
  if (!row) return false;
  try {
    await prisma.performanceLog.create({ data: { ...row, userAgent: row.userAgent ?? text(userAgentHeader) } });
    return true;
  } catch (error) {
    logger.warn({ err: error, kind }, "performance report not stored");
    return false;
  }
}

// Abuse limits per client address, counted in the database (app/lib/rate-limit.server.ts).
// Contact: valid messages only, generous for a person, tight for a script filling the inbox.
export const CONTACT_RULE = { limit: 10, windowMs: 60 * 60 * 1000 };
// Performance reports are sent only for slow operations; more than this is not a browser.
export const PERFORMANCE_RULE = { limit: 120, windowMs: 60 * 60 * 1000 };
