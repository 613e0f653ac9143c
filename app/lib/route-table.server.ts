import { matchPath, matchRoutes, type ServerBuild } from "react-router";

// The one route table: what the server build's routes (app/routes.ts) and the rules beside them
// (app/route-rules.ts) say about a request, decided once per request and read by the edge
// guard, the CSRF guard, the compression filter and the dispatch to a part of the split build.
// Why one table: these facts lived in six places (an id pattern in the split, path lists of
// body limits, methods and CSRF exemptions), and three admin calls with custom ids fell out of
// the /api part, answering 404 in production while every test passed.
//
// Why a split: React Router matches every request against every route, in rank order, twice,
// and a page's render walks the route list again. The /api contract and the pages never match
// each other's routes, so each is served by a handler built from its own part: about half the
// routes to walk per request. The licensed embed player, loaded by every visitor of a clinic's
// page, has a part of its own. Lazy route discovery (/__manifest) must see every route.

const MB = 1024 * 1024;

export type BuildPart = "api" | "pages" | "embed";
export type BodyRule = { kind: "form" | "json" | "multipart" | "raw" | "none"; limit: number | null };

export type RequestRule = {
  /** Which handler answers: a part of the split build, the whole build, or Express itself. */
  part: BuildPart | "all" | "server";
  /** The methods the edge lets through; null when the route answers 405 itself. */
  methods: readonly string[] | null;
  body: BodyRule;
  /** Why the CSRF guard lets a cross-site write through, if it does. */
  csrfExempt: string | null;
  compress: boolean;
  /** How a refusal is written: JSON for the contract and media, an HTML page for browsers' pages. */
  errors: "json" | "html";
};

export type RouteRuleOverride = {
  body?: () => BodyRule;
  csrfExempt?: string;
  /** A page-part resource that is only read (robots.txt, sitemaps): other methods get 405 at the edge. */
  methods?: readonly string[];
};

const READ_ONLY = ["GET", "HEAD"];
// Pages are read (loaders) and posted to by forms (actions); anything else makes React Router's
// `formData()` throw inside an action.
const PAGE_METHODS = ["GET", "HEAD", "POST"];

const PART_DEFAULTS: Record<BuildPart | "all", RequestRule> = {
  api: { part: "api", methods: null, body: { kind: "json", limit: MB }, csrfExempt: null, compress: true, errors: "json" },
  pages: { part: "pages", methods: PAGE_METHODS, body: { kind: "form", limit: MB }, csrfExempt: null, compress: true, errors: "html" },
  embed: { part: "embed", methods: READ_ONLY, body: { kind: "none", limit: 0 }, csrfExempt: null, compress: true, errors: "html" },
  all: { part: "all", methods: READ_ONLY, body: { kind: "none", limit: 0 }, csrfExempt: null, compress: true, errors: "json" },
};

/**
 * Paths Express answers before React Router (server.ts, media-router.server.ts), by prefix.
 * Media is streamed as is: compressing video breaks byte ranges and gains nothing; uploads
 * under /objects/ have the media router's per-kind limits (upload.server.ts).
 */
const SERVER_PATHS: ReadonlyArray<readonly [prefix: string, rule: RequestRule]> = [
  ["/healthz", { part: "server", methods: READ_ONLY, body: { kind: "none", limit: 0 }, csrfExempt: null, compress: true, errors: "json" }],
  ["/readyz", { part: "server", methods: READ_ONLY, body: { kind: "none", limit: 0 }, csrfExempt: null, compress: true, errors: "json" }],
  // Prometheus's scrape (app/lib/operations.server.ts): a bearer token here, or only on METRICS_PORT.
  ["/metrics", { part: "server", methods: READ_ONLY, body: { kind: "none", limit: 0 }, csrfExempt: null, compress: true, errors: "json" }],
  ["/assets/", { part: "server", methods: READ_ONLY, body: { kind: "none", limit: 0 }, csrfExempt: null, compress: true, errors: "json" }],
  ["/api/docs/assets/", { part: "server", methods: READ_ONLY, body: { kind: "none", limit: 0 }, csrfExempt: null, compress: true, errors: "json" }],
  ["/objects/", { part: "server", methods: null, body: { kind: "raw", limit: null }, csrfExempt: null, compress: false, errors: "json" }],
  ["/embed-media/", { part: "server", methods: READ_ONLY, body: { kind: "none", limit: 0 }, csrfExempt: null, compress: false, errors: "json" }],
  // The media pipeline's sets: segments, playlists, progressive MP4s, downloads (media-urls.server.ts).
  ["/media/", { part: "server", methods: READ_ONLY, body: { kind: "none", limit: 0 }, csrfExempt: null, compress: false, errors: "json" }],
];

// The embed player answers id-shaped paths only: anything else under /embed/ gets the pages'
// not-found screen.
const EMBED_PATH = /^\/embed\/[0-9a-fA-F-]+$/;

/** The part of the split build that serves a path: from the path alone, for requests and routes alike. */
export function partOf(pathname: string): BuildPart {
  if (pathname.startsWith("/api/")) return "api";
  if (EMBED_PATH.test(pathname)) return "embed";
  return "pages";
}

type BuildRoute = NonNullable<ServerBuild["routes"][string]>;
type MatchRoute = { id: string; path?: string; index?: boolean; caseSensitive?: boolean; children: MatchRoute[] };

/** A route's full path pattern ("/admin/users/:id"), joined from its ancestors' paths. */
function fullPath(routes: ServerBuild["routes"], route: BuildRoute): string {
  const segments: string[] = [];
  for (let at: BuildRoute | undefined = route; at; at = at.parentId ? routes[at.parentId] : undefined) {
    if (at.path) segments.unshift(at.path);
  }
  return `/${segments.join("/")}`.replace(/\/+/g, "/");
}

// A value every parameter accepts, including the embed player's id shape.
const SAMPLE_PARAM = "00000000-0000-4000-8000-000000000000";

/** A concrete path the pattern matches: each parameter (optional ones included) and splat filled in. */
export function samplePath(pattern: string) {
  return pattern.replace(/:\w+\??/g, SAMPLE_PARAM).replace(/\*$/, "not/a/route");
}

function isLayout(route: BuildRoute) {
  return route.path === undefined && !route.index && route.parentId !== undefined;
}

function matchTree(routes: ServerBuild["routes"], ids: Set<string>): MatchRoute[] {
  const nodes = new Map<string, MatchRoute>();
  for (const id of ids) {
    const route = routes[id]!;
    nodes.set(id, { id, path: route.path, index: route.index, caseSensitive: route.caseSensitive, children: [] });
  }
  const top: MatchRoute[] = [];
  for (const id of ids) {
    const parentId = routes[id]!.parentId;
    if (parentId && nodes.has(parentId)) nodes.get(parentId)!.children.push(nodes.get(id)!);
    else top.push(nodes.get(id)!);
  }
  return top;
}

function deepestMatch(tree: MatchRoute[], pathname: string) {
  return matchRoutes(tree as Parameters<typeof matchRoutes>[0], pathname)?.at(-1)?.route.id as string | undefined;
}

// ---- the metrics' route patterns ----
// matchRoutes flattens and ranks the whole table on every call: about 5 ms per request with
// this app's ~190 routes, more than serving many pages. patternFor ranks the routes once, as
// React Router does, and tries one precompiled expression per route. The operations test
// checks that it names the route React Router picks for every route of app/routes.ts.

type Matcher = { pattern: string; regex: RegExp; score: number };

/** React Router's compilePath for a whole path (end: true). */
function compilePattern(path: string, caseSensitive = false) {
  let source =
    "^" +
    path
      .replace(/\/*\*?$/, "")
      .replace(/^\/*/, "/")
      .replace(/[\\.*+^${}|()[\]]/g, "\\$&")
      .replace(/\/:([\w-]+)(\?)?/g, (match, _name: string, optional: string | undefined, index: number, all: string) => {
        if (!optional) return "/([^\\/]+)";
        const next = all.charAt(index + match.length);
        return next && next !== "/" ? "/([^\\/]*)" : "(?:/([^\\/]*))?";
      })
      .replace(/\/([\w-]+)\?(\/|$)/g, "(/$1)?$2");
  if (path.endsWith("*")) source += path === "*" || path === "/*" ? "(.*)$" : "(?:\\/(.+)|\\/*)$";
  else source += "\\/*$";
  return new RegExp(source, caseSensitive ? undefined : "i");
}

/** React Router's explodeOptionalSegments: "/a/:b?" is ranked as "/a/:b" and "/a". */
function explodeOptional(path: string): string[] {
  const segments = path.split("/");
  if (segments.length === 0) return [];
  const [first, ...rest] = segments as [string, ...string[]];
  const optional = first.endsWith("?");
  const required = first.replace(/\?$/, "");
  if (rest.length === 0) return optional ? [required, ""] : [required];
  const restExploded = explodeOptional(rest.join("/"));
  const result = restExploded.map((sub) => (sub === "" ? required : [required, sub].join("/")));
  if (optional) result.push(...restExploded);
  return result.map((exploded) => (path.startsWith("/") && exploded === "" ? "/" : exploded));
}

/** React Router's computeScore. */
function rankScore(path: string, index: boolean | undefined) {
  const segments = path.split("/");
  let score = segments.length;
  if (segments.some((s) => s === "*")) score -= 2;
  if (index) score += 2;
  for (const segment of segments) if (segment !== "*") score += /^:[\w-]+$/.test(segment) ? 3 : segment === "" ? 1 : 10;
  return score;
}

/** Every matchable route (index or with a path), in React Router's flatten order, then ranked. */
function rankedMatchers(routes: ServerBuild["routes"], tree: MatchRoute[]): Matcher[] {
  const flat: Matcher[] = [];
  const visit = (nodes: MatchRoute[]) => {
    for (const node of nodes) {
      visit(node.children);
      const route = routes[node.id]!;
      if (route.path === undefined && !route.index) continue;
      const pattern = fullPath(routes, route);
      for (const exploded of explodeOptional(pattern)) {
        flat.push({ pattern, regex: compilePattern(exploded, route.caseSensitive), score: rankScore(exploded, route.index) });
      }
    }
  };
  visit(tree);
  // Stable: equal scores keep the flatten order, as React Router's siblings do.
  return flat.sort((a, b) => b.score - a.score);
}

/** React Router's decodePath: each segment decoded, an encoded "/" kept encoded. */
function decodeSegments(pathname: string) {
  try {
    return pathname
      .split("/")
      .map((segment) => decodeURIComponent(segment).replace(/\//g, "%2F"))
      .join("/");
  } catch {
    return pathname;
  }
}

export type RouteTable = ReturnType<typeof createRouteTable>;

/**
 * Reads a server build and the rules beside app/routes.ts. Throws, so the server does not
 * start, when a route would be unreachable (its part lacks it or an ancestor, or another route
 * answers its path) or a rule names a path that is no route.
 */
export function createRouteTable(build: ServerBuild, overrides: Record<string, RouteRuleOverride> = {}, sharedPaths: readonly string[] = []) {
  const routes = build.routes;
  const ids: Record<BuildPart, Set<string>> = { api: new Set(), pages: new Set(), embed: new Set() };
  const leaves: Array<{ id: string; pattern: string; part: BuildPart }> = [];
  for (const route of Object.values(routes)) {
    if (!route || route.parentId === undefined || isLayout(route)) continue;
    const pattern = fullPath(routes, route);
    const part = partOf(samplePath(pattern));
    leaves.push({ id: route.id, pattern, part });
    for (let at: BuildRoute | undefined = route; at; at = at.parentId ? routes[at.parentId] : undefined) ids[part].add(at.id);
  }
  const root = Object.values(routes).find((route) => route?.parentId === undefined);
  if (root) for (const set of Object.values(ids)) set.add(root.id);

  const whole = matchTree(routes, new Set(Object.keys(routes)));
  const trees = { api: matchTree(routes, ids.api), pages: matchTree(routes, ids.pages), embed: matchTree(routes, ids.embed) };
  const problems: string[] = [];
  for (const leaf of leaves) {
    const sample = samplePath(leaf.pattern);
    const inWhole = deepestMatch(whole, sample);
    const inPart = deepestMatch(trees[leaf.part], sample);
    if (inWhole !== leaf.id) problems.push(`${leaf.id} (${leaf.pattern}): ${sample} is answered by ${inWhole ?? "no route"}`);
    else if (inPart !== leaf.id) problems.push(`${leaf.id} (${leaf.pattern}): the ${leaf.part} part answers ${sample} with ${inPart ?? "no route"}`);
  }
  const patterns = new Set(leaves.map((leaf) => leaf.pattern));
  for (const path of Object.keys(overrides)) {
    if (!patterns.has(`/${path}`)) problems.push(`app/route-rules.ts names "${path}", which is not a route of app/routes.ts`);
  }
  const shared = new Set(sharedPaths.map((path) => `/${path}`));
  for (const pattern of shared) {
    if (!patterns.has(pattern)) problems.push(`app/route-rules.ts shares "${pattern.slice(1)}", which is not a route of app/routes.ts`);
  }
  if (problems.length) throw new Error(`Unreachable routes:\n  ${problems.join("\n  ")}`);

  // Most specific first (more static segments), as the router ranks them.
  const staticSegments = (path: string) => path.split("/").filter((s) => s && !s.startsWith(":")).length;
  const overrideRules = Object.entries(overrides)
    .sort(([a], [b]) => staticSegments(b) - staticSegments(a))
    .map(([path, override]) => {
      const base = PART_DEFAULTS[partOf(samplePath(`/${path}`))];
      const rule: RequestRule = {
        ...base,
        methods: override.methods ?? base.methods,
        body: override.body?.() ?? base.body,
        csrfExempt: override.csrfExempt ?? base.csrfExempt,
      };
      return { pattern: `/${path}`, rule };
    });
  const manifestPath = build.routeDiscovery?.manifestPath ?? "/__manifest";
  const matchers = rankedMatchers(routes, whole);

  return {
    /** Every leaf route's full path pattern and part (the split and the reachability test read it). */
    routes: leaves,
    /** The route patterns (as `patternFor` names them) whose anonymous answers the page cache may keep. */
    shared: shared as ReadonlySet<string>,
    /** The build split into its parts, each with the root and the layouts its routes need; `all` for /__manifest. */
    split(): Record<BuildPart | "all", ServerBuild> {
      const only = (keep: Set<string>): ServerBuild => ({
        ...build,
        routes: Object.fromEntries(Object.entries(routes).filter(([id]) => keep.has(id))),
      });
      // The embed's document names its part's routes alone: the manifest React Router renders
      // into a page holds the routes matching the path's prefixes ("/embed" matches "/:slug"),
      // and a route it names must be one this part has the module of.
      const embed = only(ids.embed);
      const embedAssets = { ...build.assets, routes: Object.fromEntries(Object.entries(build.assets.routes).filter(([id]) => ids.embed.has(id))) };
      return { api: only(ids.api), pages: only(ids.pages), embed: { ...embed, assets: embedAssets }, all: build };
    },
    /** Everything the edge needs to know about a request, from its path (and method: only writes have bodies). */
    ruleFor(pathname: string, method: string): RequestRule {
      for (const [prefix, rule] of SERVER_PATHS) if (prefix.endsWith("/") ? pathname.startsWith(prefix) : pathname === prefix) return rule;
      if (pathname === manifestPath) return PART_DEFAULTS.all;
      if (method !== "GET" && method !== "HEAD") {
        // A form the browser's router submits goes to the page's data URL (/path.data): same rules.
        const page = pathname.endsWith(".data") ? pathname.slice(0, -".data".length) : pathname;
        for (const { pattern, rule } of overrideRules) if (matchPath(pattern, page)) return rule;
      }
      return PART_DEFAULTS[partOf(pathname)];
    },
    /**
     * The route pattern that answers a path ("/animations/:slug"), for the metrics' labels: a
     * bounded set, never the path itself. Express's own paths are their prefix ("/media/*");
     * a path only the catch-all routes (not-found, splats) answer is "unmatched".
     */
    patternFor(pathname: string): string {
      for (const [prefix] of SERVER_PATHS) {
        if (prefix.endsWith("/") ? pathname.startsWith(prefix) : pathname === prefix) return prefix.endsWith("/") ? `${prefix}*` : prefix;
      }
      if (pathname === manifestPath) return manifestPath;
      // A page's data request (single fetch): "/_root.data" is the home page's.
      const page = pathname === "/_root.data" ? "/" : pathname.endsWith(".data") ? pathname.slice(0, -".data".length) : pathname;
      const decoded = decodeSegments(page);
      const pattern = matchers.find((m) => m.regex.test(decoded))?.pattern;
      return pattern === undefined || pattern.endsWith("*") ? "unmatched" : pattern;
    },
  };
}
