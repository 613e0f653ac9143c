import { cachedStream, cachedText, publicFor } from "~/lib/http-cache.server.ts";
import {
  animationFile,
  animationFileTag,
  categoriesSitemap,
  doctorsSitemap,
  pagesSitemap,
  SITEMAP_FILES,
  sitemapIndex,
  siteOrigin,
  streamAnimationFile,
  urlsetXml,
} from "~/services/seo/sitemap.server.ts";
import type { Route } from "./+types/sitemap";

const XML = "application/xml; charset=utf-8";
// Crawlers come back in hours or days; five minutes in a shared cache spares the database a
// crawl's bursts while a write still shows soon (the server itself rebuilds on the next request).
const POLICY = publicFor(300);

const notFound = () => new Response("Sitemap not found", { status: 404, headers: { "Content-Type": "text/plain; charset=utf-8" } });

/** The sitemap index and its files (services/seo/sitemap.server.ts), one loader for every path of it. */
export async function loader({ request }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const origin = siteOrigin(request);
  switch (url.pathname) {
    case SITEMAP_FILES.index:
      return cachedText(request, await sitemapIndex(origin), XML, POLICY);
    case SITEMAP_FILES.pages:
      return cachedText(request, urlsetXml(await pagesSitemap(), origin), XML, POLICY);
    case SITEMAP_FILES.categories:
      return cachedText(request, urlsetXml(await categoriesSitemap(), origin), XML, POLICY);
    case SITEMAP_FILES.doctors:
      return cachedText(request, urlsetXml(await doctorsSitemap(), origin), XML, POLICY);
    case SITEMAP_FILES.animations: {
      // Only the addresses the index lists: ?page=1, 2, ... as plain digits. A query, since a
      // route parameter is a whole path segment (no /sitemap-animations-2.xml), and a sitemap
      // under a folder could only list URLs under that folder.
      const page = url.searchParams.get("page") ?? "";
      if (!/^[1-9]\d{0,5}$/.test(page)) return notFound();
      const file = await animationFile(Number(page));
      if (!file) return notFound();
      return cachedStream(request, () => streamAnimationFile(file, origin), { etag: animationFileTag(file, origin), contentType: XML, policy: POLICY });
    }
    default:
      return notFound();
  }
}
