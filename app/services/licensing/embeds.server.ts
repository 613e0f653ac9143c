import { escapeHtml } from "~/lib/sanitize.server.ts";
import { PLAYER_RESOURCES } from "~/lib/i18n/player.ts";
import { prisma } from "~/lib/db.server.ts";
import { getEnv } from "~/lib/env.server.ts";
import { conflict, forbidden, notFound, ServiceError } from "~/lib/errors.server.ts";
import { memo } from "~/lib/memo.server.ts";
import { appUrl, sendTemplatedEmail } from "~/lib/mail.server.ts";
import { formatLongDate } from "~/lib/format.ts";
import { logger } from "~/lib/logger.server.ts";
import { EMBED_DOMAIN_MESSAGES, frameAncestorSources, hostMatches, MAX_EMBED_DOMAINS, normaliseEmbedHost } from "~/validation/embed-domains.ts";
import type { AccessTarget } from "./access.server.ts";
import type { MedicalReviewClaim } from "../catalogue/medical-review-claim.ts";
import { cached } from "../catalogue/categories.server.ts";
import { currentMedicalReview, medicalReviewSelect } from "../catalogue/medical-review.server.ts";
import { canManage, getMembership } from "../practices/practices.server.ts";
import { describeSubscription } from "../commerce/subscriptions.server.ts";
import { MANAGERS_ONLY } from "~/validation/practices.ts";
import { activeLicenceWhere, heldWhere, coveredByCategoryWhere, hasCategoryLicence, hasIndividualLicence, isActive, type Access } from "./access.server.ts";

// Licensed embeds (one owner, with embed-media.server.ts for the player's signed media URLs and
// play counters): the sites a licence may be framed by, which licence an embed plays under, what
// the licensee and admins see, oEmbed.
// Who holds a licence is decided by the access rules (access.server.ts). The embed page may reuse
// a licence's row for 15 s (EMBED_DECISION_CACHE_MS); its media never: a licence that ends
// (expiry, cancellation, refund) stops its video at the next request, on every instance.

export const LICENCE_NOT_FOUND = "License not found";
export const DOMAIN_NOT_FOUND = "Domain not found";
// The embed's cards speak the viewer's language (lib/i18n/player.ts); these are their English words.
const cards = PLAYER_RESOURCES.en.player;
export const EMBED_NOT_AVAILABLE = cards.embedNotAvailable;
export const LICENCE_ENDED = cards.licenceEnded;
/** What a patient reads where an ended licence's embed was: nothing meant for the clinic. */
export const VIDEO_NO_LONGER_AVAILABLE = cards.noLongerAvailable;
export const NOT_LICENSED_HERE = cards.notLicensedHere;

/** Plays with no recognised embedding site (no Referer, or one not on the licence). */
export const DIRECT_HOST = "direct";

export type Licence = {
  id: string;
  userId: string;
  type: "global" | "category" | "individual";
  status: string;
  endDate: Date | null;
  animationId: string | null;
  categoryId: string | null;
};

export const licenceSelect = { id: true, userId: true, type: true, status: true, endDate: true, animationId: true, categoryId: true } as const;

/** Whether an (active or not) individual or category licence covers the animation, by the access rules. */
export function covers(licence: Licence, animation: AccessTarget) {
  const asAccess: Access = {
    signedIn: true,
    isAdmin: false,
    accountType: "free",
    subscriptions: [{ id: licence.id, type: licence.type, animationId: licence.animationId, categoryId: licence.categoryId, endDate: licence.endDate }],
  };
  return hasIndividualLicence(asAccess, animation) || hasCategoryLicence(asAccess, animation);
}

// ---- domains (the licensee's own) ----

/**
 * A licence the user holds (their own, or their practice's), for reading its sites; with
 * `manage`, one whose sites they may change: their own, or their practice's when they are its
 * owner or manager (decision 030). A viewer is refused with the reason.
 */
async function requireOwnLicence(userId: string, licenceId: string, manage = false) {
  const licence = await prisma.subscription
    .findFirst({
      where: { AND: [{ id: licenceId, type: { in: ["individual", "category"] } }, heldWhere(userId)] },
      select: { ...licenceSelect, practiceId: true },
    })
    .catch(() => null); // a malformed id is simply not found
  if (!licence) throw notFound(LICENCE_NOT_FOUND);
  if (manage && licence.practiceId && !canManage((await getMembership(userId))?.role)) throw forbidden(MANAGERS_ONLY);
  return licence;
}

export async function listEmbedDomains(userId: string, licenceId: string) {
  await requireOwnLicence(userId, licenceId);
  return prisma.licenceEmbedDomain.findMany({ where: { subscriptionId: licenceId }, orderBy: { createdAt: "asc" }, select: { id: true, host: true } });
}

/**
 * Adds a site to the owner's licence. The host is normalised here again (the rule's owner is
 * the validation module; a caller that skipped the schema gets the same answer). The limit is
 * checked with the licence row locked, so two concurrent adds cannot make a sixth.
 */
export async function addEmbedDomain(userId: string, licenceId: string, input: string) {
  const normalised = normaliseEmbedHost(input);
  if (!normalised.ok) throw new ServiceError(normalised.message, 400, "host");
  await requireOwnLicence(userId, licenceId, true);
  const added = await prisma.$transaction(async (tx) => {
    await tx.$queryRaw`SELECT id FROM "Subscription" WHERE id = ${licenceId}::uuid FOR UPDATE`;
    const existing = await tx.licenceEmbedDomain.findMany({ where: { subscriptionId: licenceId }, select: { host: true } });
    if (existing.some((d) => d.host === normalised.host)) throw conflict(EMBED_DOMAIN_MESSAGES.duplicate, "host");
    if (existing.length >= MAX_EMBED_DOMAINS) throw conflict(EMBED_DOMAIN_MESSAGES.limit, "host");
    return tx.licenceEmbedDomain.create({ data: { subscriptionId: licenceId, host: normalised.host }, select: { id: true, host: true } });
  });
  return added;
}

export async function removeEmbedDomain(userId: string, licenceId: string, domainId: string) {
  await requireOwnLicence(userId, licenceId, true);
  const { count } = await prisma.licenceEmbedDomain.deleteMany({ where: { id: domainId, subscriptionId: licenceId } }).catch(() => ({ count: 0 }));
  if (count === 0) throw notFound(DOMAIN_NOT_FOUND);
}

// ---- what the licensee sees ----

/** The embed's address for one animation under one licence. */
export function embedUrl(animationId: string, licenceId: string) {
  return `${appUrl()}/embed/${animationId}?licence=${licenceId}`;
}

export function oembedUrl(animationId: string, licenceId: string) {
  return `${appUrl()}/api/oembed?${new URLSearchParams({ url: `${appUrl()}/embed/${animationId}`, licence: licenceId })}`;
}

/** The snippet's box at its largest: 960 px wide, or 540 px tall for a portrait video. */
export const EMBED_WIDTH = 960;
export const EMBED_HEIGHT = 540;

type Sized = { videoWidth: number | null; videoHeight: number | null };

/**
 * The frame's shape: the video's own, as ffprobe measured it when the file was stored, so the
 * player fills its frame with no black bars; 16:9 (the catalogue's usual) until it is measured.
 */
export function embedAspect({ videoWidth, videoHeight }: Sized) {
  if (!videoWidth || !videoHeight) return { width: 16, height: 9 };
  const gcd = (a: number, b: number): number => (b ? gcd(b, a % b) : a);
  const d = gcd(videoWidth, videoHeight);
  return { width: videoWidth / d, height: videoHeight / d };
}

/** The largest size of the box for that shape: at most EMBED_WIDTH wide and EMBED_HEIGHT tall. */
export function embedSize(animation: Sized, maxWidth = EMBED_WIDTH) {
  const { width, height } = embedAspect(animation);
  const w = Math.min(maxWidth, EMBED_WIDTH, Math.round((EMBED_HEIGHT * width) / height));
  return { width: w, height: Math.round((w * height) / width) };
}

/**
 * The copy-ready snippet: a responsive box of the video's shape (full width up to its largest
 * size) around the iframe, nothing else. `referrerpolicy` makes the browser send the page's
 * origin even where the page itself withholds referrers, so the player can tell the site and
 * answer an unlicensed one with a card instead of a refused frame.
 */
export function embedSnippet(animation: { id: string; title: string } & Sized, licenceId: string) {
  const { width, height } = embedAspect(animation);
  return (
    `<div style="position:relative;width:100%;max-width:${embedSize(animation).width}px;aspect-ratio:${width}/${height}">` +
    `<iframe src="${escapeHtml(embedUrl(animation.id, licenceId))}" title="${escapeHtml(animation.title)}" referrerpolicy="strict-origin" ` +
    `style="position:absolute;inset:0;width:100%;height:100%;border:0" allow="fullscreen; picture-in-picture" allowfullscreen loading="lazy"></iframe></div>`
  );
}

const snippetAnimationSelect = { id: true, title: true, videoWidth: true, videoHeight: true } as const;

/** A category licence's list to pick from on /my-animations: its animations by title. */
const CATEGORY_CHOICES = 200;

/**
 * The member's individual and category licences that are active now, each with its sites, the
 * animation its snippet shows and its plays per site. A category licence lists the category's
 * animations (and its subcategories'); its snippet shows `chosen.animationId` when that is one of
 * them, the first by title otherwise.
 */
export async function listEmbedLicences(userId: string, now = new Date(), chosen?: { licenceId?: string; animationId?: string }) {
  const [licences, membership] = await Promise.all([
    prisma.subscription.findMany({
      where: activeLicenceWhere(now, { AND: [heldWhere(userId), { type: { in: ["individual", "category"] } }] }),
      orderBy: [{ endDate: "asc" }, { id: "asc" }],
      select: {
        ...licenceSelect,
        practice: { select: { legalName: true } },
        animation: { select: snippetAnimationSelect },
        category: { select: { id: true, name: true } },
        embedDomains: { orderBy: { createdAt: "asc" }, select: { id: true, host: true } },
        embedPlays: { orderBy: [{ plays: "desc" }, { host: "asc" }], select: { host: true, plays: true, animation: { select: { title: true } } } },
      },
    }),
    getMembership(userId),
  ]);
  return Promise.all(
    licences.map(async (l) => {
      const choices = l.categoryId
        ? await prisma.animation.findMany({
            where: { isActive: true, ...coveredByCategoryWhere(l.categoryId) },
            orderBy: [{ title: "asc" }, { id: "asc" }],
            take: CATEGORY_CHOICES,
            select: snippetAnimationSelect,
          })
        : [];
      const picked = chosen?.licenceId === l.id ? choices.find((a) => a.id === chosen.animationId) : undefined;
      const example = l.animation ?? picked ?? choices[0] ?? null;
      return {
        id: l.id,
        type: l.type as "individual" | "category",
        endDate: l.endDate,
        title: l.animation?.title ?? l.category?.name ?? "License",
        /** The practice it belongs to (null: the member's own). */
        practice: l.practice?.legalName ?? null,
        /** Whether this member may add and remove its sites (a practice's viewer may not). */
        managesSites: !l.practice || canManage(membership?.role),
        domains: l.embedDomains,
        plays: l.embedPlays.map((p) => ({ host: p.host, plays: p.plays, animationTitle: p.animation.title })),
        totalPlays: l.embedPlays.reduce((sum, p) => sum + p.plays, 0),
        choices: choices.map((a) => ({ id: a.id, title: a.title })),
        example: example ? { id: example.id, title: example.title } : null,
        snippet: example ? embedSnippet(example, l.id) : null,
        embedUrl: example ? embedUrl(example.id, l.id) : null,
        oembedUrl: example ? oembedUrl(example.id, l.id) : null,
      };
    }),
  );
}

export type EmbedLicence = Awaited<ReturnType<typeof listEmbedLicences>>[number];

/** The admin's view of an animation's embeds: licensee, site, plays (most played first). */
export async function listEmbedPlaysForAnimation(animationId: string) {
  const rows = await prisma.embedPlay.findMany({
    where: { animationId },
    orderBy: [{ plays: "desc" }, { host: "asc" }],
    take: 100,
    select: { host: true, plays: true, subscriptionId: true, subscription: { select: { user: { select: { email: true } } } } },
  });
  return rows.map((r) => ({ licenceId: r.subscriptionId, email: r.subscription.user.email, host: r.host, plays: r.plays }));
}

// ---- the embed player ----

const embedAnimationSelect = {
  id: true,
  slug: true,
  title: true,
  fullVideo: true,
  mediaSetId: true,
  duration: true,
  coverImage: true,
  isActive: true,
  categoryId: true,
  category: { select: { parentId: true } },
  ...medicalReviewSelect,
  captions: { orderBy: { language: "asc" }, select: { language: true, label: true, path: true, transcript: true } },
} as const;

export type EmbedDecision =
  | { kind: "not-found" }
  | { kind: "elsewhere"; animation: { title: string; pageUrl: string } }
  | {
      kind: "ended";
      licenceId: string;
      frameAncestors: string[];
      animation: { id: string; title: string };
      renewUrl: string;
      /** Framed on Medanim's own page (the licensee's preview): the card may speak to the licensee. */
      forLicensee: boolean;
    }
  | {
      kind: "play";
      licenceId: string;
      frameAncestors: string[];
      /** The embedding site as recognised from the request (a licence domain), or "direct". */
      host: string;
      animation: {
        id: string;
        title: string;
        coverImage: string | null;
        /** The current medical review, or null: the player then claims none. */
        medicalReview: MedicalReviewClaim | null;
        captions: { language: string; label: string; path: string; transcript: string }[];
        mediaSetId: string | null;
        duration: number;
      };
    };

/** The host of a Referer (`https://www.clinic.example/page` → `www.clinic.example`), or null. */
export function refererHost(referer: string | null | undefined) {
  if (!referer) return null;
  try {
    const url = new URL(referer);
    if (url.protocol !== "http:" && url.protocol !== "https:") return null;
    return url.port ? `${url.hostname}:${url.port}` : url.hostname;
  } catch {
    return null;
  }
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The animation as the embed shows it: catalogue content, kept in the catalogue's cache so that
 * an animation write drops it with every other copy (cache-registry.server.ts). The licence is never
 * cached that way (below).
 */
function loadEmbedAnimation(animationId: string) {
  if (!UUID.test(animationId)) return Promise.resolve(null);
  return cached(`embed-animation:${animationId.toLowerCase()}`, () =>
    prisma.animation.findUnique({ where: { id: animationId.toLowerCase() }, select: embedAnimationSelect }),
  );
}

/**
 * A licence's rows and sites may be reused by the embed page for 15 s on an instance (the issue:
 * the ended card "within a minute, on every instance"): a player page is loaded by every visitor
 * of a clinic's page, and this keeps it at the cost of a static page. Time is judged per request
 * (an expiry shows at once); a cancellation, refund or site change shows within 15 s (at once on
 * the instance that wrote it). The video itself is never served from this: every
 * signed media request reads the licence afresh and stops the moment it ends.
 */
export const EMBED_DECISION_CACHE_MS = 15_000;
function embedDecisionCacheMs() {
  return getEnv().NODE_ENV === "test" ? 0 : EMBED_DECISION_CACHE_MS;
}

type LicenceWithHosts = Licence & { hosts: string[]; embedEndedNoticeAt: Date | null };

/**
 * The individual and category licences covering the animation (its category or that category's
 * parent), with their sites, in one query: `licenceId`'s alone, or those naming `host`.
 */
async function findCoveringLicences(
  animation: { id: string; categoryId: string | null; category: { parentId: string | null } | null },
  filter: { licenceId: string } | { host: string },
): Promise<LicenceWithHosts[]> {
  const licenceId = "licenceId" in filter ? filter.licenceId : null;
  const host = "host" in filter ? filter.host : null;
  const rows = await prisma.$queryRaw<
    Array<Omit<LicenceWithHosts, "endDate" | "embedEndedNoticeAt"> & { endDate: Date | string | null; embedEndedNoticeAt: Date | string | null }>
  >`
    SELECT s.id, s."userId", s.type::text AS type, s.status::text AS status, s."endDate", s."animationId", s."categoryId", s."embedEndedNoticeAt",
           COALESCE(array_agg(d.host ORDER BY d."createdAt") FILTER (WHERE d.host IS NOT NULL), ARRAY[]::text[]) AS hosts
    FROM "Subscription" s
    LEFT JOIN "LicenceEmbedDomain" d ON d."subscriptionId" = s.id
    WHERE ((s.type = 'individual' AND s."animationId" = ${animation.id}::uuid)
        OR (s.type = 'category' AND s."categoryId" IN (${animation.categoryId}::uuid, ${animation.category?.parentId ?? null}::uuid)))
      AND (${licenceId}::uuid IS NULL OR s.id = ${licenceId}::uuid)
      AND (${host}::text IS NULL OR EXISTS (
        SELECT 1 FROM "LicenceEmbedDomain" m
        WHERE m."subscriptionId" = s.id
          AND (m.host = ${host}::text
            OR (left(m.host, 2) = '*.' AND length(${host}::text) > length(m.host) - 1 AND right(${host}::text, length(m.host) - 1) = substr(m.host, 2)))))
    GROUP BY s.id
    ORDER BY s."endDate" DESC NULLS LAST, s.id
    LIMIT 20`;
  const date = (value: Date | string | null) => (value === null ? null : new Date(value));
  return rows.map((r) => ({ ...r, endDate: date(r.endDate), embedEndedNoticeAt: date(r.embedEndedNoticeAt), hosts: [...r.hosts] }));
}

/**
 * Which licence an embed of `animationId` plays under (one query, reused for at most 15 s; the
 * animation's own content for the catalogue's few seconds):
 * - with `licenceId`: that individual or category licence, if it covers the animation (by the
 *   access rules: the animation, its category or its parent); active → play, ended → the card;
 * - without: the active licence covering the animation that names the embedding site (the
 *   Referer's host) among its domains; an ended one naming it → the card.
 * Only a frame (`fetchDest`, the browser's Sec-Fetch-Dest) on a site the licence names gets
 * the player; anything else (a top-level visit, a frame without a Referer, another site's frame)
 * is "elsewhere": the card, which any site may frame, with the animation's public page
 * (decision 013). Medanim's own pages (the preview on /my-animations) may frame it.
 * Anything else (no such animation, a global subscription, another animation's licence) is
 * "not found": the embed reveals nothing about licences it is not.
 */
export async function resolveEmbed(
  animationId: string,
  {
    licenceId,
    referer,
    fetchDest,
    lock = true,
    now = new Date(),
  }: {
    licenceId?: string | null;
    referer?: string | null;
    fetchDest?: string | null;
    /** False for a question about the licence alone (oEmbed's snippet), not a request for the player. */
    lock?: boolean;
    now?: Date;
  } = {},
): Promise<EmbedDecision> {
  const embeddingHost = refererHost(referer);
  if (licenceId ? !UUID.test(licenceId) : !embeddingHost) return { kind: "not-found" };
  const animation = await loadEmbedAnimation(animationId);
  if (!animation) return { kind: "not-found" };

  const filter = licenceId ? { licenceId: licenceId.toLowerCase() } : { host: embeddingHost! };
  const candidates = await memo(`embed-licence:${animation.id}:${JSON.stringify(filter)}`, embedDecisionCacheMs(), () =>
    findCoveringLicences(animation, filter),
  );
  const named = candidates.filter((l) => covers(l, animation) && (licenceId || l.hosts.some((h) => hostMatches(h, embeddingHost!))));
  const licence = named.find((l) => isActive(l, now)) ?? named[0];
  if (!licence) return { kind: "not-found" };

  const onLicensedSite = embeddingHost ? licence.hosts.some((h) => hostMatches(h, embeddingHost)) : false;
  // The domain lock: full media only to a frame on a licensed site (or on Medanim's own pages,
  // the licensee's preview). A top-level visit to the player's URL, a frame without a Referer
  // and another site's frame get the card with the public page (the preview), never media URLs.
  const framed = fetchDest === "iframe" || fetchDest === "frame";
  if (lock && (!framed || !(onLicensedSite || isMedanimPage(embeddingHost)))) {
    return { kind: "elsewhere", animation: { title: animation.title, pageUrl: `${appUrl()}/animations/${encodeURIComponent(animation.slug)}` } };
  }

  const frameAncestors = frameAncestorSources(licence.hosts);
  if (!isActive(licence, now) || !animation.fullVideo) {
    const renewUrl =
      licence.type === "individual" ? `${appUrl()}/purchase/individual/${animation.slug}` : `${appUrl()}/purchase/category/${licence.categoryId ?? ""}`;
    const forLicensee = isMedanimPage(embeddingHost);
    // A patient met it on the clinic's site: the clinic hears of it, the patient is not sold to.
    if (!forLicensee && !isActive(licence, now) && lock) {
      await noticeEndedEmbed(licence, { title: animation.title }, embeddingHost!, renewUrl, now).catch((error: unknown) =>
        logger.error({ err: error, licenceId: licence.id }, "telling the licensee of an ended embed failed"),
      );
    }
    return { kind: "ended", licenceId: licence.id, frameAncestors, animation: { id: animation.id, title: animation.title }, renewUrl, forLicensee };
  }
  const host = onLicensedSite ? embeddingHost! : DIRECT_HOST;
  return {
    kind: "play",
    licenceId: licence.id,
    frameAncestors,
    host,
    animation: {
      id: animation.id,
      title: animation.title,
      coverImage: animation.coverImage,
      medicalReview: currentMedicalReview(animation, now),
      captions: animation.captions,
      // The media pipeline's set (the ladder, and the progressive MP4 without JavaScript); null before the first.
      mediaSetId: animation.mediaSetId,
      duration: animation.duration,
    },
  };
}

/**
 * Tells the licence's payer, once, that a visitor of `site` met its ended embed. Once per end: the
 * claim is a conditional update (several instances, many visitors), and a licence renewed and
 * ended again (a later end date than the last notice) is told again.
 */
async function noticeEndedEmbed(licence: LicenceWithHosts, animation: { title: string }, site: string, renewUrl: string, now: Date) {
  const endedBy = licence.endDate && licence.endDate <= now ? licence.endDate : null;
  if (licence.embedEndedNoticeAt && (!endedBy || licence.embedEndedNoticeAt >= endedBy)) return;
  const claim = await prisma.subscription.updateMany({
    where: { id: licence.id, OR: [{ embedEndedNoticeAt: null }, ...(endedBy ? [{ embedEndedNoticeAt: { lt: endedBy } }] : [])] },
    data: { embedEndedNoticeAt: now },
  });
  if (claim.count !== 1) return;
  const row = await prisma.subscription.findUniqueOrThrow({
    where: { id: licence.id },
    select: {
      type: true,
      updatedAt: true,
      category: { select: { name: true } },
      animation: { select: { title: true } },
      user: { select: { id: true, email: true, firstName: true } },
    },
  });
  await sendTemplatedEmail({
    template: "embed_licence_ended",
    to: row.user.email,
    userId: row.user.id,
    variables: {
      firstName: row.user.firstName,
      site,
      animationTitle: animation.title,
      date: formatLongDate(now),
      itemName: describeSubscription(row),
      endDate: formatLongDate(endedBy ?? row.updatedAt),
      renewUrl,
    },
  });
}

/**
 * Medanim's own pages (the licensee's preview on /my-animations) may frame any licence's player.
 * A frame with no Referer is not one: the snippet's referrerpolicy makes a browser send the
 * licensed page's origin, and a privacy extension that strips it on a licensed site costs that
 * visitor the card (docs/embeds.md), which is the price of a lock a copied URL cannot open.
 */
function isMedanimPage(embeddingHost: string | null) {
  return embeddingHost !== null && embeddingHost === new URL(appUrl()).host;
}

// ---- oEmbed ----

/** A path segment decoded, or as it is when its percent-encoding is broken (no 500 for junk). */
function safeDecode(segment: string) {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

export const OEMBED_NOT_FOUND = "No embed found for this address";

/**
 * The oEmbed answer (https://oembed.com, type "video") for an embed URL or an animation page
 * URL of this site, under the given licence (or the one in the URL's `licence` parameter),
 * only while that licence is active and covers the animation.
 */
export async function getOEmbed({ url, licenceId, maxwidth }: { url: string; licenceId?: string; maxwidth?: number }, now = new Date()) {
  let target: URL;
  try {
    target = new URL(url, appUrl());
  } catch {
    throw notFound(OEMBED_NOT_FOUND);
  }
  const licence = licenceId ?? target.searchParams.get("licence") ?? undefined;
  if (!licence) throw notFound(OEMBED_NOT_FOUND);
  const embed = /^\/embed\/([0-9a-f-]{36})\/?$/i.exec(target.pathname);
  const page = /^\/animations\/([^/]+)\/?$/.exec(target.pathname);
  const animation = embed
    ? await prisma.animation.findUnique({ where: { id: embed[1]!.toLowerCase() }, select: snippetAnimationSelect }).catch(() => null)
    : page
      ? await prisma.animation.findUnique({ where: { slug: safeDecode(page[1]!) }, select: snippetAnimationSelect }).catch(() => null)
      : null;
  if (!animation) throw notFound(OEMBED_NOT_FOUND);
  const decision = await resolveEmbed(animation.id, { licenceId: licence, lock: false, now });
  if (decision.kind !== "play") throw notFound(OEMBED_NOT_FOUND);
  const { width, height } = embedSize(animation, maxwidth && maxwidth > 0 ? Math.floor(maxwidth) : EMBED_WIDTH);
  return {
    version: "1.0",
    type: "video",
    title: animation.title,
    provider_name: "Medanim",
    provider_url: appUrl(),
    html: embedSnippet(animation, decision.licenceId),
    width,
    height,
  };
}
