import { prisma } from "~/lib/db.server.ts";
import { escapeHtml } from "~/lib/sanitize.server.ts";
import {
  formatLicenceTermsTitle,
  LICENCE_TERMS_AFTER_END_PLACEHOLDER,
  LICENCE_TERMS_PATH,
  LICENCE_TERMS_PLACEHOLDER,
  LICENCE_TERMS_SECTIONS,
  type LicenceTermsBody,
} from "./licence-terms-text.ts";

// The one source of what a licence allows and what happens when it ends (decision 028): the
// LicenceTerms rows. Every surface that words the licence renders them from here.

export type LicenceTerms = LicenceTermsBody & { version: number; effectiveFrom: Date };

const termsSelect = { version: true, effectiveFrom: true, grant: true, afterEnd: true, restrictions: true } as const;

/**
 * The version in effect: the highest whose effectiveFrom has come. A database always has one (the
 * migration that made the table wrote version 1), so its absence is a broken database, not input.
 */
export async function getCurrentLicenceTerms(now = new Date()): Promise<LicenceTerms> {
  const terms = await prisma.licenceTerms.findFirst({ where: { effectiveFrom: { lte: now } }, orderBy: { version: "desc" }, select: termsSelect });
  if (!terms) throw new Error("No licence terms are in effect: the LicenceTerms table has no current version");
  return terms;
}

/** The whole of the terms as HTML, for the Terms page. */
export function licenceTermsHtml(terms: LicenceTerms) {
  const sections = LICENCE_TERMS_SECTIONS.map(([key, heading]) => `<p><strong>${escapeHtml(heading)}.</strong> ${escapeHtml(String(terms[key]))}</p>`);
  return `<h3>${escapeHtml(formatLicenceTermsTitle(terms))}</h3>${sections.join("")}`;
}

/** The rule for the end of a licence as HTML, for an FAQ answer, with a link to the whole. */
export function licenceAfterEndHtml(terms: LicenceTerms) {
  return `<p>${escapeHtml(terms.afterEnd)}</p><p><a href="${LICENCE_TERMS_PATH}">License terms, version ${terms.version}</a></p>`;
}

/**
 * Admin-written HTML (a content page, an FAQ answer) with its licence placeholders replaced by
 * the current terms. The terms are read only when a placeholder is there.
 */
export async function fillLicenceTerms(html: string, now = new Date()) {
  if (!html.includes(LICENCE_TERMS_PLACEHOLDER) && !html.includes(LICENCE_TERMS_AFTER_END_PLACEHOLDER)) return html;
  const terms = await getCurrentLicenceTerms(now);
  return html.replaceAll(LICENCE_TERMS_PLACEHOLDER, licenceTermsHtml(terms)).replaceAll(LICENCE_TERMS_AFTER_END_PLACEHOLDER, licenceAfterEndHtml(terms));
}
