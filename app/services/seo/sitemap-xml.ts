// The sitemap protocol's XML (sitemaps.org 0.9) and Google's video extension, written by hand:
// a handful of elements, streamed a batch at a time. Pure, so the byte bounds are unit-testable.

export const SITEMAP_NS = "http://www.sitemaps.org/schemas/sitemap/0.9";
export const VIDEO_NS = "http://www.google.com/schemas/sitemap-video/1.1";

/**
 * The most one animation's <url> may weigh. With at most 10,000 entries a file
 * (SITEMAP_URLS_PER_FILE) that keeps every file under the protocol's 50 MB (52,428,800 bytes,
 * uncompressed): 10,000 × 5,000 plus the envelope. The description gives way first.
 */
export const MAX_ENTRY_BYTES = 5_000;

/** Google reads at most 2,048 characters of a video description. */
export const VIDEO_DESCRIPTION_MAX = 2048;
/** Google's video:duration range, in seconds (1 s to 8 h). */
const DURATION_RANGE = [1, 28_800] as const;

// Characters XML 1.0 cannot hold at all (control characters, lone surrogates, U+FFFE/U+FFFF):
// an admin's pasted text must not make the whole file unreadable.
const NOT_XML = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;
const ENTITIES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&apos;" };

export function escapeXml(text: string) {
  return text.replace(NOT_XML, "").replace(/[&<>"']/g, (c) => ENTITIES[c]!);
}

/** The escaped text cut to at most `maxBytes` UTF-8 bytes, never inside a character or an entity. */
export function escapeXmlWithin(text: string, maxBytes: number) {
  const whole = escapeXml(text);
  if (Buffer.byteLength(whole) <= maxBytes) return whole;
  let out = "";
  let bytes = 0;
  for (const char of text.replace(NOT_XML, "")) {
    const escaped = ENTITIES[char] ?? char;
    const size = Buffer.byteLength(escaped);
    if (bytes + size > maxBytes) break;
    out += escaped;
    bytes += size;
  }
  return out;
}

export function xmlHeader(root: "urlset" | "sitemapindex", withVideo = false) {
  const video = withVideo ? ` xmlns:video="${VIDEO_NS}"` : "";
  return `<?xml version="1.0" encoding="UTF-8"?>\n<${root} xmlns="${SITEMAP_NS}"${video}>\n`;
}

export const xmlFooter = (root: "urlset" | "sitemapindex") => `</${root}>\n`;

const lastmodTag = (lastmod: Date | null) => (lastmod ? `<lastmod>${lastmod.toISOString()}</lastmod>` : "");

export function sitemapRef(loc: string, lastmod: Date | null) {
  return `<sitemap><loc>${escapeXml(loc)}</loc>${lastmodTag(lastmod)}</sitemap>\n`;
}

export function urlEntry(loc: string, lastmod: Date | null) {
  return `<url><loc>${escapeXml(loc)}</loc>${lastmodTag(lastmod)}</url>\n`;
}

export type VideoFacts = {
  /** Absolute URLs. */
  thumbnailLoc: string;
  contentLoc: string;
  title: string;
  description: string;
  /** Seconds. */
  duration: number;
  publishedAt: Date;
};

/**
 * An animation's <url> with its <video:video>, within MAX_ENTRY_BYTES: the description is cut
 * to what is left. Without room for a description (URLs no real row has) the video is left out;
 * null when not even the plain entry fits.
 */
export function animationEntry(loc: string, lastmod: Date | null, video: VideoFacts | null): string | null {
  const plain = urlEntry(loc, lastmod);
  if (Buffer.byteLength(plain) > MAX_ENTRY_BYTES) return null;
  if (!video) return plain;
  const duration = Math.round(video.duration);
  const durationTag = duration >= DURATION_RANGE[0] && duration <= DURATION_RANGE[1] ? `<video:duration>${duration}</video:duration>` : "";
  const before =
    `<url><loc>${escapeXml(loc)}</loc>${lastmodTag(lastmod)}<video:video>` +
    `<video:thumbnail_loc>${escapeXml(video.thumbnailLoc)}</video:thumbnail_loc>` +
    `<video:title>${escapeXml(video.title)}</video:title><video:description>`;
  const after =
    `</video:description><video:content_loc>${escapeXml(video.contentLoc)}</video:content_loc>${durationTag}` +
    `<video:publication_date>${video.publishedAt.toISOString()}</video:publication_date></video:video></url>\n`;
  const room = MAX_ENTRY_BYTES - Buffer.byteLength(before) - Buffer.byteLength(after);
  const description = escapeXmlWithin(video.description.slice(0, VIDEO_DESCRIPTION_MAX), Math.max(0, room));
  return description.trim() ? before + description + after : plain;
}
