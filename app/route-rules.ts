import type { BodyRule, RouteRuleOverride } from "./lib/route-table.server.ts";
import { uploadRule, type UploadKind } from "./lib/upload.server.ts";

// What app/routes.ts cannot say about a route, beside it: read by the one route table
// (lib/route-table.server.ts), which the split build, the edge guard, CSRF and compression all
// consult. A route that needs nothing special is not named here: its path decides (see
// docs/architecture.md, "How a request flows"). The server refuses to start when a path below
// is not a route of app/routes.ts.

const MB = 1024 * 1024;

/**
 * A page form that posts its files (no JavaScript): they are streamed to storage with their
 * kind's limit and a file over it is refused beside its field. The body may carry each file up
 * to its limit plus a margin, plus 1 MB of text fields, so a file over its own limit is still
 * read to the end and answered on the form; beyond that the edge answers 413 with a page of its
 * own, and what the admin typed is lost. The margin is the file's own limit, but at least
 * OVERSIZE_MARGIN. Why: twice the doctor photo's 5 MB made an 11 MB cap, so an ordinary camera
 * JPEG of 12 to 25 MB lost the form instead of reading "File size must be less than 5MB.".
 */
function uploadForm(...kinds: UploadKind[]) {
  return (): BodyRule => ({ kind: "multipart", limit: kinds.reduce((sum, kind) => sum + fileAllowance(kind), 0) + MB });
}

/** What a photo straight from a camera or a full-size PNG export may weigh. */
const OVERSIZE_MARGIN = 64 * MB;

function fileAllowance(kind: UploadKind) {
  const { maxBytes } = uploadRule(kind);
  return maxBytes + Math.max(maxBytes, OVERSIZE_MARGIN);
}

const ANIMATION_FORM = uploadForm("cover", "video", "download");
const CATEGORY_FORM = uploadForm("thumbnail");
const DOCTOR_FORM = uploadForm("doctor-photo");

/** Files for crawlers and browsers, made from the data: read only, no body. */
const READ_ONLY_FILE: RouteRuleOverride = { methods: ["GET", "HEAD"], body: () => ({ kind: "none", limit: 0 }) };

/** A page-side call the browser's script sends as JSON (the passkey ceremonies). */
const JSON_CALL: RouteRuleOverride = { body: () => ({ kind: "json", limit: 64 * 1024 }) };

/** Route paths (as written in app/routes.ts) whose rules differ from their part's defaults. */
export const ROUTE_RULES: Record<string, RouteRuleOverride> = {
  "admin/animations/new": { body: ANIMATION_FORM },
  "admin/animations/:id": { body: ANIMATION_FORM },
  "admin/animations/:id/medical": { body: uploadForm("caption") },
  "admin/categories/new": { body: CATEGORY_FORM },
  "admin/categories/:id": { body: CATEGORY_FORM },
  "admin/doctors/new": { body: DOCTOR_FORM },
  "admin/doctors/:id": { body: DOCTOR_FORM },
  // The practice's logo (its other forms are plain ones, which a multipart rule lets through too).
  practice: { body: uploadForm("thumbnail") },
  // Read byte for byte: the signature covers the raw body.
  "api/webhooks/stripe": { body: () => ({ kind: "raw", limit: MB }), csrfExempt: "sent by the payment provider, verified by its signature" },
  "auth/passkey/options": JSON_CALL,
  "auth/passkey": JSON_CALL,
  "profile/passkeys/options": JSON_CALL,
  "profile/passkeys/register": JSON_CALL,
  "robots.txt": READ_ONLY_FILE,
  "sitemap.xml": READ_ONLY_FILE,
  "sitemap-pages.xml": READ_ONLY_FILE,
  "sitemap-categories.xml": READ_ONLY_FILE,
  "sitemap-doctors.xml": READ_ONLY_FILE,
  "sitemap-animations.xml": READ_ONLY_FILE,
  "manifest.webmanifest": READ_ONLY_FILE,
  unsubscribe: { csrfExempt: "authorised by its signed link, not a cookie (RFC 8058: the mail provider posts it)" },
  "api/playback-events": { csrfExempt: "authorised by its signed playback token, not a cookie: the player sits in a clinic's frame" },
};

/**
 * Route paths whose answer to an anonymous GET is the same for every visitor, so the page
 * cache (lib/page-cache.server.ts, decision 021) may keep it: the catalogue, content and
 * crawler files, and the public /api reads. Not here: sign-in and account flows, links that
 * carry a token (reset, verify, unsubscribe), a licence's verification (revocable without a
 * catalogue write), the licensed embed (answers per requesting site), and /api/pages/slug/{slug}
 * (never stored: an admin's edit shows at once). An answer is still kept only when it is a 200
 * with no cookie and no private or no-store Cache-Control.
 */
export const SHARED_ANSWERS: readonly string[] = [
  "",
  "home/cards",
  "search",
  "animations/:slug",
  "category/:slug",
  "category/:mainSlug/:subSlug",
  "category/:mainSlug/:subSlug/:animationSlug",
  "doctors/:slugOrId",
  "premium",
  "individual-license",
  "category-license",
  "global-license",
  "help",
  "contact",
  "about",
  "pages/:slug",
  ":slug",
  "robots.txt",
  "sitemap.xml",
  "sitemap-pages.xml",
  "sitemap-categories.xml",
  "sitemap-doctors.xml",
  "sitemap-animations.xml",
  "manifest.webmanifest",
  "api/animations",
  "api/animations/:slugOrId",
  "api/categories",
  "api/categories/main",
  "api/categories/path/:mainSlug/:subSlug?",
  "api/categories/:slugOrId",
  "api/doctors",
  "api/doctors/:slugOrId",
  "api/settings",
  "api/settings/:key",
  "api/pages",
  "api/pages/:id",
  "api/pages/type/:type",
  "api/faq-categories",
  "api/faqs",
  "api/oembed",
  "api/openapi.json",
];
