// What crawlers may fetch (RFC 9309; Google and Bing read `*` and `$` in paths). robots.txt
// saves crawl effort; it does not keep a URL out of an index (a page's `noindex` does that,
// and a crawler must be allowed to fetch the page to see it).
//
// A private path is closed as itself, its query variants and its subtree (`/refund$`,
// `/refund?`, `/refund/`), never as a bare prefix: content pages live at /{slug}, and
// `Disallow: /refund` would also close a page called /refund-policy.

/** Paths of the back office, the account, checkout and the licensed player: nothing there is for a search result. */
const PRIVATE_PATHS = [
  "/admin",
  // Account pages redirect a crawler to sign-in; receipts and certificates are one member's.
  "/dashboard",
  "/my-animations",
  // The Downloads library and the licence packages it links.
  "/downloads",
  "/packages",
  "/billing",
  // A member's practice, and its e-mailed invitation links.
  "/practice",
  "/profile",
  "/notifications",
  "/refund",
  "/watch",
  "/purchase",
  "/checkout",
  // Certificates and their verification: one licence's record, reached from the document, not from search.
  "/licences",
  // The e-mailed token links.
  "/sign-out",
  "/forgot-password",
  "/reset-password",
  "/verify-email",
  "/unsubscribe",
  // The licensed embed player answers only on a licensee's site; its media likewise.
  "/embed",
  "/embed-media",
];

/**
 * Pages that are indexable themselves but whose query variants are not: sign-in (every page links
 * it, sales and guarded pages with their own ?redirectTo: requests for the same form) and search
 * (result lists are noindex and their query space has no end; Google's guidance is to keep
 * crawlers out of internal search results; the catalogue is reached through the sitemap).
 */
const QUERY_VARIANTS_CLOSED = ["/auth", "/search"];

/** The lines of robots.txt: `sitemapUrl` is absolute, as the protocol requires. */
export function robotsTxt(sitemapUrl: string) {
  const lines = [
    "User-agent: *",
    "Allow: /",
    ...PRIVATE_PATHS.flatMap((path) => [`Disallow: ${path}$`, `Disallow: ${path}?`, `Disallow: ${path}/`]),
    ...QUERY_VARIANTS_CLOSED.flatMap((path) => [`Disallow: ${path}?`, `Disallow: ${path}/`]),
    // The /api contract is for programs, not for search results...
    "Disallow: /api/",
    // ...but oEmbed is fetched by link-preview services (Iframely, Embedly) that obey robots.txt,
    // when a licensee pastes an animation's address into their site builder.
    "Allow: /api/oembed",
    // Media sets: members' signed files are closed; the public preview (/media/{set}/public/...)
    // stays open, since it is the content_loc of each animation's video entry in the sitemap and
    // Google fetches it to index the video. Cover images and their renditions (/objects/) stay open too.
    // With MEDIA_BASE_URL (a CDN) the media host's own robots.txt must let /media/*/public/ through.
    "Disallow: /media/",
    "Allow: /media/*/public/",
    "",
    `Sitemap: ${sitemapUrl}`,
  ];
  return `${lines.join("\n")}\n`;
}
