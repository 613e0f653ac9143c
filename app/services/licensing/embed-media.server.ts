import { signatureMatches, signValue } from "~/lib/crypto.server.ts";
import { prisma } from "~/lib/db.server.ts";
import { getEnv } from "~/lib/env.server.ts";
import { logger } from "~/lib/logger.server.ts";
import { getObjectInfo, objectIdFromPath, storageBackend } from "~/lib/storage.server.ts";
import { isActive } from "./access.server.ts";
import { covers, licenceSelect } from "./embeds.server.ts";
import { patientLinkPlays } from "./patient-link-access.server.ts";
import { PROTECTED_CACHE_CONTROL, type ObjectDelivery } from "../media/delivery.server.ts";

// The stored video (before the media pipeline's first set) of a licence's players:
// the embed, at URLs signed for one licence, animation and embedding site, and a patient link,
// at URLs signed for the link and animation. They live the video's length and 10 minutes
// (licensedMediaTtlSeconds) and are re-checked against the licence (and link) on every request;
// with the play counters those requests feed.

/** Who a signed URL is for: a licence's embed on a site, or a patient link. */
export type EmbedMediaGrant = { animationId: string } & ({ licenceId: string; host: string } | { linkId: string });

type Signed = EmbedMediaGrant & { expires: number };

function signedPayload(grant: Signed) {
  return "linkId" in grant
    ? `embed-media.link.${grant.linkId}.${grant.animationId}.${grant.expires}`
    : `embed-media.${grant.licenceId}.${grant.animationId}.${grant.expires}.${grant.host}`;
}

/** The query of a signed media URL: bound to the licence and site (or the link), the animation and a time. */
export function signEmbedMedia(grant: EmbedMediaGrant, ttlSeconds: number, now = Date.now()) {
  const expires = Math.floor(now / 1000) + ttlSeconds;
  const sig = signValue(signedPayload({ ...grant, expires }), getEnv().SESSION_SECRET);
  const who: Record<string, string> = "linkId" in grant ? { link: grant.linkId } : { licence: grant.licenceId, host: grant.host };
  return new URLSearchParams({ ...who, expires: String(expires), sig }).toString();
}

export function embedVideoUrl(grant: EmbedMediaGrant, ttlSeconds: number, now = Date.now()) {
  return `/embed-media/${grant.animationId}/video?${signEmbedMedia(grant, ttlSeconds, now)}`;
}

export const EMBED_MEDIA_MESSAGES = {
  403: "This link has expired or is not valid",
  404: "File not found",
} as const;

/**
 * Whether a signed media request may have its file, checked on every request (a player's every
 * range request too): the signature, its time, and that the licence is still active and still
 * covers the animation. The video's first request of a playback (no Range, or `bytes=0-`)
 * counts one play for the licence, the animation and the site in the signature.
 */
export async function getEmbedMediaDelivery(
  request: { animationId: string; query: Record<string, unknown>; range?: string },
  now = new Date(),
): Promise<ObjectDelivery> {
  const refused = { ok: false as const, status: 403 as const, message: EMBED_MEDIA_MESSAGES[403] };
  const grant = signedGrant(request.animationId, request.query);
  if (!grant || !signatureMatches(signedPayload(grant), String(request.query.sig), getEnv().SESSION_SECRET)) return refused;
  if (grant.expires * 1000 <= now.getTime()) return refused;

  const animation = await prisma.animation
    .findUnique({
      where: { id: request.animationId },
      select: { id: true, fullVideo: true, isActive: true, categoryId: true, category: { select: { parentId: true } } },
    })
    .catch(() => null);
  if (!animation) return refused;
  let licenceId: string | null = null;
  if ("linkId" in grant) {
    if (!(await patientLinkPlays(grant.linkId, animation, now))) return refused;
  } else {
    const licence = await prisma.subscription.findUnique({ where: { id: grant.licenceId }, select: licenceSelect }).catch(() => null);
    if (!licence || !isActive(licence, now) || !covers(licence, animation)) return refused;
    licenceId = licence.id;
  }

  const objectId = objectIdFromPath(animation.fullVideo);
  const info = objectId ? await getObjectInfo(objectId) : null;
  if (!objectId || (!info && storageBackend() === "local")) return { ok: false, status: 404, message: EMBED_MEDIA_MESSAGES[404] };

  if (licenceId && "host" in grant && isPlaybackStart(request.range)) {
    await recordEmbedPlay(licenceId, animation.id, grant.host).catch((error) => logger.error({ err: error, licenceId }, "counting an embed play failed"));
  }
  return { ok: true, id: objectId, info, contentType: info?.contentType ?? "application/octet-stream", cacheControl: PROTECTED_CACHE_CONTROL };
}

/** The grant a query names, well formed (its signature is checked by the caller), or null. */
function signedGrant(animationId: string, query: Record<string, unknown>): Signed | null {
  const { licence, host, link, expires, sig } = query;
  if (typeof expires !== "string" || typeof sig !== "string" || !/^\d{1,12}$/.test(expires)) return null;
  if (typeof link === "string") return UUID.test(link) ? { animationId, linkId: link, expires: Number(expires) } : null;
  if (typeof licence !== "string" || typeof host !== "string" || host.length > 300 || !UUID.test(licence)) return null;
  return { animationId, licenceId: licence, host, expires: Number(expires) };
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function isPlaybackStart(range: string | undefined) {
  return range === undefined || /^bytes=0-$/.test(range.trim());
}

/** One play more, in one statement: concurrent plays never lose a count. */
export async function recordEmbedPlay(licenceId: string, animationId: string, host: string) {
  await prisma.$executeRaw`
    INSERT INTO "EmbedPlay" ("subscriptionId", "animationId", "host", "plays", "updatedAt")
    VALUES (${licenceId}::uuid, ${animationId}::uuid, ${host}, 1, now())
    ON CONFLICT ("subscriptionId", "animationId", "host") DO UPDATE SET "plays" = "EmbedPlay"."plays" + 1, "updatedAt" = now()`;
}
