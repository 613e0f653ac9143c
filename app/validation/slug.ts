/**
 * A slug from a name or title: accents folded to their letter ("Über" → "uber"), lowercased,
 * anything but letters, digits, spaces, hyphens and underscores dropped, each run of spaces,
 * hyphens and underscores turned into one separator, none at either end. Pages and catalogue
 * records use hyphens; animations use underscores (decision 009).
 */
export function slugify(text: string, { separator = "-", max }: { separator?: "-" | "_"; max: number }) {
  return text
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9\s_-]/g, "")
    .trim()
    .replace(/[\s_-]+/g, separator)
    .slice(0, max)
    .replace(/^[_-]+|[_-]+$/g, "");
}
