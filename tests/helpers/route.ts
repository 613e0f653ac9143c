import {
  isRouteErrorResponse,
  matchRoutes,
  type ServerBuild,
  UNSAFE_decodeViaTurboStream as decodeViaTurboStream,
  UNSAFE_SingleFetchRedirectSymbol as SingleFetchRedirectSymbol,
} from "react-router";
import { apiDocumentMismatch } from "./api-document.ts";
import { sendToApp, testApp, type WireResponse } from "./app.ts";

type RouteModule = {
  loader?: (args: any) => unknown;
  action?: (args: any) => unknown;
};

export type RouteResult = {
  status: number;
  headers: Headers;
  body: any;
  /** Where a redirect points, if it is one. */
  location: string | null;
};

export type CallOptions = {
  method?: string;
  params?: Record<string, string>;
  headers?: Record<string, string>;
  json?: unknown;
  form?: Record<string, string | string[]>;
  body?: BodyInit;
  cookie?: string;
  token?: string;
  /** The client address the server saw (rate limits key on it). */
  clientIp?: string;
};

/** The method, headers and body `options` describe, as they go on the wire. */
export function requestParts(options: CallOptions) {
  const method = options.method ?? (options.json !== undefined || options.form ? "POST" : "GET");
  const headers = new Headers(options.headers);
  let body = options.body;
  if (options.json !== undefined) {
    headers.set("Content-Type", "application/json");
    body = JSON.stringify(options.json);
  } else if (options.form) {
    const form = new URLSearchParams();
    for (const [k, v] of Object.entries(options.form)) for (const one of [v].flat()) form.append(k, one);
    headers.set("Content-Type", "application/x-www-form-urlencoded");
    body = form.toString();
  }
  if (options.cookie) headers.set("Cookie", options.cookie);
  if (options.token) headers.set("Authorization", `Bearer ${options.token}`);
  return { method, headers, body };
}

/**
 * Calls a route through the app's front door (tests/helpers/app.ts: the Express app `npm start`
 * builds, every middleware and the split build included), as a client would: a resource route
 * (the /api contract, PDFs, the embed player) by its URL, a page by the data request React
 * Router's browser router sends (`/path.data`, the page's loader or action only). `mod` names
 * the route the test means: the URL must reach it (or, when the URL does not, `params` fill its
 * path pattern). The answer is normalised into one shape: status, headers, the JSON (or text)
 * body, or a page's loader/action data; a redirect's `location`.
 */
export async function callRoute(mod: RouteModule, url: string, options: CallOptions = {}): Promise<RouteResult> {
  const { method, headers, body } = requestParts(options);
  const { build, sourceOf } = await testApp();
  const requested = new URL(url, "http://localhost:3000");
  const route = routeFor(build, sourceOf, mod, requested.pathname, options.params);
  const pathname = route.pathname;
  if (options.clientIp) headers.set("X-Forwarded-For", options.clientIp);
  let bytes: Uint8Array | undefined;
  if (body !== undefined && body !== null) {
    const encoded = new Request("http://localhost", { method: "POST", body, headers });
    bytes = new Uint8Array(await encoded.arrayBuffer());
    const type = encoded.headers.get("content-type");
    if (type && !headers.has("content-type")) headers.set("content-type", type);
  }
  const isPage = Boolean((mod as { default?: unknown }).default);
  const search = new URLSearchParams(requested.search);
  let target: string;
  if (isPage) {
    // React Router's single-fetch data request: the loader of this route (middleware of every
    // matched route runs), or the action.
    if (method === "GET" || method === "HEAD") search.set("_routes", route.id);
    if (route.index && method !== "GET" && method !== "HEAD") search.set("index", "");
    const dataPath = pathname === "/" ? "/_root.data" : `${pathname.replace(/\/$/, "")}.data`;
    target = `${dataPath}${search.size ? `?${search}` : ""}`;
  } else {
    target = `${pathname}${requested.search}`;
  }
  const response = await sendToApp(target, { method, headers, body: bytes });
  const result = isPage && method !== "HEAD" && isTurboStream(response.headers) ? await pageResult(response, route.id, method) : wireResult(response);
  // Every /api answer is held to the OpenAPI document (tests/helpers/api-document.ts).
  if (pathname.startsWith("/api/")) {
    const mismatch = await apiDocumentMismatch(method, new URL(`${pathname}${requested.search}`, requested).href, result.status, result.body);
    if (mismatch) throw new Error(mismatch);
  }
  return result;
}

type FoundRoute = { id: string; index?: boolean; pathname: string };

/** The build's route for `mod` that the path reaches, or its pattern filled with `params`. */
function routeFor(build: ServerBuild, sourceOf: (id: string) => unknown, mod: RouteModule, pathname: string, params: Record<string, string> = {}): FoundRoute {
  const candidates = Object.values(build.routes).filter((route) => route && sourceOf(route.id) === mod);
  if (!candidates.length) throw new Error("callRoute: this module is not a route of app/routes.ts");
  const reached = matchRoutes(routeTree(build), pathname)?.at(-1)?.route as { id: string; index?: boolean } | undefined;
  const hit = reached && candidates.find((route) => route!.id === reached.id);
  if (hit) return { id: hit.id, index: hit.index, pathname };
  // The URL is not this route's: fill the route's own pattern with the params given.
  for (const route of candidates) {
    const pattern = fullPattern(build, route!.id);
    const names = [...pattern.matchAll(/:(\w+)(\?)?/g)];
    if (names.some(([, name, optional]) => !optional && params[name!] === undefined)) continue;
    const filled = pattern.replace(/\/:(\w+)\??/g, (_, name: string) => (params[name] === undefined ? "" : `/${encodeURIComponent(params[name])}`));
    return { id: route!.id, index: route!.index, pathname: filled || "/" };
  }
  throw new Error(`callRoute: ${pathname} does not reach the route named (${candidates.map((r) => r!.id).join(", ")}) and params do not fill its path`);
}

const trees = new WeakMap<ServerBuild, unknown[]>();
function routeTree(build: ServerBuild) {
  let tree = trees.get(build);
  if (!tree) {
    type Node = { id: string; path?: string; index?: boolean; caseSensitive?: boolean; children: Node[] };
    const nodes = new Map<string, Node>();
    for (const route of Object.values(build.routes))
      nodes.set(route!.id, { id: route!.id, path: route!.path, index: route!.index, caseSensitive: route!.caseSensitive, children: [] });
    tree = [];
    for (const route of Object.values(build.routes)) {
      const parent = route!.parentId ? nodes.get(route!.parentId) : undefined;
      (parent ? parent.children : tree).push(nodes.get(route!.id)!);
    }
    trees.set(build, tree);
  }
  return tree as Parameters<typeof matchRoutes>[0];
}

function fullPattern(build: ServerBuild, id: string) {
  const segments: string[] = [];
  for (let route = build.routes[id]; route; route = route.parentId ? build.routes[route.parentId] : undefined) if (route.path) segments.unshift(route.path);
  return `/${segments.join("/")}`;
}

function isTurboStream(headers: Headers) {
  return (headers.get("content-type") ?? "").startsWith("text/x-script");
}

/** A page's data answer, decoded as the browser's router decodes it. */
async function pageResult(response: WireResponse, id: string, method: string): Promise<RouteResult> {
  const stream = new Blob([new Uint8Array(response.body)]).stream();
  const decoded = (await decodeViaTurboStream(stream, globalThis)).value as Record<string | symbol, unknown>;
  // A redirect: under the symbol for a loader, the whole answer (202) for an action.
  const redirect = (method === "GET" ? decoded[SingleFetchRedirectSymbol] : response.status === 202 ? decoded : undefined) as
    { redirect: string; status: number } | undefined;
  if (redirect) {
    // As the document request would have answered it: the Location header included.
    const headers = new Headers(response.headers);
    headers.set("Location", redirect.redirect);
    return { status: redirect.status, headers, body: null, location: redirect.redirect };
  }
  const outcome = (method === "GET" || method === "HEAD" ? decoded[id] : decoded) as { data?: unknown; error?: unknown } | undefined;
  if (outcome && "error" in outcome) {
    const error = outcome.error;
    const data = isRouteErrorResponse(error) ? error.data : { message: (error as Error)?.message };
    return { status: response.status, headers: response.headers, body: plain(data), location: null };
  }
  return { status: response.status, headers: response.headers, body: plain(outcome?.data), location: null };
}

/** Loader data as a component reads it after JSON (dates as strings): what the old direct calls returned. */
function plain(value: unknown) {
  return value === undefined ? null : JSON.parse(JSON.stringify(value));
}

function wireResult(response: WireResponse): RouteResult {
  const text = response.body.toString("utf8");
  let body: unknown = text;
  try {
    body = text ? JSON.parse(text) : null;
  } catch {
    // not JSON: keep the text
  }
  return { status: response.status, headers: response.headers, body, location: response.headers.get("Location") };
}

/** The cookie pairs a response sets, as a Cookie request header. */
export function cookiesFrom(result: RouteResult, previous = ""): string {
  const jar = new Map(
    previous
      .split(/;\s*/)
      .filter(Boolean)
      .map((pair) => [pair.split("=")[0], pair] as const),
  );
  for (const line of result.headers.getSetCookie()) {
    const pair = line.split(";")[0]!;
    const name = pair.split("=")[0]!;
    if (/max-age=0/i.test(line) || /expires=Thu, 01 Jan 1970/i.test(line)) jar.delete(name);
    else jar.set(name, pair);
  }
  return [...jar.values()].join("; ");
}
