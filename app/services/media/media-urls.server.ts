import { signatureMatches, signValue } from "~/lib/crypto.server.ts";
import { registerCache } from "~/lib/cache-registry.server.ts";
import { prisma } from "~/lib/db.server.ts";
import { getEnv } from "~/lib/env.server.ts";
import { isSetId, setFileName } from "~/lib/media-store.server.ts";
import { canDownload, canWatch, getAccess, isActive, type Access, type AccessTarget } from "../licensing/access.server.ts";
import { covers, licenceSelect } from "../licensing/embeds.server.ts";
import { patientLinkPlays } from "../licensing/patient-link-access.server.ts";
import type { PlaybackDto } from "../catalogue/types.ts";

// Who may have which file of a media set, and the URLs that say so (decision 017).
//
// A set's files live under /media/{setId}/{grant}/{file}. The grant is a path segment, so the
// relative URIs inside HLS playlists (rung playlists, init files, segments, the storyboard's
// sprite) carry it without any rewriting, and a CDN can key on the whole path:
// - "public": the 10-second preview (preview.mp4, preview/…): anyone, cached a year.
// - "u.{userId}.{expires}.{sig}": everything else, for one member; every request checks the
//   signature, the time, and the member's right as it is now (watch, or download for download.*).
// - "l.{licenceId}.{host}.{expires}.{sig}": what a player plays (progressive MP4, HLS ladder,
//   storyboard) for one licence's embed on one site, and "p.{linkId}.{expires}.{sig}" the same
//   for a patient link; every request checks that the licence is still active and covers the
//   animation (and the link is live), so a licence that ends stops its players' bytes at once.
//   Both live the video's length and 10 minutes: the player page reloads itself for fresh ones
//   (static-page/player-page.ts), so a URL copied out of a page is soon worth nothing.

/** The files anyone may have: the preview is public (spec: "10-second previews" for visitors). */
export function isPublicSetFile(file: string) {
  return file === "preview.mp4" || file.startsWith("preview/");
}

export function isDownloadFile(file: string) {
  return /^download(-\d+p)?\.(mp4|webm)$/.test(file);
}

export const PUBLIC_MEDIA_CACHE = "public, max-age=31536000, immutable";
/** Never stored by a shared cache; the viewer's own browser may keep what never changes. */
export const PRIVATE_MEDIA_CACHE = "private, max-age=31536000, immutable";

export function setFileCacheControl(file: string) {
  return isPublicSetFile(file) ? PUBLIC_MEDIA_CACHE : PRIVATE_MEDIA_CACHE;
}

/**
 * How long a signed set URL works: half an hour, or twice the video's length for a long one,
 * so a playback that pauses a while still finishes. The right itself is checked on every request.
 */
export function signedMediaTtlSeconds(duration: number) {
  return Math.max(30 * 60, Math.ceil(duration * 2));
}

/** How long a licence's or a patient link's signed URL works: the video's length and 10 minutes. */
export function licensedMediaTtlSeconds(duration: number) {
  return Math.ceil(duration) + 10 * 60;
}

export type MediaGrant = { kind: "u"; userId: string } | { kind: "l"; licenceId: string; host: string } | { kind: "p"; linkId: string };

const HOST_RE = /^[a-z0-9.-]{1,253}(?::\d{1,5})?$|^direct$/;

function grantPayload(setId: string, grant: MediaGrant, expires: number) {
  if (grant.kind === "u") return `media|${setId}|u|${grant.userId}|${expires}`;
  if (grant.kind === "p") return `media|${setId}|p|${grant.linkId}|${expires}`;
  return `media|${setId}|l|${grant.licenceId}|${grant.host}|${expires}`;
}

function grantId(grant: MediaGrant) {
  return grant.kind === "u" ? grant.userId : grant.kind === "p" ? grant.linkId : grant.licenceId;
}

/** The grant segment of a set's signed URLs. */
export function signGrant(setId: string, grant: MediaGrant, ttlSeconds: number, now = Date.now()) {
  const expires = Math.floor(now / 1000) + ttlSeconds;
  const sig = signValue(grantPayload(setId, grant, expires), getEnv().SESSION_SECRET!);
  return grant.kind === "l" ? `l.${grant.licenceId}.${grant.host}.${expires}.${sig}` : `${grant.kind}.${grantId(grant)}.${expires}.${sig}`;
}

/** The grant a segment names, if its signature is ours and it has not expired; else null. */
export function verifyGrant(setId: string, segment: string, now = Date.now()): MediaGrant | null {
  const parts = segment.split(".");
  const kind = parts[0];
  // A host has dots of its own: the licence form is l.{id}.{host…}.{expires}.{sig}.
  if ((kind === "u" || kind === "p") && parts.length === 4) {
    const [, id, expires, sig] = parts as [string, string, string, string];
    return check(kind === "u" ? { kind: "u", userId: id } : { kind: "p", linkId: id }, expires, sig);
  }
  if (kind === "l" && parts.length >= 5) {
    const licenceId = parts[1]!;
    const sig = parts.at(-1)!;
    const expires = parts.at(-2)!;
    const host = parts.slice(2, -2).join(".");
    if (!HOST_RE.test(host)) return null;
    return check({ kind: "l", licenceId, host }, expires, sig);
  }
  return null;

  function check(grant: MediaGrant, expires: string, sig: string) {
    if (!/^\d{1,12}$/.test(expires) || Number(expires) * 1000 <= now) return null;
    if (!/^[0-9a-f-]{36}$/.test(grantId(grant))) return null;
    return signatureMatches(grantPayload(setId, grant, Number(expires)), sig, getEnv().SESSION_SECRET!) ? grant : null;
  }
}

/** A set file's URL as pages name it: on MEDIA_BASE_URL (a CDN) when set, else this origin. */
export function setFileUrl(setId: string, grant: string, file: string) {
  return `${getEnv().MEDIA_BASE_URL ?? ""}/media/${setId}/${grant}/${file}`;
}

export function previewUrls(setId: string) {
  return { mp4: setFileUrl(setId, "public", "preview.mp4"), hls: setFileUrl(setId, "public", "preview/index.m3u8") };
}

type SetSummary = {
  id: string;
  duration: number;
  renditions: { kind: string; file: string; width: number | null; height: number | null; bitrate: number | null; bytes: bigint }[];
};

const setSummarySelect = {
  id: true,
  duration: true,
  renditions: { select: { kind: true, file: true, width: true, height: true, bitrate: true, bytes: true }, orderBy: { height: "asc" as const } },
} as const;

/** The current set of an animation, with its renditions (one query), or null before the first finishes. */
export function getCurrentSet(mediaSetId: string | null): Promise<SetSummary | null> {
  if (!mediaSetId) return Promise.resolve(null);
  return prisma.mediaSet.findUnique({ where: { id: mediaSetId }, select: setSummarySelect });
}

/** What the page's player plays: the full ladder signed for this member, or the public preview. */
export function playbackFor(set: SetSummary, viewer: { userId: string; watch: boolean } | null, now = Date.now()): PlaybackDto {
  if (!viewer?.watch) {
    const preview = set.renditions.find((r) => r.kind === "preview");
    const top = set.renditions.filter((r) => r.kind === "hls").at(-1);
    return {
      isPreview: true,
      ...previewUrls(set.id),
      storyboard: null,
      rungs: [],
      width: preview?.width ?? top?.width ?? 1280,
      height: preview?.height ?? top?.height ?? 720,
    };
  }
  return ladderFor(set, signGrant(set.id, { kind: "u", userId: viewer.userId }, signedMediaTtlSeconds(set.duration), now));
}

function ladderFor(set: SetSummary, grant: string): PlaybackDto {
  const rungs = set.renditions.filter((r) => r.kind === "hls");
  const top = rungs.at(-1);
  const preview = set.renditions.find((r) => r.kind === "preview");
  return {
    isPreview: false,
    hls: setFileUrl(set.id, grant, "hls/master.m3u8"),
    mp4: setFileUrl(set.id, grant, "progressive.mp4"),
    storyboard: set.renditions.some((r) => r.kind === "storyboard") ? setFileUrl(set.id, grant, "storyboard.vtt") : null,
    rungs: rungs.map((r) => ({ height: r.height ?? 0, bitrate: r.bitrate ?? 0 })),
    width: top?.width ?? preview?.width ?? 1280,
    height: top?.height ?? preview?.height ?? 720,
  };
}

/**
 * What a licence's player plays (an embed on one site, or a patient link): the full ladder,
 * signed for that grant alone, for licensedMediaTtlSeconds; `expires` (ms) tells the page when
 * to fetch fresh URLs.
 */
export function licensedPlaybackFor(set: SetSummary, grant: Exclude<MediaGrant, { kind: "u" }>, now = Date.now()): PlaybackDto & { expires: number } {
  const ttl = licensedMediaTtlSeconds(set.duration);
  return { ...ladderFor(set, signGrant(set.id, grant, ttl, now)), expires: (Math.floor(now / 1000) + ttl) * 1000 };
}

export type SetFileDecision =
  | { allowed: false; status: 403 | 404 }
  | { allowed: true; cacheControl: string; download?: { slug: string }; embedPlay?: { licenceId: string; animationId: string; host: string } };

type SetOwner = { animationId: string; slug: string; isActive: boolean } & AccessTarget;

/** A set's animation, kept a few seconds: a player asks for many segments of one set. */
const OWNER_TTL_MS = 10_000;
const ownerCache = new Map<string, { expires: number; owner: Promise<SetOwner | null> }>();
const ACCESS_TTL_MS = 2_000;
const accessCache = new Map<string, { expires: number; access: Promise<(Access & { isAdmin: boolean }) | null> }>();

function remembered<T>(
  cache: Map<string, { expires: number } & Record<string, unknown>>,
  key: string,
  ttl: number,
  field: string,
  load: () => Promise<T>,
): Promise<T> {
  const now = Date.now();
  const hit = cache.get(key);
  if (hit && hit.expires > now) return hit[field] as Promise<T>;
  const value = load();
  if (cache.size >= 10_000) cache.delete(cache.keys().next().value!);
  cache.set(key, { expires: now + ttl, [field]: value });
  value.catch(() => cache.delete(key));
  return value;
}

// Emptied at any write to what they are read from (cache-registry.server.ts).
registerCache("mediaSetOwners", () => ownerCache.clear());
registerCache("mediaAccess", () => accessCache.clear());

function setOwner(setId: string) {
  return remembered(ownerCache as never, setId, OWNER_TTL_MS, "owner", async (): Promise<SetOwner | null> => {
    const set = await prisma.mediaSet.findUnique({
      where: { id: setId },
      select: { animation: { select: { id: true, slug: true, isActive: true, categoryId: true, category: { select: { parentId: true } } } } },
    });
    if (!set) return null;
    const { id, ...rest } = set.animation;
    return { animationId: id, id, ...rest };
  });
}

function memberAccess(userId: string) {
  return remembered(accessCache as never, userId, ACCESS_TTL_MS, "access", async () => {
    const user = await prisma.user.findUnique({ where: { id: userId }, select: { id: true, role: true, accountType: true, isActive: true } });
    if (!user?.isActive) return null;
    return { ...(await getAccess(user)), isAdmin: user.role === "admin" };
  });
}

/**
 * Whether a request for /media/{setId}/{grant}/{file} is answered. Refusals say 403 for any
 * bad or expired signature or missing right, and 404 only for what is not a set file at all.
 */
export async function decideSetFile(setId: string, grantSegment: string, file: string, now = new Date()): Promise<SetFileDecision> {
  if (!isSetId(setId) || !setFileName(file)) return { allowed: false, status: 404 };
  if (grantSegment === "public") {
    if (!isPublicSetFile(file)) return { allowed: false, status: 403 };
    return (await setOwner(setId)) ? { allowed: true, cacheControl: PUBLIC_MEDIA_CACHE } : { allowed: false, status: 404 };
  }
  const grant = verifyGrant(setId, grantSegment, now.getTime());
  if (!grant) return { allowed: false, status: 403 };
  const owner = await setOwner(setId);
  if (!owner) return { allowed: false, status: 404 };
  if (grant.kind === "l" || grant.kind === "p") {
    // A licence's player streams; the files for keeps are the package's, for the licensee alone.
    if (isDownloadFile(file)) return { allowed: false, status: 403 };
    if (grant.kind === "p") {
      return (await patientLinkPlays(grant.linkId, owner, now)) ? { allowed: true, cacheControl: PRIVATE_MEDIA_CACHE } : { allowed: false, status: 403 };
    }
    const licence = await prisma.subscription.findUnique({ where: { id: grant.licenceId }, select: licenceSelect });
    // covers() holds an unpublished animation to the licences that name it (decision 032).
    if (!licence || !isActive(licence, now) || !covers(licence, owner)) return { allowed: false, status: 403 };
    // The script-free player's start is its progressive MP4's first request (the HLS ladder's
    // plays are the player's beacons, services/analytics).
    const embedPlay = file === "progressive.mp4" ? { licenceId: licence.id, animationId: owner.animationId, host: grant.host } : undefined;
    return { allowed: true, cacheControl: PRIVATE_MEDIA_CACHE, embedPlay };
  }
  const access = await memberAccess(grant.userId);
  if (!access) return { allowed: false, status: 403 };
  if (isDownloadFile(file)) {
    if (!access.isAdmin && !canDownload(access, owner)) return { allowed: false, status: 403 };
    return { allowed: true, cacheControl: PRIVATE_MEDIA_CACHE, download: { slug: owner.slug } };
  }
  if (!access.isAdmin && !canWatch(access, owner)) return { allowed: false, status: 403 };
  return { allowed: true, cacheControl: PRIVATE_MEDIA_CACHE };
}
