import { formatLongDate } from "~/lib/format.ts";

// How the licence terms record reads on each surface (decision 028). Pure, so the seed can write
// a package's license.txt with it; the wording itself lives only in the LicenceTerms rows.

export type LicenceTermsBody = {
  version: number;
  effectiveFrom: Date | string;
  grant: string;
  afterEnd: string;
  restrictions: string;
};

/** Where a content page (the Terms page) shows the whole of the current terms. */
export const LICENCE_TERMS_PLACEHOLDER = "{{licence-terms}}";
/** Where a content page or an FAQ answer shows the current rule for the end of a licence. */
export const LICENCE_TERMS_AFTER_END_PLACEHOLDER = "{{licence-terms:after-end}}";

/** The Terms page, whose licence section shows the current terms: checkout and the FAQs link to it. */
export const LICENCE_TERMS_PATH = "/terms-of-service";

export const LICENCE_TERMS_SECTIONS = [
  ["grant", "While the license is active"],
  ["afterEnd", "When the license ends"],
  ["restrictions", "Never allowed"],
] as const satisfies readonly (readonly [keyof LicenceTermsBody, string])[];

/** "License terms, version 1 (in effect from 30 November 2026)" */
export function formatLicenceTermsTitle(terms: Pick<LicenceTermsBody, "version" | "effectiveFrom">) {
  return `License terms, version ${terms.version} (in effect from ${formatLongDate(terms.effectiveFrom)})`;
}

/** The terms as the license.txt of a download package. */
export function formatLicenceTermsText(terms: LicenceTermsBody) {
  const title = `Medanim ${formatLicenceTermsTitle(terms).replace(/^L/, "l")}`;
  const sections = LICENCE_TERMS_SECTIONS.map(([key, heading]) => `${heading}\n${"-".repeat(heading.length)}\n${wrap(String(terms[key]))}`);
  return `${title}\n${"=".repeat(title.length)}\n\n${sections.join("\n\n")}\n`;
}

/** Plain-text paragraphs at 90 columns, as the README beside it. */
function wrap(text: string, width = 90) {
  const lines: string[] = [];
  let line = "";
  for (const word of text.split(/\s+/)) {
    if (line && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  if (line) lines.push(line);
  return lines.join("\n");
}
