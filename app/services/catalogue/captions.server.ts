import fs from "node:fs";
import { prisma } from "~/lib/db.server.ts";
import { notFound, ServiceError } from "~/lib/errors.server.ts";
import { logger } from "~/lib/logger.server.ts";
import { localObjectFile, objectIdFromPath, readS3ObjectHead, storageBackend } from "~/lib/storage.server.ts";
import { confirmUpload, discardUploads, NOT_WEBVTT_MESSAGE, uploadRule } from "~/lib/upload.server.ts";
import { hasWebVttHeader, parseVtt } from "~/lib/vtt.ts";
import { type CaptionUploadInput, languageName } from "~/validation/admin-captions.ts";
import { type Actor, recordAudit } from "../admin/audit.server.ts";

// Caption tracks of an animation (WebVTT, one per language). The file is stored by the upload
// helpers (extension, 1 MB, WEBVTT header); here its cues are counted and its text kept as the
// transcript, and the track is attached, replacing the language's previous one.

export const NO_CUES_MESSAGE = "Caption file has no cues";
export const CAPTION_NOT_FOUND = "Caption not found";
export const ANIMATION_NOT_FOUND = "Animation not found";

/** An animation has at most this many tracks (one per offered language). */
export const MAX_CAPTIONS = 20;

export type CaptionTrack = { language: string; label: string; src: string };

/** The tracks of an animation as the player offers them: English first, then by language. */
export function orderTracks<T extends { language: string }>(tracks: T[]): T[] {
  const rank = (t: T) => (t.language === "en" || t.language.startsWith("en-") ? 0 : 1);
  return [...tracks].sort((a, b) => rank(a) - rank(b) || a.language.localeCompare(b.language));
}

type PlayerTrack = { language: string; label: string; path: string; transcript: string | null };

/**
 * The tracks the player offers, English first (as orderTracks), in one bounded query; with
 * `withTranscript` the first track also carries its text for the page's transcript, and only
 * that one: a transcript may be 100 KB and there may be twenty tracks.
 */
export async function loadPlayerTracks(animationId: string, { withTranscript = false } = {}) {
  const tracks = await prisma.$queryRaw<PlayerTrack[]>`
    SELECT language, label, path, CASE WHEN ${withTranscript} AND rank = 1 THEN transcript END AS transcript
    FROM (
      SELECT language, label, path, transcript,
             row_number() OVER (ORDER BY (language = 'en' OR language LIKE 'en-%') DESC, language COLLATE "C") AS rank
      FROM "AnimationCaption" WHERE "animationId" = ${animationId}::uuid
    ) ranked
    ORDER BY rank
    LIMIT ${MAX_CAPTIONS}`;
  const first = tracks[0];
  return {
    tracks: tracks.map((t): CaptionTrack => ({ language: t.language, label: t.label, src: t.path })),
    transcript: first?.transcript ? { language: first.language, label: first.label, text: first.transcript } : null,
  };
}

export async function listCaptions(animationId: string) {
  const rows = await prisma.animationCaption.findMany({
    where: { animationId },
    orderBy: { language: "asc" },
    take: MAX_CAPTIONS,
    select: { id: true, language: true, label: true, path: true, size: true, cueCount: true, createdAt: true, updatedAt: true },
  });
  return orderTracks(rows);
}

/** The bytes of a stored caption file (at most its size limit). */
async function readCaptionFile(id: string): Promise<Buffer> {
  const max = uploadRule("caption").maxBytes;
  if (storageBackend() === "s3") {
    const head = await readS3ObjectHead(id, max + 1);
    if (!head) throw notFound("Upload not found");
    return head.bytes;
  }
  return fs.promises.readFile(localObjectFile(id));
}

/**
 * Attaches a stored caption file to an animation in `input.language`, replacing that
 * language's track if there is one (its old object is deleted once the change has committed).
 * A file without cues is refused and deleted. On any refusal the new object is deleted too.
 */
export async function saveCaption(actor: Actor, animationId: string, input: CaptionUploadInput) {
  // A path already attached to a track is someone else's file: never attached twice, never deleted here.
  if (await prisma.animationCaption.findFirst({ where: { path: input.file }, select: { id: true } })) {
    throw new ServiceError("Upload not found", 404, "file");
  }
  try {
    return await attachCaption(actor, animationId, input);
  } catch (error) {
    await discardUploads([input.file]);
    throw error;
  }
}

async function attachCaption(actor: Actor, animationId: string, input: CaptionUploadInput) {
  const animation = await prisma.animation.findUnique({ where: { id: animationId }, select: { id: true, title: true } });
  if (!animation) throw notFound(ANIMATION_NOT_FOUND);
  const info = await confirmUpload(input.file, "caption").catch((error: unknown) => {
    if (error instanceof ServiceError) throw new ServiceError(error.message, error.status, "file");
    throw error;
  });
  const id = objectIdFromPath(input.file)!;
  const text = (await readCaptionFile(id)).toString("utf8");
  // Checked on the way in already; checked again for an object that bypassed the app (S3).
  if (!hasWebVttHeader(text)) throw new ServiceError(NOT_WEBVTT_MESSAGE, 400, "file");
  const { cueCount, transcript } = parseVtt(text);
  if (cueCount === 0) throw new ServiceError(NO_CUES_MESSAGE, 400, "file");
  const label = input.label?.trim() || languageName(input.language);
  const size = info?.size ?? Buffer.byteLength(text);

  const { caption, replaced } = await prisma.$transaction(async (tx) => {
    const previous = await tx.animationCaption.findUnique({
      where: { animationId_language: { animationId, language: input.language } },
      select: { id: true, language: true, label: true, path: true, size: true, cueCount: true },
    });
    if (!previous) {
      const count = await tx.animationCaption.count({ where: { animationId } });
      if (count >= MAX_CAPTIONS) throw new ServiceError(`An animation has at most ${MAX_CAPTIONS} caption tracks`, 400, "language");
    }
    const data = { label, path: input.file, transcript, size, cueCount };
    const saved = previous
      ? await tx.animationCaption.update({ where: { id: previous.id }, data })
      : await tx.animationCaption.create({ data: { ...data, animationId, language: input.language } });
    const after = { language: saved.language, label, path: saved.path, size, cueCount };
    await recordAudit(tx, actor, {
      action: previous ? "caption.replace" : "caption.create",
      entityType: "caption",
      entityId: saved.id,
      summary: `${previous ? "Replaced" : "Added"} ${label} captions of “${animation.title}”`,
      before: previous ? { language: previous.language, label: previous.label, path: previous.path, size: previous.size, cueCount: previous.cueCount } : null,
      after,
    });
    return { caption: saved, replaced: previous };
  });
  if (replaced && replaced.path !== caption.path) await discardUploads([replaced.path]);
  return { caption, replaced: replaced !== null };
}

/** Removes a track and its file (the file once the row is gone). */
export async function deleteCaption(actor: Actor, animationId: string, captionId: string) {
  const deleted = await prisma.$transaction(async (tx) => {
    const caption = await tx.animationCaption.findFirst({
      where: { id: captionId, animationId },
      select: { id: true, language: true, label: true, path: true, size: true, cueCount: true, animation: { select: { title: true } } },
    });
    if (!caption) throw notFound(CAPTION_NOT_FOUND);
    await tx.animationCaption.delete({ where: { id: caption.id } });
    const { animation, id, ...before } = caption;
    await recordAudit(tx, actor, {
      action: "caption.delete",
      entityType: "caption",
      entityId: id,
      summary: `Deleted ${caption.label} captions of “${animation.title}”`,
      before,
      after: null,
    });
    return caption;
  });
  await discardUploads([deleted.path]).catch((error) => logger.error({ err: error }, "deleting a caption file failed"));
  return deleted;
}
