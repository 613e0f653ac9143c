import crypto from "node:crypto";
import { prisma } from "~/lib/db.server.ts";
import { ServiceError } from "~/lib/errors.server.ts";
import { enforceRateLimit, type RateLimitRule } from "~/lib/rate-limit.server.ts";
import type { PlaybackEvents } from "~/validation/playback-analytics.ts";
import { PLAYBACK_MESSAGES } from "~/validation/playback-analytics.ts";
import { isActive } from "../licensing/access.server.ts";
import { covers, licenceSelect } from "../licensing/embeds.server.ts";
import { verifyPlaybackContext, type PlaybackContext } from "./playback-context.server.ts";

// The players' analytics events (issue 46, "What the clinic learns"): a batch is stored only for
// a licence that is live and still covers the animation, or a patient link that has neither
// expired nor been revoked; batches are limited per address and per page. The viewer is a hash
// salted per UTC day: no address, browser or account is stored, and once the day's salt is
// deleted (after two days) nobody can tell whose hash it was.

export const PLAYBACK_REFUSED = {
  licence: "This license has ended: plays are no longer recorded",
  animation: "This license does not cover this animation",
  link: "This patient link has expired or was revoked",
} as const;

/**
 * Per page view (one token): a playback sends at most six batches (three quartiles, the end,
 * leaving), so 60 in 15 minutes is ten plays of the whole video.
 */
export const PLAYBACK_PAGE_RULE: RateLimitRule = { limit: 60, windowMs: 15 * 60 * 1000 };
/** Per address: a clinic's waiting room plays on several screens behind one address. */
export const PLAYBACK_ADDRESS_RULE: RateLimitRule = { limit: 600, windowMs: 15 * 60 * 1000 };

export type PlaybackClient = { address: string; userAgent: string };

export async function recordPlaybackEvents(batch: PlaybackEvents, client: PlaybackClient, now = new Date()) {
  const context = verifyPlaybackContext(batch.token, now.getTime());
  if (!context) throw new ServiceError(PLAYBACK_MESSAGES.token, 400, "token");
  // Limits before any lookup, so a flood costs one counter row each. A page is its token (its
  // signature) seen from one address: viewers who load the same page in the same second share a
  // token, not a limit.
  await enforceRateLimit(`playback:page:${batch.token.split(".")[1]!.slice(0, 22)}:${client.address}`, PLAYBACK_PAGE_RULE);
  await enforceRateLimit(`playback:address:${client.address}`, PLAYBACK_ADDRESS_RULE);
  await requireLive(context, now);

  const viewerHash = crypto
    .createHash("sha256")
    .update(`${await daySalt(now)}|${client.address}|${client.userAgent}|${context.licenceId}`)
    .digest("base64url");
  const source = context.source.kind === "site" ? context.source.host : context.source.linkId;
  await prisma.playbackEvent.createMany({
    data: batch.events.map((event) => ({
      at: now,
      subscriptionId: context.licenceId,
      animationId: context.animationId,
      sourceKind: context.source.kind,
      source,
      viewerHash,
      playId: event.play,
      kind: event.kind,
      fraction: event.fraction,
    })),
  });

  if (context.source.kind === "link") {
    // What the clinic's list shows: opened (a play implies it), and the first time a video of it
    // was watched to the end. Conditional, so the first time stays the first.
    const linkId = context.source.linkId;
    await prisma.patientLink.updateMany({ where: { id: linkId, firstOpenedAt: null }, data: { firstOpenedAt: now } });
    if (batch.events.some((event) => event.kind === "q100")) {
      await prisma.patientLink.updateMany({ where: { id: linkId, completedAt: null }, data: { completedAt: now } });
    }
  }
}

/** The licence is active and covers the animation; a patient link is the licence's, names the animation, and is neither expired nor revoked. */
async function requireLive(context: PlaybackContext, now: Date) {
  const [licence, animation] = await Promise.all([
    prisma.subscription.findUnique({ where: { id: context.licenceId }, select: licenceSelect }),
    prisma.animation.findUnique({ where: { id: context.animationId }, select: { id: true, categoryId: true, category: { select: { parentId: true } } } }),
  ]);
  if (!licence || !isActive(licence, now) || (licence.type !== "individual" && licence.type !== "category")) {
    throw new ServiceError(PLAYBACK_REFUSED.licence, 410);
  }
  if (!animation || !covers(licence, animation)) throw new ServiceError(PLAYBACK_REFUSED.animation, 410);
  if (context.source.kind === "link") {
    const link = await prisma.patientLink.findFirst({
      where: {
        id: context.source.linkId,
        subscriptionId: licence.id,
        revokedAt: null,
        expiresAt: { gt: now },
        animations: { some: { animationId: animation.id } },
      },
      select: { id: true },
    });
    if (!link) throw new ServiceError(PLAYBACK_REFUSED.link, 410);
  }
}

/** The UTC day as the tables key it. */
export function utcDay(at: Date) {
  return at.toISOString().slice(0, 10);
}

// A day's salt never changes once written, so an instance keeps the one of the current day.
let keptSalt: { day: string; salt: string } | undefined;

/** Today's salt (UTC): made by the first batch of the day on any instance, the same for all. */
async function daySalt(now: Date) {
  const day = utcDay(now);
  if (keptSalt?.day === day) return keptSalt.salt;
  const fresh = crypto.randomBytes(32).toString("base64url");
  await prisma.$executeRaw`INSERT INTO "PlaybackDaySalt" ("day", "salt") VALUES (${day}::date, ${fresh}) ON CONFLICT ("day") DO NOTHING`;
  const row = await prisma.playbackDaySalt.findUniqueOrThrow({ where: { day: new Date(`${day}T00:00:00Z`) }, select: { salt: true } });
  keptSalt = { day, salt: row.salt };
  return row.salt;
}
