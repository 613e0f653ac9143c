import type { MetaDescriptor } from "react-router";
import type { BreadcrumbList, Organization, Person, SearchAction, Thing, VideoObject, WebSite, WithContext } from "schema-dts";

// The head every public page shares (README, "Found and shared"): its own title
// and description, one absolute canonical URL, robots where a page must stay out of the index,
// Open Graph and Twitter card tags, and JSON-LD typed with schema-dts so a property schema.org
// does not have fails the typecheck. Routes describe their page with plain values; this module
// turns them into meta descriptors. The origin and the platform name come from the root loader.

/** Search engines cut descriptions at about 160 characters; Lighthouse wants one per page. */
export const DESCRIPTION_MAX = 160;
/** Matches <html lang="en">. */
export const OG_LOCALE = "en_US";

type Match = { id: string; data: unknown } | undefined;
type RootHead = { platformName?: string; origin?: string };

function rootHead(matches: ReadonlyArray<Match>): RootHead {
  return (matches.find((m) => m?.id === "root")?.data as RootHead | undefined) ?? {};
}

export function platformNameOf(matches: ReadonlyArray<Match>) {
  return rootHead(matches).platformName ?? "Medanim";
}

/** An absolute URL on the site's origin (APP_URL when set, else the request's; see root.tsx). */
export function absoluteUrl(matches: ReadonlyArray<Match>, pathOrUrl: string) {
  return new URL(pathOrUrl, rootHead(matches).origin ?? "http://localhost").href;
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

export function pageHead(matches: ReadonlyArray<Match>, head: PageHead): MetaDescriptor[] {
  const siteName = platformNameOf(matches);
  const title = head.fullTitle ? head.title : `${head.title} | ${siteName}`;
  const description = describe(head.description);
  const url = absoluteUrl(matches, head.canonicalPath);
  const image = head.image ? { ...head.image, url: absoluteUrl(matches, head.image.url) } : null;
  const video = head.video ? { ...head.video, url: absoluteUrl(matches, head.video.url) } : null;
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
    ...(head.links ?? []).map((link) => ({ tagName: "link", ...link, href: absoluteUrl(matches, link.href) })),
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
export function breadcrumbList(matches: ReadonlyArray<Match>, items: Array<{ name: string; path: string }>): WithContext<BreadcrumbList> {
  return {
    "@context": "https://schema.org",
    "@type": "BreadcrumbList",
    itemListElement: items.map((item, index) => ({
      "@type": "ListItem",
      position: index + 1,
      name: item.name,
      item: absoluteUrl(matches, item.path),
    })),
  };
}

/** A person with a profile page on this site (the doctors). */
export function personOnSite(
  matches: ReadonlyArray<Match>,
  person: { name: string; path: string; jobTitle?: string | null; description?: string | null; image?: string | null },
): Exclude<Person, string> {
  return {
    "@type": "Person",
    name: person.name,
    url: absoluteUrl(matches, person.path),
    ...(person.jobTitle ? { jobTitle: person.jobTitle } : {}),
    ...(person.description ? { description: describe(person.description) } : {}),
    ...(person.image ? { image: absoluteUrl(matches, person.image) } : {}),
  };
}

export function videoObject(
  matches: ReadonlyArray<Match>,
  video: { name: string; description: string; thumbnailUrl: string; uploadDate: string; durationSeconds: number; contentUrl?: string | null },
): VideoObject {
  return {
    "@type": "VideoObject",
    name: video.name,
    description: describe(video.description),
    thumbnailUrl: absoluteUrl(matches, video.thumbnailUrl),
    uploadDate: video.uploadDate,
    duration: isoDuration(video.durationSeconds),
    ...(video.contentUrl ? { contentUrl: absoluteUrl(matches, video.contentUrl) } : {}),
  };
}

/**
 * The site itself, for the home page: who publishes it and how to search it. schema-dts lacks
 * SearchAction's "query-input" (a Google extension), hence the intersection.
 */
export function siteStructuredData(matches: ReadonlyArray<Match>, { logoPath, searchPath }: { logoPath: string; searchPath: string }) {
  const name = platformNameOf(matches);
  const url = absoluteUrl(matches, "/");
  const organization: WithContext<Organization> = { "@context": "https://schema.org", "@type": "Organization", name, url, logo: absoluteUrl(matches, logoPath) };
  const search: SearchAction & { "query-input": string } = {
    "@type": "SearchAction",
    target: { "@type": "EntryPoint", urlTemplate: `${absoluteUrl(matches, searchPath)}{search_term_string}` },
    "query-input": "required name=search_term_string",
  };
  const website: WithContext<WebSite> = { "@context": "https://schema.org", "@type": "WebSite", name, url, potentialAction: search };
  return [organization, website];
}

/** Signed-in pages (account, checkout, admin): never in an index, even if a crawler gets in. */
export const NOINDEX = { name: "robots", content: "noindex" } as const;
