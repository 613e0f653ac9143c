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
  headers.set("Cache-Control", cacheControl(policy));
  headers.set("ETag", etag);
  if (policy.scope !== "public" || policy.vary) headers.set("Vary", "Cookie, Authorization");
  const ifNoneMatch = request.headers.get("If-None-Match");
  if (status === 200 && ifNoneMatch && ifNoneMatch.split(/\s*,\s*/).some((tag) => tag === etag || tag === `W/${etag}` || tag === "*")) {
    return new Response(null, { status: 304, headers });
  }
  return new Response(json, { status, headers });
}

/** Whether the response may be public: nobody signed in and nothing personal in it. */
export function isAnonymous(request: Request) {
  return !request.headers.get("Authorization") && !/medanim_session=/.test(request.headers.get("Cookie") ?? "");
}
