import { cachedText, publicFor } from "~/lib/http-cache.server.ts";
import { robotsTxt } from "~/services/seo/robots.ts";
import { SITEMAP_FILES, siteOrigin } from "~/services/seo/sitemap.server.ts";
import type { Route } from "./+types/robots";

/** /robots.txt: the same for everyone; it changes only with APP_URL, so caches keep it an hour. */
export function loader({ request }: Route.LoaderArgs) {
  const sitemap = new URL(SITEMAP_FILES.index, siteOrigin(request)).href;
  return cachedText(request, robotsTxt(sitemap), "text/plain; charset=utf-8", publicFor(3600));
}
