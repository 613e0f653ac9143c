import crypto from "node:crypto";

export type CachePolicy =
  /**
   * Same answer for everyone: shared caches may keep it for maxAge seconds. `vary` marks an
   * answer shaped for the caller that is public only because the caller is anonymous: it still
   * carries `Vary: Cookie, Authorization`, so no shared cache hands it to a signed-in caller.
   */
  | { scope: "public"; maxAge: number; vary?: boolean }
  /** Depends on who asks (access flags, video links): only the asker's browser may keep it. */
  | { scope: "private"; maxAge: number }
  /** Never stored (/api/pages/slug/{slug}, account data, every write). */
  | { scope: "no-store" };

export const NO_STORE: CachePolicy = { scope: "no-store" };

/** Caller-independent answers: any cache may keep them. */
export const publicFor = (maxAge: number): CachePolicy => ({ scope: "public", maxAge });

/**
 * Answers that depend on who asks (access flags, video links): public only for an anonymous
 * caller (everyone anonymous gets the same bytes), private otherwise.
 */
export function viewerPolicy(request: Request, maxAge: number): CachePolicy {
  return isAnonymous(request) ? { scope: "public", maxAge, vary: true } : { scope: "private", maxAge };
}

function cacheControl(policy: CachePolicy) {
  if (policy.scope === "no-store") return "no-store";
  return `${policy.scope}, max-age=${policy.maxAge}`;
}

type Serialised = { json: string; etag: string };
// Public bodies handed out by a cache (the same object each time) are serialised once.
const serialisedBodies = new WeakMap<object, Serialised>();

function serialise(body: unknown, policy: CachePolicy): Serialised {
  const reusable = policy.scope === "public" && typeof body === "object" && body !== null;
  const known = reusable ? serialisedBodies.get(body) : undefined;
  if (known) return known;
  const json = JSON.stringify(body);
  const result = { json, etag: `"${crypto.createHash("sha1").update(json).digest("base64url")}"` };
  if (reusable) serialisedBodies.set(body, result);
  return result;
}

/**
 * A JSON response with Cache-Control and a strong ETag of its bytes; a matching
 * If-None-Match answers 304 with no body. Responses that depend on the caller carry
 * `Vary: Cookie, Authorization` so no shared cache hands them to someone else.
 */
export function cachedJson(request: Request, body: unknown, policy: CachePolicy, status = 200, extraHeaders?: HeadersInit) {
  const { json, etag } = serialise(body, policy);
  const headers = new Headers(extraHeaders);
  headers.set("Content-Type", "application/json; charset=utf-8");
  return conditional(request, { body: json, etag, headers, policy, status });
}

/** A text body (XML, robots.txt, a web manifest) with the same caching as cachedJson: a strong ETag of its bytes. */
export function cachedText(request: Request, text: string, contentType: string, policy: CachePolicy) {
  const etag = `"${crypto.createHash("sha1").update(text).digest("base64url")}"`;
  return conditional(request, { body: text, etag, headers: new Headers({ "Content-Type": contentType }), policy });
}

/**
 * A body sent as it is made (a stream), validated by an ETag the caller derives from what the
 * body is made of (weak: the bytes are not hashed). A match answers 304 before anything is read.
 */
export function cachedStream(request: Request, open: () => ReadableStream<Uint8Array>, opts: { etag: string; contentType: string; policy: CachePolicy }) {
  const headers = new Headers({ "Content-Type": opts.contentType });
  return conditional(request, { body: open, etag: `W/"${opts.etag}"`, headers, policy: opts.policy });
}

function conditional(
  request: Request,
  {
    body,
    etag,
    headers,
    policy,
    status = 200,
  }: { body: string | (() => ReadableStream<Uint8Array>); etag: string; headers: Headers; policy: CachePolicy; status?: number },
) {
  headers.set("Cache-Control", cacheControl(policy));
  headers.set("ETag", etag);
  if (policy.scope !== "public" || policy.vary) headers.set("Vary", "Cookie, Authorization");
  const ifNoneMatch = request.headers.get("If-None-Match");
  // If-None-Match compares weakly (RFC 9110 section 13.1.2): W/"x" matches "x".
  const bare = etag.replace(/^W\//, "");
  if (status === 200 && ifNoneMatch && ifNoneMatch.split(/\s*,\s*/).some((tag) => tag.replace(/^W\//, "") === bare || tag === "*")) {
    return new Response(null, { status: 304, headers });
  }
  return new Response(typeof body === "string" ? body : body(), { status, headers });
}

/** Whether the response may be public: nobody signed in and nothing personal in it. */
export function isAnonymous(request: Request) {
  return !request.headers.get("Authorization") && !/medanim_session=/.test(request.headers.get("Cookie") ?? "");
}
