// The rendered-answer cache for visitors (decision 021). Most requests are anonymous reads of
// pages and public calls that change a few times a day; each used to render React (or
// serialise JSON) again. An answer the route table marks shared, asked by a request that
// carries no identity, is kept with its gzip and brotli forms and sent as it is to the next
// anonymous visitor, until:
//   - this instance writes a table a shared page shows (cache-registry.server.ts drops it from
//     the database's statement hook, whoever wrote), or
//   - PAGE_CACHE_MS passes (the bound for writes made on another instance, or by a job), or
//     rather, once most of it has passed, one visitor's request renders it again while the
//     others are still served the kept answer (the last fifth of its age), or
//   - it is pushed out by newer answers past PAGE_CACHE_MB.
// Every response still gets its own request id, and a document its own policy: the hashes of
// exactly the inline scripts it holds, computed once when it is kept (a nonce cannot be fresh
// per response without rewriting and recompressing the bytes).

import crypto from "node:crypto";
import { promisify } from "node:util";
import zlib from "node:zlib";
import type { NextFunction, Request, Response } from "express";
import { registerCache } from "./cache-registry.server.ts";
import { getEnv } from "./env.server.ts";
import { originForm } from "./http-edge.server.ts";
import { metrics } from "./metrics.server.ts";

const gzip = promisify(zlib.gzip);
const brotli = promisify(zlib.brotliCompress);

/** What the cache needs to know of the app: which answers are the same for every visitor, and its script policy. */
export type PageCacheOptions = {
  /** The route pattern of a path (the route table's `patternFor`). */
  patternFor: (pathname: string) => string;
  /** Patterns whose anonymous GET answers are the same for every visitor (app/route-rules.ts). */
  shared: ReadonlySet<string>;
  /** The Content-Security-Policy of a document whose inline scripts are admitted by `scriptSources`. */
  policyFor: (scriptSources: string) => string;
  /** Counts a view of the animation a kept page shows (its render counted the first). */
  onView: (animationId: string) => void;
};

type Entry = {
  key: string;
  headers: Array<[string, string]>;
  body: Buffer;
  gzip?: Buffer;
  br?: Buffer;
  etag: string;
  /** The route's own (a JSON call's); null for documents, whose policy is the cache's. */
  cacheControl: string | null;
  vary: string;
  /** Set for documents: the policy naming the hashes of their inline scripts. */
  csp: string | null;
  /** The animation an animation page shows (its X-Animation-Id): each view of it counts. */
  viewOf: string | null;
  storedAt: number;
  bytes: number;
  /** A request is rendering its successor: the others keep being served this one meanwhile. */
  refreshing: boolean;
};

// One slot per answer: the path and query as sent (a page's data request, /x.data, is a key of
// its own). Map order is recency: a hit moves its entry to the end, the oldest go first.
const store = new Map<string, Entry>();
let storedBytes = 0;
// Bumped by every invalidation: a render that began before a write is not kept after it.
let generation = 0;
// Concurrent misses of one key wait for the first one's render instead of rendering too.
const pending = new Map<string, Promise<void>>();

/**
 * From this share of its age on, a kept answer is rendered again by the next visitor while the
 * others are served it as before: a busy page is never missing, so nobody waits behind its
 * render (the home page's, with the data caches cold, takes tens of milliseconds on PGlite).
 */
const REFRESH_FROM = 0.8;
/** An answer bigger than this is served but not kept (a sitemap of 10,000 animations). */
const MAX_ENTRY_BYTES = 2 * 1024 * 1024;
/** Below this, compressing gains nothing (the compression middleware's threshold too). */
const COMPRESS_MIN_BYTES = 1024;
/** Headers that belong to one response or one connection, never to a kept answer. */
const PER_RESPONSE = new Set([
  "content-length",
  "content-encoding",
  "transfer-encoding",
  "connection",
  "keep-alive",
  "date",
  "x-request-id",
  "content-security-policy",
  "etag",
  "cache-control",
  "vary",
]);
const CACHEABLE_TYPES = /^(text\/html|application\/json|application\/xml|text\/xml|text\/plain|application\/manifest\+json|text\/x-script)/i;

// One write drops every kept answer: a page shows many kinds of data (the layout's categories
// and settings on every page), and they change a few times a day, so precision would buy nothing.
registerCache("pageCache", () => clearPageCache());

/** Drops every kept answer (a write to any table a shared page shows: cache-registry.server.ts). */
export function clearPageCache() {
  generation += 1;
  store.clear();
  storedBytes = 0;
}

function ageMs() {
  return getEnv().PAGE_CACHE_MS;
}

/**
 * Whether nothing in the request can make its answer personal: no credentials, none of the
 * app's cookies (session, toast, sign-in step), no byte range. Other sites' cookies on our
 * domain (analytics) are never read by the app, so they do not stop the cache.
 */
function anonymous(req: Request) {
  return !req.headers.authorization && !req.headers.range && !/(?:^|;\s*)medanim_/.test(req.headers.cookie ?? "");
}

/**
 * The middleware: serves a kept answer, or marks the request so the router's handler keeps
 * what it renders (`keepRendered`). Goes after the edge guard and the security headers.
 */
export function pageCache({ patternFor, shared, policyFor, onView }: PageCacheOptions) {
  return async (req: Request, res: Response, next: NextFunction) => {
    if ((req.method !== "GET" && req.method !== "HEAD") || ageMs() <= 0 || !anonymous(req)) return next();
    const key = originForm(req.originalUrl);
    if (key === null) return next();
    const pathname = key.split("?", 1)[0]!;
    if (!shared.has(patternFor(pathname))) return next();
    // Not "page": the content pages' data cache counts under that prefix.
    const family = pathname.startsWith("/api/") ? "public-json" : "rendered-page";

    let entry = fresh(key);
    if (!entry && pending.has(key)) {
      await pending.get(key);
      entry = fresh(key);
    }
    // This visitor renders the page's successor; the kept one stays for everyone else.
    if (entry && req.method === "GET" && !entry.refreshing && Date.now() - entry.storedAt >= REFRESH_FROM * ageMs()) {
      const stale = entry;
      stale.refreshing = true;
      metrics().cacheLookups.inc({ prefix: family, result: "miss" });
      const done = () => void (stale.refreshing = false);
      res.once("close", done);
      res.locals.pageCache = { key, generation, policyFor, done } satisfies Keeping;
      return next();
    }
    metrics().cacheLookups.inc({ prefix: family, result: entry ? "hit" : "miss" });
    if (entry) {
      if (entry.viewOf && req.method === "GET") onView(entry.viewOf);
      return send(req, res, entry);
    }
    // HEAD is answered from a kept GET only: its own render has no body to keep.
    if (req.method === "HEAD") return next();

    let settle!: () => void;
    const rendering = new Promise<void>((resolve) => (settle = resolve));
    pending.set(key, rendering);
    const done = () => {
      if (pending.get(key) === rendering) pending.delete(key);
      settle();
    };
    res.once("close", done);
    res.locals.pageCache = { key, generation, policyFor, done } satisfies Keeping;
    next();
  };
}

type Keeping = { key: string; generation: number; policyFor: (scriptSources: string) => string; done: () => void };

/**
 * Called by the router's handler with what it rendered. When the request was marked and the
 * answer is the same for everyone (a 200 with no cookie set and nothing saying it is private),
 * it is kept and sent from the cache's bytes, and null is returned; otherwise the answer for the
 * caller to send (`response` untouched, or rebuilt from its bytes if they were read).
 */
export async function keepRendered(req: Request, res: Response, response: globalThis.Response): Promise<globalThis.Response | null> {
  const keeping = res.locals.pageCache as Keeping | undefined;
  if (!keeping) return response;
  if (!keepable(response)) {
    keeping.done();
    return response;
  }
  const body = Buffer.from(await response.arrayBuffer());
  const current = keeping.generation === generation;
  keeping.done();
  // Too big to keep, or a write came while it rendered: this visitor gets it, nobody else.
  if (body.length > MAX_ENTRY_BYTES || !current) return new globalThis.Response(body, response);
  const entry = makeEntry(keeping, response, body);
  remember(entry);
  // Compressed off the request's path (zlib's thread pool); until then the compression
  // middleware compresses per response, as for any answer.
  void compress(entry).catch(() => undefined);
  send(req, res, entry);
  return null;
}

function keepable(response: globalThis.Response) {
  if (response.status !== 200 || response.headers.has("set-cookie") || !response.body) return false;
  if (/\b(private|no-store)\b/i.test(response.headers.get("cache-control") ?? "")) return false;
  return CACHEABLE_TYPES.test(response.headers.get("content-type") ?? "");
}

function makeEntry(keeping: Keeping, response: globalThis.Response, body: Buffer): Entry {
  const document = /^text\/html/i.test(response.headers.get("content-type") ?? "");
  // A JSON call's Vary (Cookie, Authorization when its answer is shaped for the caller) is kept;
  // a document is always shaped for the caller (the header's account menu).
  const vary = response.headers.get("vary") ?? (document ? "Cookie, Authorization" : null);
  return {
    key: keeping.key,
    headers: [...response.headers.entries()].filter(([name]) => !PER_RESPONSE.has(name)),
    body,
    // A route's own validator (the JSON calls') is kept; a document's is made from its bytes.
    etag: response.headers.get("etag") ?? `"${crypto.createHash("sha1").update(body).digest("base64url")}"`,
    cacheControl: response.headers.get("cache-control"),
    vary: vary ? `Accept-Encoding, ${vary}` : "Accept-Encoding",
    csp: document ? keeping.policyFor(inlineScriptHashes(body.toString("utf8"))) : null,
    viewOf: response.headers.get("x-animation-id"),
    storedAt: Date.now(),
    bytes: body.length + 512,
    refreshing: false,
  };
}

function remember(entry: Entry) {
  const old = store.get(entry.key);
  if (old) {
    store.delete(entry.key);
    storedBytes -= old.bytes;
  }
  store.set(entry.key, entry);
  storedBytes += entry.bytes;
  const limit = getEnv().PAGE_CACHE_MB * 1024 * 1024;
  for (const [key, oldest] of store) {
    if (storedBytes <= limit) break;
    store.delete(key);
    storedBytes -= oldest.bytes;
  }
}

async function compress(entry: Entry) {
  if (entry.body.length < COMPRESS_MIN_BYTES) return;
  const [gz, br] = await Promise.all([
    gzip(entry.body, { level: 9 }),
    brotli(entry.body, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 9, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: entry.body.length } }),
  ]);
  // Dropped while compressing: leave the accounting alone.
  if (store.get(entry.key) !== entry) return;
  entry.gzip = gz;
  entry.br = br;
  entry.bytes += gz.length + br.length;
  storedBytes += gz.length + br.length;
}

function fresh(key: string) {
  const entry = store.get(key);
  if (!entry) return undefined;
  if (Date.now() - entry.storedAt >= ageMs()) {
    store.delete(key);
    storedBytes -= entry.bytes;
    return undefined;
  }
  // Most recently used last: the memory bound drops the least used first.
  store.delete(key);
  store.set(key, entry);
  return entry;
}

/**
 * The hashes of a document's inline scripts, as CSP source expressions. A browser hashes a
 * script's text as parsed; React and React Router write it without character references or
 * carriage returns, so the raw bytes between the tags are that text.
 */
export function inlineScriptHashes(html: string) {
  const sources: string[] = [];
  for (const match of html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/gi)) {
    if (/\bsrc\s*=/i.test(match[1]!) || !match[2]) continue;
    sources.push(`'sha256-${crypto.createHash("sha256").update(match[2]).digest("base64")}'`);
  }
  return sources.join(" ");
}

function accepts(req: Request, encoding: "br" | "gzip") {
  const header = req.headers["accept-encoding"];
  if (typeof header !== "string") return false;
  for (const part of header.split(",")) {
    const [name, ...params] = part.trim().split(";");
    if (name!.trim().toLowerCase() !== encoding) continue;
    const q = params.map((p) => /^\s*q=([\d.]+)/.exec(p)?.[1]).find(Boolean);
    return q === undefined || Number(q) > 0;
  }
  return false;
}

/**
 * Cache-Control of a kept answer: a JSON call keeps its own; a document may be held by a CDN
 * for the cache's age and served stale for a minute while it fetches a fresh one, and by a
 * browser only with revalidation (a conditional GET, answered 304).
 */
function cacheControlOf(entry: Entry) {
  return entry.cacheControl ?? `public, max-age=0, s-maxage=${Math.max(1, Math.round(ageMs() / 1000))}, stale-while-revalidate=60`;
}

function send(req: Request, res: Response, entry: Entry) {
  for (const [name, value] of entry.headers) res.setHeader(name, value);
  if (entry.csp) res.setHeader("Content-Security-Policy", entry.csp);
  res.setHeader("ETag", entry.etag);
  res.setHeader("Cache-Control", cacheControlOf(entry));
  res.setHeader("Vary", entry.vary);
  const ifNoneMatch = req.headers["if-none-match"];
  if (ifNoneMatch && matches(ifNoneMatch, entry.etag)) return void res.status(304).end();
  const [body, encoding] = entry.br && accepts(req, "br") ? [entry.br, "br"] : entry.gzip && accepts(req, "gzip") ? [entry.gzip, "gzip"] : [entry.body, null];
  if (encoding) res.setHeader("Content-Encoding", encoding);
  res.setHeader("Content-Length", body.length);
  res.status(200);
  if (req.method === "HEAD") return void res.end();
  res.end(body);
}

/** If-None-Match compares weakly (RFC 9110 section 13.1.2). */
function matches(header: string, etag: string) {
  const bare = etag.replace(/^W\//, "");
  return header.split(/\s*,\s*/).some((tag) => tag === "*" || tag.replace(/^W\//, "") === bare);
}
