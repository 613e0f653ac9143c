import { signatureMatches, signValue } from "~/lib/crypto.server.ts";
import { getEnv } from "~/lib/env.server.ts";

// The playback token a page hands its player (the `data-analytics` attribute): which licence,
// animation and source (the clinic's site, or a patient link) the player's analytics events are
// for. The page has already decided that the viewer may play; the token carries that decision to
// POST /api/playback-events, so a beacon needs no cookie and no lookup of the page's own checks.
// HMAC-signed with SESSION_SECRET, so nobody can make one for another licence; it expires, so a
// token copied out of a page stops working; the licence and link are still re-checked on every
// batch (playback-events.server.ts).

export type PlaybackSource = { kind: "site"; host: string } | { kind: "link"; linkId: string };

export type PlaybackContext = { licenceId: string; animationId: string; source: PlaybackSource };

/** Long enough for a page left open through a consultation, short enough that a copied token dies the same day. */
export const PLAYBACK_TOKEN_TTL_SECONDS = 6 * 60 * 60;

const VERSION = "p1";
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
// A host as LicenceEmbedDomain stores it (or "direct"), with an optional port.
const HOST = /^[a-z0-9.*-]{1,253}(?::\d{1,5})?$/i;

function payload(context: PlaybackContext, expires: number) {
  const source = context.source.kind === "site" ? `s|${context.source.host}` : `l|${context.source.linkId}`;
  return `${VERSION}|${context.licenceId}|${context.animationId}|${source}|${expires}`;
}

/** An opaque, URL-safe token for one page's player: `{payload, base64url}.{signature}`. */
export function signPlaybackContext(context: PlaybackContext, now = Date.now()): string {
  const expires = Math.floor(now / 1000) + PLAYBACK_TOKEN_TTL_SECONDS;
  const value = payload(context, expires);
  return `${Buffer.from(value).toString("base64url")}.${signValue(value, getEnv().SESSION_SECRET)}`;
}

/** What a token says, if we signed it and it has not expired; otherwise null. */
export function verifyPlaybackContext(token: string, now = Date.now()): PlaybackContext | null {
  if (typeof token !== "string" || token.length > 600) return null;
  const [encoded, signature, ...rest] = token.split(".");
  if (!encoded || !signature || rest.length) return null;
  const value = Buffer.from(encoded, "base64url").toString("utf8");
  if (!signatureMatches(value, signature, getEnv().SESSION_SECRET)) return null;
  const [version, licenceId, animationId, kind, source, expires, ...extra] = value.split("|");
  if (version !== VERSION || extra.length || !licenceId || !animationId || !source || !expires) return null;
  if (!UUID.test(licenceId) || !UUID.test(animationId) || !/^\d{1,12}$/.test(expires)) return null;
  if (Number(expires) * 1000 <= now) return null;
  if (kind === "s" && HOST.test(source)) return { licenceId, animationId, source: { kind: "site", host: source } };
  if (kind === "l" && UUID.test(source)) return { licenceId, animationId, source: { kind: "link", linkId: source } };
  return null;
}
