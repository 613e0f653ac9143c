import { getObjectInfo, objectIdFromPath, readObjectRange } from "~/lib/storage.server.ts";
import { extensionForContentType } from "~/lib/upload.server.ts";
import { zipEntryNames } from "~/lib/zip-directory.server.ts";
import { prisma } from "~/lib/db.server.ts";
import { logger } from "~/lib/logger.server.ts";
import { probeMedia } from "~/lib/ffmpeg.server.ts";
import { durationSeconds, sourceInput } from "./media-jobs.server.ts";

// What an animation's media actually are, recorded when a file is stored or replaced so that
// pages claim a resolution and formats only when a file has them (claims from
// data"): the full video's frame size and duration from ffprobe, and the video formats its
// download holds. A probed duration is the video's (the admin form shows it read-only).

/**
 * The entries counted as formats: a package also carries a cover, a README and the license
 * terms, which are not what "MP4 and WebM" promises.
 */
const VIDEO_TYPES = new Set(["MP4", "WEBM", "MOV", "M4V", "MKV", "AVI", "OGV", "WMV"]);

/** The video types among a package's entry names, uppercase and sorted ("MP4", "WEBM"). */
export function videoTypesOf(names: readonly string[]): string[] {
  const types = new Set<string>();
  for (const name of names) {
    if (name.endsWith("/")) continue;
    const type = /\.([A-Za-z0-9]+)$/.exec(name)?.[1]?.toUpperCase();
    if (type && VIDEO_TYPES.has(type)) types.add(type);
  }
  return [...types].sort();
}

/**
 * The formats a download gives its buyer: the videos inside a ZIP (its directory only, nothing
 * extracted), or the file's own type for anything else (a RAR is delivered as a RAR).
 */
export async function readDownloadFormats(storedPath: string): Promise<string[]> {
  const id = objectIdFromPath(storedPath);
  const info = id ? await getObjectInfo(id) : null;
  if (!id || !info) throw new Error(`The download ${storedPath} is not a stored object`);
  const type = extensionForContentType(info.contentType) ?? "zip";
  if (type !== "zip") return [type.toUpperCase()];
  return videoTypesOf(await zipEntryNames(info.size, (start, length) => readObjectRange(id, start, length)));
}

/**
 * Probes what changed and stores it, unless the file changed again meanwhile. A file that
 * cannot be read leaves the fact unknown (no claim is made from it) rather than failing the save.
 */
export async function recordMediaFacts(animationId: string, changed: { video: boolean; download: boolean }) {
  const animation = await prisma.animation.findUnique({ where: { id: animationId }, select: { fullVideo: true, downloadFile: true } });
  if (!animation) return;
  const { fullVideo, downloadFile } = animation;
  if (changed.video) {
    const probe = fullVideo ? await probeMedia(await sourceInput(fullVideo)).catch((error: Error) => warn(animationId, "video", error)) : null;
    await prisma.animation.updateMany({
      where: { id: animationId, fullVideo },
      data: {
        videoWidth: probe?.width ?? null,
        videoHeight: probe?.height ?? null,
        ...(probe ? { duration: durationSeconds(probe.duration), durationProbed: true } : { durationProbed: false }),
      },
    });
  }
  if (changed.download) {
    const formats = downloadFile ? await readDownloadFormats(downloadFile).catch((error: Error) => warn(animationId, "download", error)) : null;
    await prisma.animation.updateMany({ where: { id: animationId, downloadFile }, data: { downloadFormats: formats ?? [] } });
  }
}

function warn(animationId: string, file: string, error: Error) {
  logger.warn({ animationId, file, error: error.message }, "could not read the media facts");
  return null;
}
