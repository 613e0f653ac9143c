import fs from "node:fs";
import path from "node:path";
import type { Readable } from "node:stream";
import { getEnv } from "./env.server.ts";
import { storageBackend } from "./storage.server.ts";

// Where the media pipeline's sets live: a folder of files per set, written once when the set is
// complete and never changed (a new master makes a new set), so every file can be cached for a
// year. Local disk: DATA_DIR/objects/media/{setId}/…; S3: keys media/{setId}/… in the bucket.
// File names inside a set come from the pipeline, never from a user; `setFileName` still checks
// every name a request brings.

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
/** hls/720p/seg-00001.m4s, preview/init.mp4, download.webm: folders and names of [a-z0-9_.-], no dot first. */
const SET_FILE = /^(?:[a-z0-9_-]+\/){0,2}[a-z0-9_-][a-z0-9_.-]*$/i;

export function isSetId(id: string) {
  return UUID.test(id);
}

/** A file name inside a set, or null for anything else (traversal, hidden files, odd characters). */
export function setFileName(name: string): string | null {
  return SET_FILE.test(name) && !name.split("/").some((part) => part === ".." || part.startsWith(".")) ? name : null;
}

const s3Store = () => import("./s3-store.server.ts");

function mediaRoot() {
  return path.resolve(getEnv().DATA_DIR, "objects", "media");
}

export function localSetDir(setId: string) {
  if (!UUID.test(setId)) throw new Error("invalid set id");
  return path.join(mediaRoot(), setId);
}

/** The local file of a set's file; the name must have passed setFileName. */
export function localSetFile(setId: string, file: string) {
  if (!setFileName(file)) throw new Error("invalid set file name");
  return path.join(localSetDir(setId), file);
}

const s3Key = (setId: string, file: string) => `media/${setId}/${file}`;

export const MEDIA_TYPES: Record<string, string> = {
  m3u8: "application/vnd.apple.mpegurl",
  m4s: "video/iso.segment",
  mp4: "video/mp4",
  webm: "video/webm",
  vtt: "text/vtt; charset=utf-8",
  jpg: "image/jpeg",
};

export function mediaType(file: string) {
  return MEDIA_TYPES[path.extname(file).slice(1).toLowerCase()] ?? "application/octet-stream";
}

async function* walk(dir: string, prefix = ""): AsyncGenerator<string> {
  for (const entry of await fs.promises.readdir(dir, { withFileTypes: true })) {
    if (entry.name.startsWith(".")) continue;
    const name = prefix ? `${prefix}/${entry.name}` : entry.name;
    if (entry.isDirectory()) yield* walk(path.join(dir, entry.name), name);
    else yield name;
  }
}

/**
 * Publishes a finished work folder as set `setId` (its dot-folders, the job's markers, stay
 * behind). Local: copied into place under a temporary name, then renamed, so a set is there
 * whole or not at all. S3: every file put with its type and a year's Cache-Control; the set
 * becomes visible only when its rows are committed, after this.
 */
export async function publishSet(setId: string, workDir: string, cacheControlOf: (file: string) => string) {
  if (storageBackend() === "s3") {
    const store = await s3Store();
    for await (const file of walk(workDir)) {
      const full = path.join(workDir, file);
      const { size } = await fs.promises.stat(full);
      await store.putKey(s3Key(setId, file), fs.createReadStream(full), mediaType(file), size, cacheControlOf(file));
    }
    return;
  }
  const target = localSetDir(setId);
  if (fs.existsSync(target)) return;
  const staging = `${target}.partial-${process.pid}`;
  await fs.promises.rm(staging, { recursive: true, force: true });
  await fs.promises.mkdir(staging, { recursive: true });
  for await (const file of walk(workDir)) {
    await fs.promises.mkdir(path.dirname(path.join(staging, file)), { recursive: true });
    await fs.promises.copyFile(path.join(workDir, file), path.join(staging, file));
  }
  await fs.promises.rename(staging, target);
}

export async function deleteSet(setId: string) {
  if (storageBackend() === "s3") return (await s3Store()).removePrefix(`media/${setId}/`);
  await fs.promises.rm(localSetDir(setId), { recursive: true, force: true });
}

/** A small text file of a set (a playlist, a storyboard map), or null when missing. */
export async function readSetText(setId: string, file: string): Promise<string | null> {
  if (storageBackend() === "s3") return (await (await s3Store()).readKey(s3Key(setId, file)))?.toString("utf8") ?? null;
  return fs.promises.readFile(localSetFile(setId, file), "utf8").catch(() => null);
}

/** S3 mode: a presigned GET of a set's file, valid `seconds`. */
export async function presignedSetFileUrl(
  setId: string,
  file: string,
  options: { method?: "GET" | "HEAD"; contentDisposition?: string; cacheControl?: string },
  seconds: number,
) {
  return (await s3Store()).presignGetKey(s3Key(setId, file), { ...options, contentType: mediaType(file) }, seconds);
}

/** Large reads for a download: with the 64 KiB default a package streamed at 79% of a bare file stream, with these above it (bench/package.ts). */
const READ_CHUNK = 512 * 1024;

/** Bytes `start`..`end` (inclusive) of a set's file, streamed from either backend. */
export async function setFileStream(setId: string, file: string, start: number, end: number): Promise<Readable> {
  if (storageBackend() === "s3") return (await s3Store()).streamKey(s3Key(setId, file), start, end);
  return fs.createReadStream(localSetFile(setId, file), { start, end, highWaterMark: READ_CHUNK });
}

/**
 * S3 mode: a licence package is written to the bucket once, under a key naming its content
 * (packages/{animationId}/{hash}.zip), then served by presigned URL; a package whose content
 * changed gets a new key. `body` is only called when the key is missing.
 */
export async function bucketPackageUrl(
  key: string,
  size: number,
  body: () => Readable,
  options: { method?: "GET" | "HEAD"; contentDisposition: string },
  seconds: number,
) {
  const store = await s3Store();
  if (!(await store.hasKey(key))) await store.putKey(key, body(), "application/zip", size, "private, no-store");
  return store.presignGetKey(key, { ...options, contentType: "application/zip" }, seconds);
}

/** Where the pipeline works on one job: on this instance's disk, kept across a restart so a rerun resumes. */
export function mediaWorkDir(jobId: string) {
  if (!UUID.test(jobId)) throw new Error("invalid job id");
  return path.resolve(getEnv().DATA_DIR, "media-work", jobId);
}
