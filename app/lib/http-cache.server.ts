import crypto from "node:crypto";

export type CachePolicy =
  /** Same answer for everyone: shared caches may keep it for maxAge seconds. */
  | { scope: "public"; maxAge: number }
  /** Depends on who asks (access flags, video links): only the asker's browser may keep it. */
  | { scope: "private"; maxAge: number }
  /** Never stored (the spec's /api/pages/slug, account data). */
  | { scope: "no-store" };

function cacheControl(policy: CachePolicy) {
  if (policy.scope === "no-store") return "no-store";
  return `${policy.scope}, max-age=${policy.maxAge}`;
}

/**
 * A JSON response with Cache-Control and a strong ETag of its bytes; a matching
 * If-None-Match answers 304 with no body. Responses that depend on the caller carry
 * `Vary: Cookie, Authorization` so no shared cache hands them to someone else.
 */
export function cachedJson(request: Request, body: unknown, policy: CachePolicy, status = 200) {
  const json = JSON.stringify(body);
  const etag = `"${crypto.createHash("sha1").update(json).digest("base64url")}"`;
  const headers = new Headers({
    "Content-Type": "application/json; charset=utf-8",
    "Cache-Control": cacheControl(policy),
    ETag: etag,
  });
  if (policy.scope !== "public") headers.set("Vary", "Cookie, Authorization");
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
