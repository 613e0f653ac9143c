import { type EntryContext, matchRoutes, type RouteObject } from "react-router";
import { pageHydrates } from "~/lib/page-handle.ts";

// Why this exists: for every document, React Router's <ServerRouter> rebuilds the whole route tree
// (twice over: server routes, then data routes) and <Scripts> matches each parent path of the URL
// against every route to inline the routes the browser should know up front. With the app's ~70
// routes that was about a quarter of a page's server time (measured: the animation page took
// 2.3-2.5 ms of CPU instead of 3.1-3.2 ms with only 5 routes). A document only needs the routes
// that match its URL and the URL's parent paths, which is exactly the set React Router's lazy
// route discovery sends to the browser; the others are fetched from /__manifest when a
// navigation needs them. So the document is rendered with the manifest cut down to that set.

type ManifestRoutes = EntryContext["manifest"]["routes"];

const trees = new WeakMap<ManifestRoutes, RouteObject[]>();

/** The manifest as a nested route tree (ids and paths only), built once per build. */
function routeTree(routes: ManifestRoutes): RouteObject[] {
  let tree = trees.get(routes);
  if (tree) return tree;
  const byParent = new Map<string | undefined, RouteObject[]>();
  for (const route of Object.values(routes)) {
    if (!route) continue;
    const node: RouteObject = route.index
      ? { id: route.id, index: true, path: route.path, caseSensitive: route.caseSensitive }
      : { id: route.id, path: route.path, caseSensitive: route.caseSensitive };
    byParent.set(route.parentId, [...(byParent.get(route.parentId) ?? []), node]);
  }
  const attach = (nodes: RouteObject[]): RouteObject[] =>
    nodes.map((node) => {
      const children = byParent.get(node.id);
      return children && !node.index ? { ...node, children: attach(children) } : node;
    });
  tree = attach(byParent.get(undefined) ?? []);
  trees.set(routes, tree);
  return tree;
}

/** "/a/b/c" → ["/", "/a", "/a/b"]: the paths React Router's <Scripts> discovers routes for. */
function parentPaths(pathname: string) {
  const segments = pathname.split("/").filter(Boolean);
  segments.pop();
  const paths = ["/"];
  for (let i = 1; i <= segments.length; i++) paths.push(`/${segments.slice(0, i).join("/")}`);
  return paths;
}

// Keyed by the URL's deepest parent path, so one entry serves every animation page. Bounded:
// URLs come from anyone.
const discovered = new Map<string, string[]>();
const MAX_DISCOVERED = 500;

function discoveredIds(routes: ManifestRoutes, pathname: string): string[] {
  const paths = parentPaths(pathname);
  const key = paths[paths.length - 1]!;
  let ids = discovered.get(key);
  if (ids) return ids;
  const found = new Set<string>();
  for (const path of paths) {
    for (const match of matchRoutes(routeTree(routes), path) ?? []) if (match.route.id) found.add(match.route.id);
  }
  ids = [...found];
  if (discovered.size >= MAX_DISCOVERED) discovered.clear();
  discovered.set(key, ids);
  return ids;
}

type Kept = { routes: ManifestRoutes; branches: EntryContext["branches"] };
const keptSets = new Map<string, Kept>();

/** Whether this document hydrates, from its routes' handles and loader data (lib/page-handle.ts). */
export function documentHydrates(context: EntryContext) {
  const { matches, loaderData } = context.staticHandlerContext;
  return pageHydrates(matches.map(({ route }) => ({ handle: context.routeModules[route.id]?.handle, data: loaderData[route.id] })));
}

/**
 * The entry context with only the routes this document renders or lets the browser discover. A
 * document that does not hydrate also goes without the loader data React Router would stream
 * into it: nothing in the page reads it. React Router's context encodes that data when its
 * `serverHandoffStream` is first read (patches/react-router+7.18.4.patch; the flattening was
 * 5 % of a member's animation page), so the context is copied property by property, getter
 * included, rather than spread, which would read it.
 */
export function documentContext(context: EntryContext, hydrates: boolean): EntryContext {
  const all = context.manifest.routes;
  const ids = new Set(context.staticHandlerContext.matches.map((match) => match.route.id));
  for (const id of discoveredIds(all, context.staticHandlerContext.location.pathname)) ids.add(id);
  const key = [...ids].sort().join(" ");
  let kept = keptSets.get(key);
  if (!kept) {
    // Every kept route's ancestors too: the tree must stay whole from the root down.
    for (const id of [...ids]) {
      for (let parent = all[id]?.parentId; parent && !ids.has(parent); parent = all[parent]?.parentId) ids.add(parent);
    }
    const routes: ManifestRoutes = {};
    for (const id of ids) if (all[id]) routes[id] = all[id];
    // React Router's precomputed, ranked branches, narrowed to the kept routes (same order).
    const branches = context.branches.filter((branch) => branch.routesMeta.every((meta) => ids.has(meta.route.id)));
    kept = { routes, branches };
    if (keptSets.size >= MAX_DISCOVERED) keptSets.clear();
    keptSets.set(key, kept);
  }
  const descriptors = Object.getOwnPropertyDescriptors(context);
  if (!hydrates) delete (descriptors as Partial<typeof descriptors>).serverHandoffStream;
  const document: EntryContext = Object.defineProperties({} as EntryContext, descriptors);
  document.manifest = { ...context.manifest, routes: kept.routes };
  document.branches = kept.branches;
  return document;
}
