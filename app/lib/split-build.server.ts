import type { ServerBuild } from "react-router";

// Why: React Router matches every request against every route, in rank order, twice (once to
// find the handler, once in the static handler), and a page's render walks the route list
// again. The JSON contract under /api/ and the pages never match each other's routes, so each
// is served by a handler built from its own part of the route table: about half the routes to
// walk for every request. Lazy route discovery (/__manifest) must see every route (the home
// page's fetcher loads /api/animations), so it keeps the whole build.

const API_ROUTE = /^routes\/api\//;

function withRoutes(build: ServerBuild, keep: (id: string) => boolean): ServerBuild {
  const routes: ServerBuild["routes"] = {};
  for (const [id, route] of Object.entries(build.routes)) if (route && (route.parentId === undefined || keep(id))) routes[id] = route;
  return { ...build, routes };
}

// The licensed embed player (/embed/{id}) is loaded by every visitor of every clinic page that
// frames it: it is a resource route with a part of its own, so matching it walks one route.
const EMBED_ROUTE = "routes/public/embed";
const EMBED_PATH = /^\/embed\/[0-9a-fA-F-]+$/;

/** The build split four ways: /api/ calls, pages, the embed player, and the whole (for /__manifest). */
export function splitServerBuild(build: ServerBuild) {
  return {
    api: withRoutes(build, (id) => API_ROUTE.test(id)),
    pages: withRoutes(build, (id) => !API_ROUTE.test(id)),
    embed: withRoutes(build, (id) => id === EMBED_ROUTE),
    all: build,
  };
}

/** Which part answers a request path. */
export function buildPartFor(pathname: string, manifestPath = "/__manifest"): "api" | "pages" | "embed" | "all" {
  if (pathname.startsWith("/api/")) return "api";
  // Only an id-shaped path: anything else under /embed/ gets the pages' not-found screen.
  if (EMBED_PATH.test(pathname)) return "embed";
  if (pathname === manifestPath) return "all";
  return "pages";
}
