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
import { jobQueue, sendJob } from "~/lib/jobs.server.ts";
import { forgetObjectAttachments } from "./access.server.ts";

// Server-made previews. When an animation has a full video and no preview, a MediaJob row (the
// state the admin sees) is queued together with a job on the job queue (lib/jobs.server.ts,
// queue "media-preview"), in one transaction. The queue hands the job to one worker across all
// instances; the worker claims the row with a conditional update, cuts the first 10 seconds
// with ffmpeg, checks the cut's duration, stores it and sets Animation.previewVideo. A job
// whose process died is expired and retried by the queue, and its stale row claimed again.
// Without ffmpeg a job fails with a clear message and viewers keep seeing the cover.

/** "preview ... 10 seconds" (the issue's promise: no more than 10 s to viewers without the right). */
export const PREVIEW_SECONDS = 10;
/** A stream-copied cut ends on a frame boundary: allow one frame or so beyond 10 s. */
const DURATION_TOLERANCE = 0.1;
/**
 * A running row whose lock is older than this belongs to a process that died. The queue expires
 * a job after MEDIA_JOB_EXPIRY_SECONDS (lib/jobs.server.ts), longer than this, so its retry
 * always finds the lock stale; a live run holds a fresh lock and is never claimed twice.
 */
const STALE_LOCK_MS = 9 * 60_000;
/** A cut of 10 s takes a second or two; anything near this is stuck. */
const FFMPEG_TIMEOUT_MS = 5 * 60_000;
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
 * already queued or running for that video. The row and the queue's job are written in one
 * transaction: a crash between them can lose neither. The admin animation form calls this after a save.
 */
export async function queuePreviewIfMissing(animationId: string) {
  // Started outside the transaction: starting it inside would wait for the transaction's own lock.
  await jobQueue();
  return prisma.$transaction(async (tx) => {
    const animation = await tx.animation.findUnique({
      where: { id: animationId },
      select: { fullVideo: true, previewVideo: true },
    });
    if (!animation?.fullVideo || animation.previewVideo) return null;
    const pending = await tx.mediaJob.findFirst({
      where: { animationId, kind: "preview", sourcePath: animation.fullVideo, status: { in: ["queued", "running"] } },
    });
    if (pending) return pending;
    const job = await tx.mediaJob.create({ data: { animationId, kind: "preview", sourcePath: animation.fullVideo } });
    await sendJob("mediaPreview", { mediaJobId: job.id }, { singletonKey: job.id, tx });
    return job;
  });
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
 * The queue's handler: claims and runs one preview job. A run stopped by a shutdown puts the
 * job back and throws, so the queue retries it (on this or another instance).
 */
export async function runMediaJob(id: string, { instanceId = defaultInstanceId(), signal }: { instanceId?: string; signal?: AbortSignal } = {}) {
  const job = await claimJob(id, instanceId);
  if (!job) return "nothing" as const;
  const outcome = await runPreviewJob(job, instanceId, signal);
  if (outcome === "abandoned" && signal?.aborted) throw new Error("preview job stopped by a shutdown; it will be retried");
  return outcome;
}

/**
 * Every few minutes and at start: queues previews nobody queued (an edit path that forgot to),
 * and hands the queue again the rows it may have lost (queued, or running with a stale lock:
 * e.g. left by the runner before the job queue). A duplicate is harmless: a row is claimed once.
 */
export async function scanMediaJobs(now = new Date()) {
  const queued = await queueMissingPreviews();
  const waiting = await prisma.mediaJob.findMany({
    where: { OR: [{ status: "queued", createdAt: { lt: new Date(now.getTime() - 60_000) } }, { status: "running", lockedAt: { lt: new Date(now.getTime() - STALE_LOCK_MS) } }] },
    select: { id: true },
    take: 100,
  });
  for (const { id } of waiting) await sendJob("mediaPreview", { mediaJobId: id }, { singletonKey: id });
  return { queued, resent: waiting.length };
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
export async function sourceInput(sourcePath: string) {
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

/** The first video stream's frame size, as ffprobe reports it. */
export async function probeVideoSize(file: string, signal?: AbortSignal): Promise<{ width: number; height: number }> {
  const { stdout } = await runTool(
    ffprobePath(),
    ["-v", "error", "-select_streams", "v:0", "-show_entries", "stream=width,height", "-of", "csv=s=x:p=0", file],
    signal,
  );
  const match = /^(\d+)x(\d+)/.exec(stdout.trim());
  if (!match) throw new Error("ffprobe found no video stream");
  return { width: Number(match[1]), height: Number(match[2]) };
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
