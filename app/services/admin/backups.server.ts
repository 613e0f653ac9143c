import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { createBackup } from "~/lib/backup/backup.server.ts";
import { checkArchive } from "~/lib/backup/check.server.ts";
import { backupDestination, describeDestination, localArchive, removeArchive } from "~/lib/backup/destination.server.ts";
import { getDb, prisma, uniqueViolation } from "~/lib/db.server.ts";
import { getEnv } from "~/lib/env.server.ts";
import { getSetting, settingNumber } from "../site/settings.server.ts";

// Backups that run themselves (decision 035): the daily job (one archive per UTC day across
// every instance and retry), the number of archives kept, the weekly restore drill, and what
// the admin dashboard says about them.

/** A daily backup, with two hours' slack for a slow run, before the dashboard warns. */
export const BACKUP_STALE_HOURS = 26;
/** Scheduled archives kept when the admin set no number (setting backup_keep). */
export const DEFAULT_BACKUP_KEEP = 7;
/**
 * A claimed day whose run neither finished nor failed for this long was cut off (its process
 * killed): a retry takes the day over. Longer than the queue's expiry, so a slow run is not
 * taken over while it still works.
 */
export const BACKUP_CLAIM_STALE_MS = 3 * 60 * 60 * 1000;

/** The UTC day a scheduled backup is for: the claim's key. */
export const backupSlot = (at: Date) => at.toISOString().slice(0, 10);

/**
 * Claims the day for this run: the first attempt writes the day's row; a later one takes over
 * only a row that failed or was cut off. Null: the day is done, or running elsewhere.
 */
async function claimDay(slot: string, row: { databaseKind: string; storage: string; destination: string }) {
  try {
    const created = await prisma.backup.create({
      data: { id: crypto.randomUUID(), slot, trigger: "schedule", objectCount: 0, objectBytes: 0n, archiveName: "", ...row },
      select: { id: true },
    });
    return created.id;
  } catch (error) {
    if (!uniqueViolation(error)) throw error;
  }
  // One UPDATE: of two retries racing for a failed day, the second finds it claimed again.
  const taken = await prisma.backup.updateMany({
    where: {
      slot,
      finishedAt: null,
      OR: [{ failedAt: { not: null } }, { startedAt: { lt: new Date(Date.now() - BACKUP_CLAIM_STALE_MS) } }],
    },
    data: { startedAt: new Date(), failedAt: null, error: null },
  });
  if (taken.count === 0) return null;
  return (await prisma.backup.findUnique({ where: { slot }, select: { id: true } }))?.id ?? null;
}

/**
 * The scheduled backup: the same archive as `npm run backup`, written to BACKUP_DIR or the
 * bucket, checked after writing, then the oldest scheduled archives past backup_keep deleted.
 * A failure is recorded on the day's row (the dashboard shows it) and thrown, so the queue retries.
 */
export async function runScheduledBackup({ now = new Date() }: { now?: Date } = {}) {
  const env = getEnv();
  const db = getDb();
  const slot = backupSlot(now);
  const destination = backupDestination(env);
  const id = await claimDay(slot, { databaseKind: db.kind, storage: env.S3_BUCKET ? "s3" : "local", destination: describeDestination(destination) });
  if (!id) return { ran: false as const, slot };
  try {
    const result = await createBackup({ db, dataDir: env.DATA_DIR, databaseUrl: env.DATABASE_URL, s3Bucket: env.S3_BUCKET, destination, claimedId: id });
    const pruned = await pruneScheduledBackups();
    return { ran: true as const, slot, location: result.location, archiveBytes: result.archiveBytes, pruned };
  } catch (error) {
    // createBackup records its own failures; this catches those before it had the row in hand.
    await prisma.backup.updateMany({
      where: { id, finishedAt: null, failedAt: null },
      data: { failedAt: new Date(), error: error instanceof Error ? error.message : String(error) },
    });
    throw error;
  }
}

export async function backupKeep() {
  return Math.floor(settingNumber(await getSetting("backup_keep"), DEFAULT_BACKUP_KEEP));
}

/**
 * Deletes the archives of scheduled backups beyond the newest `keep`, from where each was written.
 * Only the job's own: an archive of `npm run backup`, or any other file beside them, is left alone.
 */
export async function pruneScheduledBackups(keep?: number) {
  const kept = keep ?? (await backupKeep());
  const old = await prisma.backup.findMany({
    where: { trigger: "schedule", finishedAt: { not: null }, prunedAt: null },
    orderBy: { finishedAt: "desc" },
    skip: kept,
    select: { id: true, destination: true, archiveName: true },
  });
  for (const row of old) {
    if (row.destination && row.archiveName) await removeArchive(row.destination, row.archiveName);
    await prisma.backup.update({ where: { id: row.id }, data: { prunedAt: new Date() } });
  }
  return old.length;
}

/** Where a row's archive is: a path, or an s3:// key. */
export function archiveLocation(row: { destination: string | null; archiveName: string }) {
  if (!row.destination) return row.archiveName;
  return row.destination.startsWith("s3://") ? `${row.destination}${row.archiveName}` : path.join(row.destination, row.archiveName);
}

/**
 * The weekly restore drill on the newest archive still kept: read back, hashes checked, restored
 * into a scratch database, rows counted against the manifest. The result goes on the archive's
 * row (the dashboard warns on a failed one); a drill that cannot run is a failed drill too.
 */
export async function runBackupDrill() {
  const row = await prisma.backup.findFirst({
    where: { finishedAt: { not: null }, prunedAt: null, destination: { not: null } },
    orderBy: { finishedAt: "desc" },
    select: { id: true, destination: true, archiveName: true },
  });
  if (!row) return null;
  const work = await fs.promises.mkdtemp(path.join(os.tmpdir(), "medanim-drill-fetch-"));
  let result: { passed: boolean; report: string };
  try {
    const file = await localArchive(row.destination!, row.archiveName, work);
    result = await checkArchive(file, { databaseUrl: getEnv().DATABASE_URL });
  } catch (error) {
    result = { passed: false, report: `The drill could not run: ${error instanceof Error ? error.message : String(error)}` };
  } finally {
    await fs.promises.rm(work, { recursive: true, force: true });
  }
  await prisma.backup.update({ where: { id: row.id }, data: { checkedAt: new Date(), checkPassed: result.passed, checkReport: result.report } });
  return { archive: archiveLocation(row), ...result };
}

/** What the admin dashboard shows: the last good backup, a failed last run, the last drill. */
export async function getBackupStatus(now = new Date()) {
  const [good, last, drill] = await Promise.all([
    prisma.backup.findFirst({ where: { finishedAt: { not: null } }, orderBy: { finishedAt: "desc" } }),
    prisma.backup.findFirst({ orderBy: { startedAt: "desc" } }),
    prisma.backup.findFirst({ where: { checkedAt: { not: null } }, orderBy: { checkedAt: "desc" } }),
  ]);
  const env = getEnv();
  return {
    staleHours: BACKUP_STALE_HOURS,
    schedule: env.BACKUP_SCHEDULE === "off" ? null : env.BACKUP_SCHEDULE,
    lastGood: good?.finishedAt
      ? {
          finishedAt: good.finishedAt,
          archiveBytes: Number(good.archiveBytes ?? 0),
          objectCount: good.objectCount,
          storage: good.storage,
          location: archiveLocation(good),
          stale: now.getTime() - good.finishedAt.getTime() > BACKUP_STALE_HOURS * 60 * 60 * 1000,
        }
      : null,
    failure: last?.failedAt ? { failedAt: last.failedAt, error: last.error ?? "unknown error" } : null,
    drill: drill?.checkedAt
      ? { checkedAt: drill.checkedAt, passed: Boolean(drill.checkPassed), report: drill.checkReport ?? "", location: archiveLocation(drill) }
      : null,
  };
}

export type BackupStatus = Awaited<ReturnType<typeof getBackupStatus>>;
