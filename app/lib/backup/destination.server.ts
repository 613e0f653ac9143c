import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { pipeline } from "node:stream/promises";

// Where archives go (docs/decisions/035-scheduled-backups.md): a directory (BACKUP_DIR, by
// default DATA_DIR/backups), or, when the objects are on S3, the bucket under backups/. An
// archive is always written and checked on local disk first (BACKUP_DIR), then uploaded.

export const S3_BACKUP_PREFIX = "backups/";

export type BackupDestination = { kind: "dir"; dir: string } | { kind: "s3"; bucket: string; staging: string };

export function backupDestination(env: { BACKUP_DIR?: string; DATA_DIR: string; S3_BUCKET?: string }): BackupDestination {
  const dir = path.resolve(env.BACKUP_DIR ?? path.join(env.DATA_DIR, "backups"));
  return env.S3_BUCKET ? { kind: "s3", bucket: env.S3_BUCKET, staging: dir } : { kind: "dir", dir };
}

/** What the Backup row and the dashboard say: the directory, or s3://bucket/backups/. */
export function describeDestination(destination: BackupDestination) {
  return destination.kind === "dir" ? destination.dir : `s3://${destination.bucket}/${S3_BACKUP_PREFIX}`;
}

/** The directory an archive is written in before it is called written. */
export function stagingDir(destination: BackupDestination) {
  return destination.kind === "dir" ? destination.dir : destination.staging;
}

const REASONS: Record<string, string> = {
  EACCES: "permission denied",
  EPERM: "permission denied",
  EROFS: "read-only file system",
  ENOTDIR: "a part of the path is a file, not a directory",
  ENOSPC: "no space left on the device",
  EEXIST: "a file of that name is in the way",
};

/** A directory that cannot take an archive fails here, before anything is dumped, with a message an owner can act on. */
export class DestinationNotWritable extends Error {}

export async function ensureWritableDir(dir: string) {
  const probe = path.join(dir, `.write-test-${process.pid}-${crypto.randomBytes(4).toString("hex")}`);
  try {
    await fs.promises.mkdir(dir, { recursive: true });
    // access() answers yes to root on a read-only mount: writing a file is the only true test.
    await fs.promises.writeFile(probe, "");
    await fs.promises.rm(probe, { force: true });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? "";
    throw new DestinationNotWritable(`${dir} is not writable (${REASONS[code] ?? code ?? String(error)})`);
  }
}

/** Uploads a checked archive under backups/ and reads it back: the bucket's copy must hash as the local one does. */
export async function uploadArchive(file: string) {
  const s3 = await import("../s3-store.server.ts");
  const key = `${S3_BACKUP_PREFIX}${path.basename(file)}`;
  const { size } = await fs.promises.stat(file);
  await s3.putKey(key, fs.createReadStream(file), "application/x-tar", size, "no-store");
  const local = await sha256File(file);
  const remote = crypto.createHash("sha256");
  if (size > 0) await pipeline(await s3.streamKey(key, 0, size - 1), remote);
  if (remote.digest("hex") !== local) throw new Error(`The copy of ${path.basename(file)} in the bucket differs from the archive written: upload it again`);
  return key;
}

export async function sha256File(file: string) {
  const hash = crypto.createHash("sha256");
  await pipeline(fs.createReadStream(file), hash);
  return hash.digest("hex");
}

/**
 * Removes an archive a scheduled backup wrote, from where its row says it went: a directory,
 * or s3://bucket/backups/. Gone already is not an error.
 */
export async function removeArchive(destination: string, name: string) {
  if (destination.startsWith("s3://")) {
    const s3 = await import("../s3-store.server.ts");
    await s3.removeKey(`${S3_BACKUP_PREFIX}${name}`);
    return;
  }
  await fs.promises.rm(path.join(destination, name), { force: true });
}

/** A local path to an archive (for the drill): the file in its directory, or a copy downloaded from the bucket into `work`. */
export async function localArchive(destination: string, name: string, work: string) {
  if (!destination.startsWith("s3://")) return path.join(destination, name);
  const s3 = await import("../s3-store.server.ts");
  const key = `${S3_BACKUP_PREFIX}${name}`;
  const size = await s3.keySize(key);
  const file = path.join(work, name);
  if (size === null) return file;
  if (size === 0) await fs.promises.writeFile(file, "");
  else await pipeline(await s3.streamKey(key, 0, size - 1), fs.createWriteStream(file));
  return file;
}
