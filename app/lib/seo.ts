import type { MetaDescriptor } from "react-router";
import type { BreadcrumbList, Organization, Person, SearchAction, Thing, VideoObject, WebSite, WithContext } from "schema-dts";

// The head every public page shares (docs/seo.md, "Found and shared"): its own title
// and description, one absolute canonical URL, robots where a page must stay out of the index,
// Open Graph and Twitter card tags, and JSON-LD typed with schema-dts so a property schema.org
// does not have fails the typecheck. Routes describe their page with plain values; this module
// turns them into meta descriptors. The origin and the platform name come from the root loader
// (siteOf(matches)); the home page builds its head in its loader instead, so that its first load
// carries no more JavaScript.

/** Search engines cut descriptions at about 160 characters; Lighthouse wants one per page. */
export const DESCRIPTION_MAX = 160;
/** Matches <html lang="en">. */
export const OG_LOCALE = "en_US";

type Match = { id: string; data: unknown } | undefined;

/** Whose pages these are: the origin (lib/seo.server.ts siteOrigin) and the platform_name setting. */
export type Site = { origin: string; platformName: string };

/** The site as the root loader gives it to every page's meta. */
export function siteOf(matches: ReadonlyArray<Match>): Site {
  const root = matches.find((m) => m?.id === "root")?.data as Partial<Site> | undefined;
  return { origin: root?.origin ?? "http://localhost", platformName: root?.platformName ?? "Medanim" };
}

/** An absolute URL on the site's origin; an absolute URL (a CDN's) stays as it is. */
export function absoluteUrl(site: Site, pathOrUrl: string) {
  return new URL(pathOrUrl, site.origin).href;
}

/**
 * Plain text of at most DESCRIPTION_MAX characters: tags and runs of white space go, and a long
 * text is cut at a word with an ellipsis rather than mid-word.
 */
export function describe(text: string | null | undefined) {
  const plain = (text ?? "")
    .replace(/<[^>]*>/g, " ")
    .replace(/&nbsp;/g, " ")
    .replace(/\s+/g, " ")
    .trim();
  if (plain.length <= DESCRIPTION_MAX) return plain;
  const cut = plain.slice(0, DESCRIPTION_MAX - 1);
  const atWord = cut.lastIndexOf(" ");
  return `${(atWord > DESCRIPTION_MAX / 2 ? cut.slice(0, atWord) : cut).replace(/[\s,;:.–-]+$/, "")}…`;
}

/**
 * "index": the page is content of its own. "noindex, follow": a search result or another
 * duplicate whose links still lead to content. "noindex": private or one-off pages (sign-in,
 * tokens in links, licence checks).
 */
export type Robots = "index" | "noindex, follow" | "noindex";

export type PageImage = { url: string; width: number; height: number; alt: string };

export type PageHead = {
  /** The page's own title; the platform name is appended unless `fullTitle`. */
  title: string;
  fullTitle?: boolean;
  description: string;
  /** Path of the one URL this content lives at, without query: `?page=`, `?sort=` and tracking parameters never make a page of their own. */
  canonicalPath: string;
  robots?: Robots;
  ogType?: "website" | "article" | "profile" | "video.other";
  image?: PageImage | null;
  /** A video anybody may play (the public preview): og:video. */
  video?: { url: string; type: string; width?: number; height?: number } | null;
  links?: Array<{ rel: string; type?: string; href: string; title?: string }>;
  jsonLd?: Array<WithContext<Thing>>;
};

export function pageHead(site: Site, head: PageHead): MetaDescriptor[] {
  const siteName = site.platformName;
  const title = head.fullTitle ? head.title : `${head.title} | ${siteName}`;
  const description = describe(head.description);
  const url = absoluteUrl(site, head.canonicalPath);
  const image = head.image ? { ...head.image, url: absoluteUrl(site, head.image.url) } : null;
  const video = head.video ? { ...head.video, url: absoluteUrl(site, head.video.url) } : null;
  return [
    { title },
    { name: "description", content: description },
    { tagName: "link", rel: "canonical", href: url },
    ...(head.robots && head.robots !== "index" ? [{ name: "robots", content: head.robots }] : []),
    { property: "og:site_name", content: siteName },
    { property: "og:locale", content: OG_LOCALE },
    { property: "og:type", content: head.ogType ?? "website" },
    { property: "og:title", content: head.title },
    { property: "og:description", content: description },
    { property: "og:url", content: url },
    ...(image
      ? [
          { property: "og:image", content: image.url },
          { property: "og:image:width", content: String(image.width) },
          { property: "og:image:height", content: String(image.height) },
          { property: "og:image:alt", content: image.alt },
        ]
      : []),
    ...(video
      ? [
          { property: "og:video", content: video.url },
          { property: "og:video:type", content: video.type },
          ...(video.width && video.height
            ? [
                { property: "og:video:width", content: String(video.width) },
                { property: "og:video:height", content: String(video.height) },
              ]
            : []),
        ]
      : []),
    // The large card for wide pictures (the 1200×630 cover); a square photo fits the small one.
    { name: "twitter:card", content: image && image.width >= image.height * 1.5 ? "summary_large_image" : "summary" },
    { name: "twitter:title", content: head.title },
    { name: "twitter:description", content: description },
    ...(image
      ? [
          { name: "twitter:image", content: image.url },
          { name: "twitter:image:alt", content: image.alt },
        ]
      : []),
    ...(head.links ?? []).map((link) => ({ tagName: "link", ...link, href: absoluteUrl(site, link.href) })),
    ...(head.jsonLd ?? []).map((thing) => ({ "script:ld+json": thing })),
  ];
}

/** Seconds as an ISO 8601 duration ("PT2M5S"), as schema.org's `duration` wants. */
export function isoDuration(totalSeconds: number) {
  const seconds = Math.max(0, Math.round(totalSeconds));
  const h = Math.floor(seconds / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  const s = seconds % 60;
  return `PT${h ? `${h}H` : ""}${m ? `${m}M` : ""}${s || (!h && !m) ? `${s}S` : ""}`;
}

/** The trail a page shows as its breadcrumbs, as absolute URLs; the last item is the page itself. */
export function breadcrumbList(site: Site, items: Array<{ name: string; path: string }>): WithContext<BreadcrumbList> {
  return {
    "@context": "https://schema.org",
    "@type": "BreadcrumbList",
    itemListElement: items.map((item, index) => ({
      "@type": "ListItem",
      position: index + 1,
      name: item.name,
      item: absoluteUrl(site, item.path),
    })),
  };
}

/** A person with a profile page on this site (the doctors). */
export function personOnSite(
  site: Site,
  person: { name: string; path: string; jobTitle?: string | null; description?: string | null; image?: string | null },
): Exclude<Person, string> {
  return {
    "@type": "Person",
    name: person.name,
    url: absoluteUrl(site, person.path),
    ...(person.jobTitle ? { jobTitle: person.jobTitle } : {}),
    ...(person.description ? { description: describe(person.description) } : {}),
    ...(person.image ? { image: absoluteUrl(site, person.image) } : {}),
  };
}

export function videoObject(
  site: Site,
  video: { name: string; description: string; thumbnailUrl: string; uploadDate: string; durationSeconds: number; contentUrl?: string | null },
): VideoObject {
  return {
    "@type": "VideoObject",
    name: video.name,
    description: describe(video.description),
    thumbnailUrl: absoluteUrl(site, video.thumbnailUrl),
    uploadDate: video.uploadDate,
    duration: isoDuration(video.durationSeconds),
    ...(video.contentUrl ? { contentUrl: absoluteUrl(site, video.contentUrl) } : {}),
  };
}

/**
 * The site itself, for the home page: who publishes it and how to search it. schema-dts lacks
 * SearchAction's "query-input" (a Google extension), hence the intersection.
 */
export function siteStructuredData(site: Site, { logoPath, searchPath }: { logoPath: string; searchPath: string }) {
  const name = site.platformName;
  const url = absoluteUrl(site, "/");
  const organization: WithContext<Organization> = { "@context": "https://schema.org", "@type": "Organization", name, url, logo: absoluteUrl(site, logoPath) };
  const search: SearchAction & { "query-input": string } = {
    "@type": "SearchAction",
    target: { "@type": "EntryPoint", urlTemplate: `${absoluteUrl(site, searchPath)}{search_term_string}` },
    "query-input": "required name=search_term_string",
  };
  const website: WithContext<WebSite> = { "@context": "https://schema.org", "@type": "WebSite", name, url, potentialAction: search };
  return [organization, website];
}

/** Signed-in pages (account, checkout, admin): never in an index, even if a crawler gets in. */
export const NOINDEX = { name: "robots", content: "noindex" } as const;
