import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { prisma } from "~/lib/db.server.ts";
import { getEnv } from "~/lib/env.server.ts";
import { logger } from "~/lib/logger.server.ts";
import {
  deleteObject,
  localObjectFile,
  objectIdFromPath,
  presignedObjectUrl,
  saveObject,
  storageBackend,
} from "~/lib/storage.server.ts";
import { forgetObjectAttachments } from "./access.server.ts";

// Server-made previews. When an animation has a full video and no preview, a MediaJob row is
// queued; a worker in each app process claims jobs with a conditional update (so several
// instances never run the same job), cuts the first 10 seconds with ffmpeg, checks the cut's
// duration, stores it and sets Animation.previewVideo. Jobs left running by a dead process are
// requeued. Without ffmpeg a job fails with a clear message and viewers keep seeing the cover.

/** "preview ... 10 seconds" (the issue's promise: no more than 10 s to viewers without the right). */
export const PREVIEW_SECONDS = 10;
/** A stream-copied cut ends on a frame boundary: allow one frame or so beyond 10 s. */
const DURATION_TOLERANCE = 0.1;
/** A running job whose lock is older than this belongs to a process that died. */
const STALE_LOCK_MS = 10 * 60_000;
/** A cut of 10 s takes a second or two; anything near this is stuck. */
const FFMPEG_TIMEOUT_MS = 5 * 60_000;
/** How often a worker looks for animations whose preview was never queued. */
const RESCAN_MS = 60_000;
/** Crash loops end: after this many claims a stale job fails for good. */
const MAX_ATTEMPTS = 3;

export const FFMPEG_MISSING = "ffmpeg not found: install ffmpeg (or set FFMPEG_PATH) to make previews";

type ClaimedJob = { id: string; animationId: string; sourcePath: string; attempts: number };

/** This process's worker id: stable across restarts on one host and port, so a restart can reclaim its own jobs. */
export function defaultInstanceId() {
  return `${os.hostname()}:${getEnv().PORT}`;
}

/**
 * Queues a preview cut for an animation that has a full video and no preview, unless one is
 * already queued or running for that video. The admin animation form calls this after a save.
 */
export async function queuePreviewIfMissing(animationId: string) {
  const job = await prisma.$transaction(async (tx) => {
    const animation = await tx.animation.findUnique({
      where: { id: animationId },
      select: { fullVideo: true, previewVideo: true },
    });
    if (!animation?.fullVideo || animation.previewVideo) return null;
    const pending = await tx.mediaJob.findFirst({
      where: { animationId, kind: "preview", sourcePath: animation.fullVideo, status: { in: ["queued", "running"] } },
    });
    if (pending) return pending;
    return tx.mediaJob.create({ data: { animationId, kind: "preview", sourcePath: animation.fullVideo } });
  });
  if (job?.status === "queued") kickMediaWorkers();
  return job;
}

/**
 * Queues previews for every animation still without one whose full video has no job yet (a
 * failed job is not retried by itself: the admin sees it and saves again).
 */
export async function queueMissingPreviews() {
  const animations = await prisma.animation.findMany({
    where: { fullVideo: { not: null }, previewVideo: null },
    select: { id: true, fullVideo: true, mediaJobs: { where: { kind: "preview" }, select: { sourcePath: true } } },
  });
  let queued = 0;
  for (const animation of animations) {
    if (animation.mediaJobs.some((job) => job.sourcePath === animation.fullVideo)) continue;
    if (await queuePreviewIfMissing(animation.id)) queued++;
  }
  return queued;
}

/** The preview jobs of an animation, newest first, for the admin screen. */
export function getMediaJobs(animationId: string) {
  return prisma.mediaJob.findMany({
    where: { animationId },
    orderBy: { createdAt: "desc" },
    take: 20,
    select: { id: true, kind: true, status: true, error: true, attempts: true, createdAt: true, updatedAt: true },
  });
}

/**
 * Puts back jobs whose worker died: running with a lock older than STALE_LOCK_MS, or (at
 * start-up) locked by this very instance. Jobs that already used their attempts fail instead.
 */
export async function requeueAbandonedJobs({ instanceId, now = new Date() }: { instanceId?: string; now?: Date } = {}) {
  const abandoned = {
    status: "running" as const,
    OR: [{ lockedAt: { lt: new Date(now.getTime() - STALE_LOCK_MS) } }, ...(instanceId ? [{ lockedBy: instanceId }] : [])],
  };
  return prisma.$transaction(async (tx) => {
    const failed = await tx.mediaJob.updateMany({
      where: { ...abandoned, attempts: { gte: MAX_ATTEMPTS } },
      data: { status: "failed", error: `Gave up after ${MAX_ATTEMPTS} attempts`, lockedBy: null, lockedAt: null },
    });
    const requeued = await tx.mediaJob.updateMany({
      where: { ...abandoned, attempts: { lt: MAX_ATTEMPTS } },
      data: { status: "queued", lockedBy: null, lockedAt: null },
    });
    return { requeued: requeued.count, failed: failed.count };
  });
}

/**
 * Claims the oldest queued job. The claim is one conditional UPDATE (status still queued), so
 * of several workers racing for a job exactly one gets it.
 */
export async function claimNextJob(instanceId: string): Promise<ClaimedJob | null> {
  const candidates = await prisma.mediaJob.findMany({
    where: { status: "queued" },
    orderBy: { createdAt: "asc" },
    take: 5,
    select: { id: true },
  });
  for (const { id } of candidates) {
    const claimed = await prisma.mediaJob.updateMany({
      where: { id, status: "queued" },
      data: { status: "running", lockedBy: instanceId, lockedAt: new Date(), attempts: { increment: 1 } },
    });
    if (claimed.count === 1) {
      return prisma.mediaJob.findUniqueOrThrow({
        where: { id },
        select: { id: true, animationId: true, sourcePath: true, attempts: true },
      });
    }
  }
  return null;
}

class JobAbandoned extends Error {}

/** Runs one claimed job to done or failed. An abort (shutdown) puts it back in the queue. */
export async function runPreviewJob(job: ClaimedJob, instanceId: string, signal?: AbortSignal) {
  const mine = { id: job.id, status: "running" as const, lockedBy: instanceId };
  const workDir = await fs.promises.mkdtemp(path.join(os.tmpdir(), "medanim-preview-"));
  let storedId: string | null = null;
  try {
    const animation = await prisma.animation.findUnique({
      where: { id: job.animationId },
      select: { fullVideo: true, previewVideo: true },
    });
    // Nothing to do any more: the video changed or a preview exists.
    if (!animation || animation.fullVideo !== job.sourcePath || animation.previewVideo) {
      await prisma.mediaJob.updateMany({ where: mine, data: { status: "done", lockedBy: null, lockedAt: null } });
      return "skipped" as const;
    }
    const output = path.join(workDir, "preview.mp4");
    await cutPreview(await sourceInput(job.sourcePath), output, signal);
    const stored = await saveObject({ body: fs.createReadStream(output), contentType: "video/mp4", kind: "preview" });
    storedId = stored.id;
    const attached = await prisma.$transaction(async (tx) => {
      const finished = await tx.mediaJob.updateMany({
        where: mine,
        data: { status: "done", error: null, lockedBy: null, lockedAt: null },
      });
      // Requeued meanwhile as abandoned: the other run owns the job now.
      if (finished.count === 0) throw new JobAbandoned();
      const set = await tx.animation.updateMany({
        where: { id: job.animationId, fullVideo: job.sourcePath, previewVideo: null },
        data: { previewVideo: stored.path },
      });
      return set.count === 1;
    });
    if (attached) {
      storedId = null;
      forgetObjectAttachments(stored.path);
    }
    return attached ? ("done" as const) : ("skipped" as const);
  } catch (error) {
    if (error instanceof JobAbandoned) return "abandoned" as const;
    if (signal?.aborted) {
      await prisma.mediaJob.updateMany({ where: mine, data: { status: "queued", lockedBy: null, lockedAt: null } });
      return "abandoned" as const;
    }
    const message = (error as Error).message.slice(0, 1000);
    logger.warn({ jobId: job.id, animationId: job.animationId, error: message }, "preview job failed");
    await prisma.mediaJob.updateMany({ where: mine, data: { status: "failed", error: message, lockedBy: null, lockedAt: null } });
    return "failed" as const;
  } finally {
    // A preview that was stored but not attached is removed again.
    if (storedId) await deleteObject(storedId).catch(() => undefined);
    await fs.promises.rm(workDir, { recursive: true, force: true });
  }
}

/** ffmpeg reads a local object from disk, an S3 object through a short-lived presigned URL. */
async function sourceInput(sourcePath: string) {
  const id = objectIdFromPath(sourcePath);
  if (!id) throw new Error(`The full video ${sourcePath} is not a stored object`);
  if (storageBackend() === "s3") return presignedObjectUrl(id);
  const file = localObjectFile(id);
  if (!fs.existsSync(file)) throw new Error(`The full video ${sourcePath} is missing from storage`);
  return file;
}

/**
 * Cuts the first PREVIEW_SECONDS into an MP4: stream copy first (fast, starts on the first
 * keyframe), re-encoded when copying fails or yields more than PREVIEW_SECONDS. The result's
 * measured duration is checked either way.
 */
export async function cutPreview(input: string, output: string, signal?: AbortSignal) {
  const common = ["-hide_banner", "-nostdin", "-y", "-i", input, "-t", String(PREVIEW_SECONDS), "-map", "0:v:0", "-map", "0:a:0?"];
  const mp4 = ["-movflags", "+faststart", "-f", "mp4", output];
  try {
    await runTool(ffmpegPath(), [...common, "-c", "copy", ...mp4], signal);
    const duration = await measureDuration(output, signal);
    if (duration > 0 && duration <= PREVIEW_SECONDS + DURATION_TOLERANCE) return { duration, reencoded: false };
  } catch (error) {
    if (error instanceof ToolMissing || signal?.aborted) throw error;
  }
  const encode = ["-c:v", "libx264", "-preset", "veryfast", "-crf", "23", "-pix_fmt", "yuv420p", "-c:a", "aac", "-b:a", "128k"];
  await runTool(ffmpegPath(), [...common, ...encode, ...mp4], signal);
  const duration = await measureDuration(output, signal);
  if (!(duration > 0)) throw new Error("ffmpeg produced an empty preview");
  if (duration > PREVIEW_SECONDS + DURATION_TOLERANCE) {
    throw new Error(`The preview is ${duration.toFixed(2)} s long, more than ${PREVIEW_SECONDS} s`);
  }
  return { duration, reencoded: true };
}

function ffmpegPath() {
  return getEnv().FFMPEG_PATH;
}

/** ffprobe beside ffmpeg (same directory, same naming). */
function ffprobePath() {
  const ffmpeg = ffmpegPath();
  const base = path.basename(ffmpeg);
  if (!/^ffmpeg(\.exe)?$/i.test(base)) return "ffprobe";
  const probe = base.replace(/ffmpeg/i, "ffprobe");
  return ffmpeg === base ? probe : path.join(path.dirname(ffmpeg), probe);
}

/** A media file's duration in seconds: ffprobe when present, else ffmpeg's own report. */
export async function measureDuration(file: string, signal?: AbortSignal): Promise<number> {
  try {
    const { stdout } = await runTool(
      ffprobePath(),
      ["-v", "error", "-show_entries", "format=duration", "-of", "default=noprint_wrappers=1:nokey=1", file],
      signal,
    );
    const seconds = Number.parseFloat(stdout.trim());
    if (Number.isFinite(seconds)) return seconds;
  } catch (error) {
    if (!(error instanceof ToolMissing)) throw error;
  }
  // `ffmpeg -i file` prints "Duration: 00:00:10.00" and exits 1 (no output named).
  const { stderr } = await runTool(ffmpegPath(), ["-hide_banner", "-nostdin", "-i", file], signal, { allowFailure: true });
  const match = /Duration:\s*(\d+):(\d+):(\d+(?:\.\d+)?)/.exec(stderr);
  if (!match) throw new Error("Could not measure the preview's duration");
  return Number(match[1]) * 3600 + Number(match[2]) * 60 + Number(match[3]);
}

class ToolMissing extends Error {}

function runTool(command: string, args: string[], signal?: AbortSignal, { allowFailure = false } = {}) {
  return new Promise<{ stdout: string; stderr: string }>((resolve, reject) => {
    const child = spawn(command, args, { stdio: ["ignore", "pipe", "pipe"], signal, timeout: FFMPEG_TIMEOUT_MS, killSignal: "SIGKILL" });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => {
      if (stdout.length < 64 * 1024) stdout += chunk.toString();
    });
    // Keep the tail: ffmpeg's reason for failing comes last.
    child.stderr.on("data", (chunk: Buffer) => {
      stderr = (stderr + chunk.toString()).slice(-16 * 1024);
    });
    child.on("error", (error: NodeJS.ErrnoException) => {
      if (error.code === "ENOENT") {
        const name = path.basename(command);
        reject(new ToolMissing(name.startsWith("ffprobe") ? "ffprobe not found" : FFMPEG_MISSING));
      } else reject(error);
    });
    child.on("close", (code, killedBy) => {
      if (code === 0 || allowFailure) return resolve({ stdout, stderr });
      const reason = stderr.trim().split("\n").slice(-3).join(" ").trim();
      reject(new Error(`${path.basename(command)} failed (${killedBy ?? `exit ${code}`}): ${reason}`));
    });
  });
}

// ---- the worker ----

export type MediaWorker = { instanceId: string; kick(): void; stop(): Promise<void>; idle(): Promise<void> };

const workers = new Set<MediaWorker>();

/** Wakes the workers of this process (a job was just queued). */
export function kickMediaWorkers() {
  for (const worker of workers) worker.kick();
}

/**
 * Starts a worker that polls for queued jobs every `pollMs` (and at once when kicked). At start
 * it requeues jobs this instance left running, then queues previews that are missing.
 */
export function startMediaWorker({ instanceId = defaultInstanceId(), pollMs = 5000, scanOnStart = true } = {}): MediaWorker {
  // scanOnStart: queue missing previews at start and every RESCAN_MS (tests turn it off).
  let stopped = false;
  let again = false;
  let running: Promise<void> | null = null;
  const abort = new AbortController();

  async function drain() {
    await requeueAbandonedJobs();
    await scanIfDue();
    while (!stopped) {
      const job = await claimNextJob(instanceId);
      if (!job) return;
      await runPreviewJob(job, instanceId, abort.signal);
    }
  }

  // Now and then, previews that nobody queued (an edit path that forgot to) are queued too.
  let lastScan = Date.now();
  async function scanIfDue() {
    if (!scanOnStart || Date.now() - lastScan < RESCAN_MS) return;
    lastScan = Date.now();
    await queueMissingPreviews();
  }

  const worker: MediaWorker = {
    instanceId,
    kick() {
      if (stopped) return;
      if (running) {
        again = true;
        return;
      }
      running = drain()
        .catch((error) => logger.error({ err: error }, "media worker pass failed"))
        .finally(() => {
          running = null;
          if (again) {
            again = false;
            worker.kick();
          }
        });
    },
    async idle() {
      await starting;
      while (running) await running;
    },
    async stop() {
      stopped = true;
      clearInterval(timer);
      workers.delete(worker);
      abort.abort();
      await starting;
      await running;
    },
  };

  const timer = setInterval(() => worker.kick(), pollMs);
  timer.unref();
  workers.add(worker);
  const starting = (async () => {
    try {
      const own = await requeueAbandonedJobs({ instanceId });
      if (own.requeued || own.failed) logger.info({ ...own, instanceId }, "resumed media jobs left by a previous run");
      if (scanOnStart) await queueMissingPreviews();
    } catch (error) {
      logger.error({ err: error }, "media worker start-up failed");
    }
    worker.kick();
  })();
  return worker;
}
