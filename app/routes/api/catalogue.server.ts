import crypto from "node:crypto";
import { ServiceError } from "~/lib/errors.server.ts";
import { apiError } from "~/lib/api.server.ts";
import { type CachePolicy, cachedJson, isAnonymous } from "~/lib/http-cache.server.ts";

// Shared by the catalogue's /api resource routes: cache policies from the spec (section 9:
// animations and detail 5 minutes, main categories 10 minutes) and the 404 mapping.

export const FIVE_MINUTES = 300;
export const TEN_MINUTES = 600;

/** Caller-independent answers: any cache may keep them. */
export const publicFor = (maxAge: number): CachePolicy => ({ scope: "public", maxAge });

/**
 * Answers that depend on who asks (access flags, video links): public only for an anonymous
 * caller (everyone anonymous gets the same bytes), private otherwise.
 */
export function viewerPolicy(request: Request, maxAge: number): CachePolicy {
  return { scope: isAnonymous(request) ? "public" : "private", maxAge };
}

/**
 * Runs a handler; an unknown slug or id becomes 404 `{ message }`. `viewerDependent` answers
 * (shaped by getViewerAccess) that go out public, to anonymous callers, still carry
 * `Vary: Cookie, Authorization`, so a shared cache never hands them to a signed-in caller.
 */
export async function catalogueJson(
  request: Request,
  policy: CachePolicy,
  load: () => Promise<object>,
  { viewerDependent = false }: { viewerDependent?: boolean } = {},
) {
  try {
    const body = await load();
    if (policy.scope !== "public") return cachedJson(request, body, policy);
    // A body the catalogue cache handed out before (the same object) is not serialised again.
    let prepared = serialised.get(body);
    if (!prepared) {
      const json = JSON.stringify(body);
      prepared = { json, etag: `"${crypto.createHash("sha1").update(json).digest("base64url")}"` };
      serialised.set(body, prepared);
    }
    const response = preparedJson(request, prepared, policy);
    if (viewerDependent) response.headers.set("Vary", "Cookie, Authorization");
    return response;
  } catch (error) {
    if (error instanceof ServiceError && error.status === 404) return apiError(error.message, 404);
    throw error;
  }
}

type Prepared = { json: string; etag: string };
const serialised = new WeakMap<object, Prepared>();

/** cachedJson's answer (same ETag, headers and 304 rule) for a public body serialised once. */
function preparedJson(request: Request, prepared: Prepared, policy: { scope: "public"; maxAge: number }) {
  const headers = new Headers({
    "Content-Type": "application/json; charset=utf-8",
    "Cache-Control": `public, max-age=${policy.maxAge}`,
    ETag: prepared.etag,
  });
  const ifNoneMatch = request.headers.get("If-None-Match");
  if (ifNoneMatch && ifNoneMatch.split(/\s*,\s*/).some((tag) => tag === prepared.etag || tag === `W/${prepared.etag}` || tag === "*")) {
    return new Response(null, { status: 304, headers });
  }
  return new Response(prepared.json, { status: 200, headers });
}
