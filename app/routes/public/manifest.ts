import { BACKGROUND_COLOR, THEME_COLOR } from "~/lib/brand.ts";
import { cachedText, publicFor } from "~/lib/http-cache.server.ts";
import { getSetting } from "~/services/site/settings.server.ts";
import type { Route } from "./+types/manifest";

// The web app manifest (installing the site, the phone's home-screen icon). The icons are made
// from public/favicon.svg by scripts/make-icons.ts.

/** /manifest.webmanifest: named by the platform_name setting. */
export async function loader({ request }: Route.LoaderArgs) {
  const name = await getSetting("platform_name");
  const manifest = {
    id: "/",
    name,
    short_name: name,
    lang: "en",
    start_url: "/",
    scope: "/",
    display: "standalone",
    theme_color: THEME_COLOR,
    background_color: BACKGROUND_COLOR,
    icons: [
      { src: "/icon-192.png", sizes: "192x192", type: "image/png", purpose: "any" },
      { src: "/icon-512.png", sizes: "512x512", type: "image/png", purpose: "any" },
      // A full-bleed tile: the platform crops it to its own shape (circle, squircle).
      { src: "/icon-maskable-512.png", sizes: "512x512", type: "image/png", purpose: "maskable" },
    ],
  };
  return cachedText(request, JSON.stringify(manifest), "application/manifest+json; charset=utf-8", publicFor(3600));
}
