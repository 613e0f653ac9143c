import { signatureMatches, signValue } from "~/lib/crypto.server.ts";
import { prisma } from "~/lib/db.server.ts";
import { getEnv } from "~/lib/env.server.ts";
import { logger } from "~/lib/logger.server.ts";
import { getObjectInfo, objectIdFromPath, storageBackend } from "~/lib/storage.server.ts";
import { isActive } from "./access.server.ts";
import { covers, licenceSelect } from "./embeds.server.ts";
import { PROTECTED_CACHE_CONTROL, type ObjectDelivery } from "../media/delivery.server.ts";

// The embed player's media (licensed embeds, with embeds.server.ts): URLs signed for one licence,
// animation and embedding site that live 10 minutes and are re-checked against the licence on
// every request, and the play counters those requests feed.

/** A signed media URL lives 10 minutes: a copied URL stops working soon after. */
export const EMBED_MEDIA_TTL_SECONDS = 600;

type MediaGrant = { licenceId: string; animationId: string; host: string; expires: number };

function signedPayload({ licenceId, animationId, host, expires }: MediaGrant) {
  return `embed-media.${licenceId}.${animationId}.${expires}.${host}`;
}

/** The query of a signed media URL: bound to the licence, the animation, the site and a time. */
export function signEmbedMedia(grant: Omit<MediaGrant, "expires">, now = Date.now()) {
  const full = { ...grant, expires: Math.floor(now / 1000) + EMBED_MEDIA_TTL_SECONDS };
  return new URLSearchParams({
    licence: full.licenceId,
    host: full.host,
    expires: String(full.expires),
    sig: signValue(signedPayload(full), getEnv().SESSION_SECRET),
  }).toString();
}

export function embedVideoUrl(grant: Omit<MediaGrant, "expires">, now = Date.now()) {
  return `/embed-media/${grant.animationId}/video?${signEmbedMedia(grant, now)}`;
}

export function embedCaptionUrl(grant: Omit<MediaGrant, "expires">, language: string, now = Date.now()) {
  return `/embed-media/${grant.animationId}/captions/${encodeURIComponent(language)}?${signEmbedMedia(grant, now)}`;
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
  request: { animationId: string; track: { kind: "video" } | { kind: "caption"; language: string }; query: Record<string, unknown>; range?: string },
  now = new Date(),
): Promise<ObjectDelivery> {
  const refused = { ok: false as const, status: 403 as const, message: EMBED_MEDIA_MESSAGES[403] };
  const { licence: licenceId, host, expires, sig } = request.query;
  if (typeof licenceId !== "string" || typeof host !== "string" || typeof expires !== "string" || typeof sig !== "string") return refused;
  if (!/^\d{1,12}$/.test(expires) || host.length > 300) return refused;
  const grant = { licenceId, animationId: request.animationId, host, expires: Number(expires) };
  if (!signatureMatches(signedPayload(grant), sig, getEnv().SESSION_SECRET)) return refused;
  if (grant.expires * 1000 <= now.getTime()) return refused;

  const [licence, animation] = await Promise.all([
    prisma.subscription.findUnique({ where: { id: licenceId }, select: licenceSelect }).catch(() => null),
    prisma.animation
      .findUnique({ where: { id: request.animationId }, select: { id: true, fullVideo: true, categoryId: true, category: { select: { parentId: true } } } })
      .catch(() => null),
  ]);
  if (!licence || !animation || !isActive(licence, now) || !covers(licence, animation)) return refused;

  let objectId: string | null;
  if (request.track.kind === "video") {
    objectId = objectIdFromPath(animation.fullVideo);
  } else {
    const caption = await prisma.animationCaption.findUnique({
      where: { animationId_language: { animationId: animation.id, language: request.track.language } },
      select: { path: true },
    });
    objectId = objectIdFromPath(caption?.path);
  }
  const info = objectId ? await getObjectInfo(objectId) : null;
  if (!objectId || (!info && storageBackend() === "local")) return { ok: false, status: 404, message: EMBED_MEDIA_MESSAGES[404] };

  if (request.track.kind === "video" && isPlaybackStart(request.range)) {
    await recordEmbedPlay(licence.id, animation.id, host).catch((error) => logger.error({ err: error, licenceId }, "counting an embed play failed"));
  }
  return { ok: true, id: objectId, info, contentType: info?.contentType ?? "application/octet-stream", cacheControl: PROTECTED_CACHE_CONTROL };
}

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
