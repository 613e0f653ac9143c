import { z } from "zod";

// The lay terms search understands (setting search_synonyms): "nose job=rhinoplasty", one per
// line. Browser-safe: the settings form and the search service read the same rule.

export const SYNONYMS_INVALID = "Write one synonym per line as lay words=medical term, such as nose job=rhinoplasty (letters, digits, spaces and dashes)";

/** The demo's table: common lay words for the procedures the catalogue names. */
export const DEFAULT_SEARCH_SYNONYMS = [
  "nose job=rhinoplasty",
  "nose surgery=rhinoplasty",
  "nose reshaping=rhinoplasty",
  "tummy tuck=abdominoplasty",
  "boob job=breast augmentation",
  "breast implants=breast augmentation",
  "eyelid surgery=blepharoplasty",
  "eyelid lift=blepharoplasty",
  "face lift=facelift",
  "lipo=liposuction",
  "slipped disc=microdiscectomy",
  "heart stent=stent",
  "clot removal=thrombectomy",
  "brain pacemaker=deep brain stimulation",
  "keyhole surgery=arthroscopic",
].join("\n");

const PHRASE = /^[\p{L}\p{N}][\p{L}\p{N} '-]{0,58}[\p{L}\p{N}]$|^[\p{L}\p{N}]$/u;

/** "lay=term" lines as [lay words, term] pairs, lower case; null when a line is not one. */
export function parseSynonyms(text: string): Array<[string, string]> | null {
  const pairs: Array<[string, string]> = [];
  for (const line of text
    .split(/[\n;]/)
    .map((l) => l.trim())
    .filter(Boolean)) {
    const [lay, term, ...rest] = line.split("=").map((part) => part.trim().toLowerCase().replace(/\s+/g, " "));
    if (rest.length || !lay || !term || !PHRASE.test(lay) || !PHRASE.test(term)) return null;
    pairs.push([lay, term]);
  }
  return pairs;
}

export const SearchSynonymsRule = z
  .string()
  .trim()
  .max(4000, SYNONYMS_INVALID)
  .refine((value) => parseSynonyms(value) !== null, SYNONYMS_INVALID);

/**
 * The term with each lay phrase it holds (as whole words) put in medical terms: "nose job
 * recovery" → "rhinoplasty recovery". Longer phrases first, so "nose job" wins over "nose".
 */
export function applySynonyms(term: string, pairs: Array<[string, string]>): string {
  const words = ` ${term
    .toLowerCase()
    .replace(/[^\p{L}\p{N}'-]+/gu, " ")
    .trim()} `;
  let result = words;
  for (const [lay, medical] of [...pairs].sort((a, b) => b[0].length - a[0].length)) {
    // Twice: a phrase right after another shares the space between them.
    for (let i = 0; i < 2; i++) result = result.split(` ${lay} `).join(` ${medical} `);
  }
  return result === words ? term : result.trim();
}
