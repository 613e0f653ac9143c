import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { prisma } from "~/lib/db.server.ts";
import { getEnv } from "~/lib/env.server.ts";
import { probeMedia, probeVideoSize } from "~/lib/ffmpeg.server.ts";
import { logger } from "~/lib/logger.server.ts";
import { metrics } from "~/lib/metrics.server.ts";
import { chooseRungs } from "~/lib/media-ladder.ts";
import { deleteSet, mediaWorkDir, publishSet } from "~/lib/media-store.server.ts";
import { deleteObject, localObjectFile, objectIdFromPath, presignedObjectUrl, saveObject, storageBackend } from "~/lib/storage.server.ts";
import { jobQueue, sendJob } from "~/lib/jobs.server.ts";
import type { Prisma } from "~/generated/prisma/client.ts";
import { isStepDone, measureRenditions, runStep, stepLabels, stepsFor, type StepName, type StepProgress } from "./transcode.server.ts";
import { setFileCacheControl } from "./media-urls.server.ts";
import { publishIfReady } from "../catalogue/publishing.server.ts";

// The media pipeline's jobs (decision 017). When an animation's master video is stored, a
// MediaJob row (the state the admin sees) and a job on the queue (lib/jobs.server.ts, queue
// "media-transcode") are written in one transaction. The queue hands the job to one worker
// across all instances; the worker claims the row with a conditional update, probes the master,
// runs the steps (transcode.server.ts) in a work folder of its own, publishes
// the set and, in one transaction, records its renditions and makes it the animation's current
// set. The set's id is the job's id: a job run twice, or retried after a crash, can only ever
// make that one set. Until then the animation keeps playing its previous set.

/** A running row whose lock was not refreshed for this long belongs to a process that died. */
const STALE_LOCK_MS = 3 * 60_000;
/** A running job refreshes its lock (and its progress) at least this often. */
const HEARTBEAT_MS = 30_000;
/** Progress is written at most this often while a step runs. */
const PROGRESS_WRITE_MS = 2_000;
/** Crash loops end: after this many claims a stale job fails for good. */
const MAX_ATTEMPTS = 3;

export { FFMPEG_MISSING } from "~/lib/ffmpeg.server.ts";

/**
 * The queue's order: a master an admin just saved (or retried) is encoded before the backlog the
 * scan finds (a fresh demo database queues every demo video at once: 35 of them, minutes of
 * work on two cores), so the admin does not wait behind animations nobody is looking at.
 */
export const TRANSCODE_PRIORITY = { save: 10, backfill: 0 } as const;

type ClaimedJob = { id: string; animationId: string; sourcePath: string; attempts: number };

/** This process's worker id: stable across restarts on one host and port, so a restart can reclaim its own jobs. */
export function defaultInstanceId() {
  return `${os.hostname()}:${getEnv().PORT}`;
}

/**
 * Queues a transcode of the animation's master unless its current set was made from it or a
 * job for it is queued or running. The row and the queue's job are written in one transaction:
 * a crash between them can lose neither. The admin animation form calls this after a save.
 */
export async function queueTranscode(animationId: string, { priority = TRANSCODE_PRIORITY.save }: { priority?: number } = {}) {
  // Started outside the transaction: starting it inside would wait for the transaction's own lock.
  await jobQueue();
  return prisma.$transaction(async (tx) => {
    const animation = await tx.animation.findUnique({
      where: { id: animationId },
      select: { fullVideo: true, mediaSet: { select: { sourcePath: true } } },
    });
    if (!animation?.fullVideo || animation.mediaSet?.sourcePath === animation.fullVideo) return null;
    const pending = await tx.mediaJob.findFirst({
      where: { animationId, kind: "transcode", sourcePath: animation.fullVideo, status: { in: ["queued", "running"] } },
    });
    if (pending) return pending;
    const job = await tx.mediaJob.create({ data: { animationId, kind: "transcode", sourcePath: animation.fullVideo } });
    await sendJob("mediaTranscode", { mediaJobId: job.id }, { singletonKey: job.id, tx, priority });
    return job;
  });
}

/**
 * The admin's Retry: the newest failed job of the current master is queued again under its own
 * id, so it resumes after its last finished step where its work folder is still there.
 */
export async function retryTranscode(animationId: string) {
  await jobQueue();
  return prisma.$transaction(async (tx) => {
    const animation = await tx.animation.findUnique({ where: { id: animationId }, select: { fullVideo: true } });
    if (!animation?.fullVideo) return null;
    const failed = await tx.mediaJob.findFirst({
      where: { animationId, kind: "transcode", sourcePath: animation.fullVideo },
      orderBy: { createdAt: "desc" },
    });
    if (failed?.status !== "failed") return null;
    const job = await tx.mediaJob.update({ where: { id: failed.id }, data: { status: "queued", error: null, attempts: 0, lockedBy: null, lockedAt: null } });
    await sendJob("mediaTranscode", { mediaJobId: job.id }, { singletonKey: job.id, tx, priority: TRANSCODE_PRIORITY.save });
    return job;
  });
}

/**
 * Queues transcodes for animations whose master has no set and no job yet (a failed job is not
 * retried by itself: the admin sees it and retries). At most 100 a scan: the rest come next time.
 */
export async function queueMissingTranscodes() {
  const animations = await prisma.$queryRaw<{ id: string }[]>`
    SELECT a."id" FROM "Animation" a
    LEFT JOIN "MediaSet" s ON s."id" = a."mediaSetId"
    WHERE a."fullVideo" IS NOT NULL
      AND (s."id" IS NULL OR s."sourcePath" <> a."fullVideo")
      AND NOT EXISTS (SELECT 1 FROM "MediaJob" j WHERE j."animationId" = a."id" AND j."kind" = 'transcode' AND j."sourcePath" = a."fullVideo")
    ORDER BY a."createdAt" DESC
    LIMIT 100`;
  let queued = 0;
  for (const { id } of animations) if (await queueTranscode(id, { priority: TRANSCODE_PRIORITY.backfill })) queued++;
  return queued;
}

export type MediaJobView = {
  id: string;
  kind: string;
  status: "queued" | "running" | "done" | "failed";
  error: string | null;
  attempts: number;
  createdAt: Date;
  updatedAt: Date;
  progress: StepProgress[];
};

/** An animation's jobs, newest first, with each step's progress, for the admin screen. */
export async function getMediaJobs(animationId: string): Promise<MediaJobView[]> {
  const jobs = await prisma.mediaJob.findMany({
    where: { animationId },
    orderBy: { createdAt: "desc" },
    take: 20,
    select: { id: true, kind: true, status: true, error: true, attempts: true, createdAt: true, updatedAt: true, progress: true },
  });
  return jobs.map((job) => ({ ...job, progress: Array.isArray(job.progress) ? (job.progress as StepProgress[]) : [] }));
}

/**
 * Claims a queued job, or a running one whose lock went stale (its process died), for this
 * instance: one conditional UPDATE, so of several racing claims exactly one wins. A job that
 * already used its attempts fails for good instead. Null when there is nothing to run.
 */
export async function claimJob(id: string, instanceId: string, now = new Date()): Promise<ClaimedJob | null> {
  const claimable = { id, OR: [{ status: "queued" as const }, { status: "running" as const, lockedAt: { lt: new Date(now.getTime() - STALE_LOCK_MS) } }] };
  const gaveUp = await prisma.mediaJob.updateMany({
    where: { ...claimable, attempts: { gte: MAX_ATTEMPTS } },
    data: { status: "failed", error: `Gave up after ${MAX_ATTEMPTS} attempts`, lockedBy: null, lockedAt: null },
  });
  if (gaveUp.count) return null;
  const claimed = await prisma.mediaJob.updateMany({
    where: claimable,
    data: { status: "running", lockedBy: instanceId, lockedAt: now, attempts: { increment: 1 } },
  });
  if (claimed.count !== 1) return null;
  return prisma.mediaJob.findUniqueOrThrow({ where: { id }, select: { id: true, animationId: true, sourcePath: true, attempts: true } });
}

/**
 * The queue's handler: claims and runs one transcode. A run stopped by a shutdown puts the job
 * back and throws, so the queue retries it (on this or another instance).
 */
export async function runMediaJob(id: string, { instanceId = defaultInstanceId(), signal }: { instanceId?: string; signal?: AbortSignal } = {}) {
  const job = await claimJob(id, instanceId);
  if (!job) return "nothing" as const;
  const outcome = await runTranscodeJob(job, instanceId, signal);
  metrics().mediaTranscodes.inc({ outcome });
  if (outcome === "abandoned" && signal?.aborted) throw new Error("transcode stopped by a shutdown; it will be retried");
  return outcome;
}

/**
 * Every few minutes and at start: queues transcodes nobody queued (unless MEDIA_BACKFILL is
 * off), and hands the queue again
 * the rows it may have lost (queued for a while, or running with a stale lock). A duplicate is
 * harmless: a row is claimed once.
 */
export async function scanMediaJobs(now = new Date()) {
  const queued = getEnv().MEDIA_BACKFILL ? await queueMissingTranscodes() : 0;
  const waiting = await prisma.mediaJob.findMany({
    where: {
      OR: [
        { status: "queued", createdAt: { lt: new Date(now.getTime() - 60_000) } },
        { status: "running", lockedAt: { lt: new Date(now.getTime() - STALE_LOCK_MS) } },
      ],
    },
    select: { id: true },
    take: 100,
  });
  for (const { id } of waiting) await sendJob("mediaTranscode", { mediaJobId: id }, { singletonKey: id });
  return { queued, resent: waiting.length };
}

class JobAbandoned extends Error {}

/** Runs one claimed job to done or failed. An abort (shutdown) puts it back in the queue. */
export async function runTranscodeJob(job: ClaimedJob, instanceId: string, signal?: AbortSignal) {
  const mine = { id: job.id, status: "running" as const, lockedBy: instanceId };
  const workDir = mediaWorkDir(job.id);
  let progress: StepProgress[] = [];
  let published = false;
  let lastWrite = 0;
  const writeProgress = async (force = false) => {
    const now = Date.now();
    if (!force && now - lastWrite < PROGRESS_WRITE_MS) return;
    lastWrite = now;
    const written = await prisma.mediaJob.updateMany({ where: mine, data: { progress: progress as Prisma.InputJsonValue, lockedAt: new Date(now) } });
    if (written.count === 0) throw new JobAbandoned();
  };
  const heartbeat = setInterval(() => void writeProgress(true).catch(() => undefined), HEARTBEAT_MS);
  heartbeat.unref();
  try {
    const animation = await prisma.animation.findUnique({ where: { id: job.animationId }, select: { fullVideo: true } });
    // Nothing to do any more: the master changed or the animation is gone.
    if (!animation || animation.fullVideo !== job.sourcePath) {
      await prisma.mediaJob.updateMany({ where: mine, data: { status: "done", lockedBy: null, lockedAt: null } });
      return "skipped" as const;
    }
    await fs.promises.mkdir(workDir, { recursive: true });
    const probe = await probeMedia(await sourceInput(job.sourcePath), signal);
    const rungs = chooseRungs(probe, getEnv().MEDIA_LADDER);
    const labels = stepLabels(rungs);
    const steps = stepsFor(probe);
    progress = steps.map((step) => {
      const done = isStepDone(workDir, step);
      return { step, label: labels[step], status: done ? "done" : "waiting", percent: done ? 100 : 0 };
    });
    await writeProgress(true);
    for (const step of steps) {
      const entry = progress.find((p) => p.step === step)!;
      entry.status = entry.status === "done" ? "done" : "running";
      await writeProgress(true);
      try {
        await runStep(step, {
          // Per step: in S3 mode a presigned URL lives minutes, a transcode may take longer.
          input: await sourceInput(job.sourcePath),
          dir: workDir,
          probe,
          rungs,
          signal,
          onProgress: (fraction) => {
            entry.percent = Math.floor(fraction * 100);
            void writeProgress().catch(() => undefined);
          },
        });
      } catch (error) {
        if (!signal?.aborted && !(error instanceof JobAbandoned)) {
          entry.status = "failed";
          entry.error = (error as Error).message.slice(0, 500);
          metrics().mediaSteps.inc({ step, outcome: "failed" });
        }
        throw error;
      }
      metrics().mediaSteps.inc({ step, outcome: "done" });
      entry.status = "done";
      entry.percent = 100;
      if (step === "preview") await attachEarlyPreview(job, workDir);
    }
    const renditions = await measureRenditions(workDir, rungs, signal);
    await publishSet(job.id, workDir, setFileCacheControl);
    published = true;
    const top = renditions.filter((r) => r.kind === "hls").at(-1)!;
    const attached = await prisma.$transaction(async (tx) => {
      const finished = await tx.mediaJob.updateMany({
        where: mine,
        data: { status: "done", error: null, lockedBy: null, lockedAt: null, progress: progress as Prisma.InputJsonValue },
      });
      // Claimed again meanwhile as stale: the other run owns the job (and makes this same set).
      if (finished.count === 0) throw new JobAbandoned();
      const current = await tx.animation.findUnique({ where: { id: job.animationId }, select: { fullVideo: true } });
      if (current?.fullVideo !== job.sourcePath) return false;
      await tx.mediaSet.upsert({
        where: { id: job.id },
        create: {
          id: job.id,
          animationId: job.animationId,
          sourcePath: job.sourcePath,
          sourceWidth: probe.width,
          sourceHeight: probe.height,
          duration: probe.duration,
          frameRate: probe.frameRate,
          hasAudio: probe.hasAudio,
        },
        update: {},
      });
      await tx.mediaRendition.createMany({ data: renditions.map((r) => ({ ...r, setId: job.id, bytes: BigInt(r.bytes) })), skipDuplicates: true });
      // The claims ("4K", "1080p") name what is streamed: the ladder's top rung.
      await tx.animation.update({
        where: { id: job.animationId },
        data: { mediaSetId: job.id, videoWidth: top.width, videoHeight: top.height, duration: durationSeconds(probe.duration), durationProbed: true },
      });
      // A finished ladder may be the last thing a "Publish when ready" draft waited for (decision 032).
      await publishIfReady(tx, job.animationId);
      return true;
    });
    if (!attached) {
      await deleteSet(job.id).catch(() => undefined);
      return "skipped" as const;
    }
    await removeOlderSets(job.animationId, job.id);
    await fs.promises.rm(workDir, { recursive: true, force: true });
    return "done" as const;
  } catch (error) {
    if (error instanceof JobAbandoned) return "abandoned" as const;
    if (published) await deleteSet(job.id).catch(() => undefined);
    if (signal?.aborted) {
      await prisma.mediaJob.updateMany({ where: mine, data: { status: "queued", lockedBy: null, lockedAt: null } });
      return "abandoned" as const;
    }
    const message = (error as Error).message.slice(0, 1000);
    logger.warn({ jobId: job.id, animationId: job.animationId, error: message }, "transcode failed");
    await prisma.mediaJob.updateMany({
      where: mine,
      data: { status: "failed", error: message, lockedBy: null, lockedAt: null, progress: progress as Prisma.InputJsonValue },
    });
    return "failed" as const;
  } finally {
    clearInterval(heartbeat);
  }
}

/**
 * A set is published whole, after its slowest steps (the downloads): minutes for a long 4K
 * master. Visitors need not wait that long for a preview: an animation without one gets the
 * set's preview as its stored preview as soon as it is cut (a public object, as an uploaded
 * preview is), unless the master changed meanwhile.
 */
async function attachEarlyPreview(job: ClaimedJob, workDir: string) {
  const animation = await prisma.animation.findUnique({ where: { id: job.animationId }, select: { fullVideo: true, previewVideo: true } });
  if (!animation || animation.previewVideo || animation.fullVideo !== job.sourcePath) return;
  const stored = await saveObject({ body: fs.createReadStream(path.join(workDir, "preview.mp4")), contentType: "video/mp4", kind: "preview" });
  const set = await prisma.animation.updateMany({
    where: { id: job.animationId, fullVideo: job.sourcePath, previewVideo: null },
    data: { previewVideo: stored.path },
  });
  if (set.count === 0) await deleteObject(stored.id).catch(() => undefined);
}

/** The sets an animation no longer plays: their rows and files go once the new one is current. */
async function removeOlderSets(animationId: string, keep: string) {
  const older = await prisma.mediaSet.findMany({ where: { animationId, id: { not: keep } }, select: { id: true } });
  for (const { id } of older) {
    await deleteSet(id).catch((error: Error) => logger.warn({ setId: id, error: error.message }, "could not delete an old media set"));
    await prisma.mediaSet.deleteMany({ where: { id, current: null } });
  }
}

/** A probed duration in whole seconds within the form's rule (1 to 3600, "Duration cannot exceed 1 hour"). */
export function durationSeconds(probed: number) {
  return Math.min(3600, Math.max(1, Math.round(probed)));
}

/** ffmpeg reads a local object from disk, an S3 object through a short-lived presigned URL. */
export async function sourceInput(sourcePath: string) {
  const id = objectIdFromPath(sourcePath);
  if (!id) throw new Error(`The full video ${sourcePath} is not a stored object`);
  if (storageBackend() === "s3") return presignedObjectUrl(id);
  const file = localObjectFile(id);
  if (!fs.existsSync(file)) throw new Error(`The full video ${sourcePath} is missing from storage`);
  return file;
}

export { probeVideoSize };
export type { StepName };

/** The renditions of the set an animation plays, for the admin screen (largest first within a kind). */
export async function getCurrentRenditions(animationId: string) {
  const animation = await prisma.animation.findUnique({ where: { id: animationId }, select: { mediaSetId: true } });
  if (!animation?.mediaSetId) return [];
  const rows = await prisma.mediaRendition.findMany({
    where: { setId: animation.mediaSetId },
    orderBy: [{ kind: "asc" }, { height: "desc" }, { file: "asc" }],
    select: { kind: true, file: true, width: true, height: true, bitrate: true, codec: true, bytes: true, duration: true },
  });
  return rows.map((row) => ({ ...row, bytes: Number(row.bytes) }));
}
