import { execFileSync } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { prisma } from "~/lib/db.server.ts";
import { getEnv } from "~/lib/env.server.ts";
import { localObjectFile, objectIdFromPath, saveObject } from "~/lib/storage.server.ts";
import { jobQueue, QUEUES, stopJobQueue } from "~/lib/jobs.server.ts";
import { startJobWorkers } from "~/services/job-workers.server.ts";
import {
  claimJob,
  cutPreview,
  FFMPEG_MISSING,
  getMediaJobs,
  measureDuration,
  queuePreviewIfMissing,
  runMediaJob,
  runPreviewJob,
  scanMediaJobs,
} from "~/services/media-jobs.server.ts";
import { startMediaApp } from "./media-helpers.ts";

// The 10-second previews cut by the server with real ffmpeg, as jobs on the job queue (pg-boss)
// with their state in MediaJob rows.

const workDir = fs.mkdtempSync(path.join(os.tmpdir(), "medanim-media-jobs-"));
let sourceVideo: string;
let app: Awaited<ReturnType<typeof startMediaApp>>;

/** A 14-second test pattern with a tone, keyframe every 2 s. */
function makeVideo(file: string, args: string[]) {
  execFileSync("ffmpeg", ["-hide_banner", "-loglevel", "error", "-y", ...args, file]);
  return file;
}

beforeAll(async () => {
  sourceVideo = makeVideo(path.join(workDir, "source.mp4"), [
    "-f", "lavfi", "-i", "testsrc=duration=14:size=160x120:rate=25",
    "-f", "lavfi", "-i", "sine=frequency=440:duration=14",
    "-c:v", "libx264", "-preset", "ultrafast", "-g", "50", "-c:a", "aac", "-shortest",
  ]);
  app = await startMediaApp();
});

afterAll(async () => {
  await stopJobQueue();
  await app.close();
  fs.rmSync(workDir, { recursive: true, force: true });
});

async function animationWithVideo(file = sourceVideo) {
  const stored = await saveObject({ body: fs.createReadStream(file), contentType: "video/mp4", kind: "video" });
  return prisma.animation.create({
    data: { title: "Preview me", slug: `preview_me_${crypto.randomBytes(4).toString("hex")}`, description: "x", fullVideo: stored.path },
  });
}

/** Runs the newest queued job of the file, as the queue's worker would. */
async function runOne(instanceId = "test-worker") {
  const queued = await prisma.mediaJob.findFirstOrThrow({ where: { status: "queued" }, orderBy: { createdAt: "desc" } });
  const job = await claimJob(queued.id, instanceId);
  expect(job).not.toBeNull();
  return runPreviewJob(job!, instanceId);
}

describe("queueing", () => {
  it("queues one job for an animation with a full video and no preview", async () => {
    const animation = await animationWithVideo();
    const job = await queuePreviewIfMissing(animation.id);
    expect(job).toMatchObject({ status: "queued", kind: "preview", sourcePath: animation.fullVideo, attempts: 0 });
    const again = await queuePreviewIfMissing(animation.id);
    expect(again?.id).toBe(job!.id);
    expect(await getMediaJobs(animation.id)).toHaveLength(1);
    await prisma.mediaJob.deleteMany({ where: { animationId: animation.id } });
  });

  it("queues nothing when there is no full video or already a preview", async () => {
    const bare = await prisma.animation.create({ data: { title: "Bare", slug: `bare_${crypto.randomBytes(4).toString("hex")}`, description: "x" } });
    expect(await queuePreviewIfMissing(bare.id)).toBeNull();
    const withPreview = await animationWithVideo();
    await prisma.animation.update({ where: { id: withPreview.id }, data: { previewVideo: "/objects/uploads/00000000-0000-4000-8000-000000000000" } });
    expect(await queuePreviewIfMissing(withPreview.id)).toBeNull();
    expect(await queuePreviewIfMissing(crypto.randomUUID())).toBeNull();
  });
});

describe("cutting a preview with ffmpeg", () => {
  it("cuts the first 10 seconds, stores them and sets previewVideo; the cut measures at most 10 s", async () => {
    expect(await measureDuration(sourceVideo)).toBeGreaterThan(13.9);
    const animation = await animationWithVideo();
    const job = await queuePreviewIfMissing(animation.id);
    expect(await runOne()).toBe("done");

    const updated = await prisma.animation.findUniqueOrThrow({ where: { id: animation.id } });
    expect(updated.previewVideo).toMatch(/^\/objects\/uploads\/[0-9a-f-]{36}$/);
    expect(updated.previewVideo).not.toBe(updated.fullVideo);
    const previewId = objectIdFromPath(updated.previewVideo)!;
    const duration = await measureDuration(localObjectFile(previewId));
    expect(duration).toBeGreaterThan(9.5);
    expect(duration).toBeLessThanOrEqual(10.1);
    const row = await prisma.storedObject.findUniqueOrThrow({ where: { id: previewId } });
    expect(row).toMatchObject({ kind: "preview", contentType: "video/mp4" });
    expect(Number(row.size)).toBeLessThan(fs.statSync(sourceVideo).size);

    const [state] = await getMediaJobs(animation.id);
    expect(state).toMatchObject({ id: job!.id, status: "done", error: null, attempts: 1 });

    // The preview is now public; the full video still is not.
    const preview = await fetch(`${app.url}${updated.previewVideo}`);
    expect(preview.status).toBe(200);
    expect(preview.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    expect((await fetch(`${app.url}${updated.fullVideo}`)).status).toBe(401);
  });

  it("re-encodes when stream copy cannot make an MP4 (raw video in a .mov)", async () => {
    const raw = makeVideo(path.join(workDir, "raw.mov"), [
      "-f", "lavfi", "-i", "testsrc=duration=12:size=64x48:rate=10", "-c:v", "rawvideo", "-pix_fmt", "rgb24",
    ]);
    const output = path.join(workDir, "raw-preview.mp4");
    const result = await cutPreview(raw, output);
    expect(result.reencoded).toBe(true);
    expect(result.duration).toBeLessThanOrEqual(10.1);
    expect(await measureDuration(output)).toBeLessThanOrEqual(10.1);
  });

  it("fails the job with a clear message when ffmpeg is missing, and the full video stays protected", async () => {
    const env = getEnv() as { FFMPEG_PATH: string };
    const before = env.FFMPEG_PATH;
    env.FFMPEG_PATH = "/nonexistent/ffmpeg";
    try {
      const animation = await animationWithVideo();
      await queuePreviewIfMissing(animation.id);
      expect(await runOne()).toBe("failed");
      const [job] = await getMediaJobs(animation.id);
      expect(job).toMatchObject({ status: "failed", error: FFMPEG_MISSING });
      expect(FFMPEG_MISSING).toMatch(/^ffmpeg not found: install ffmpeg/);
      const after = await prisma.animation.findUniqueOrThrow({ where: { id: animation.id } });
      expect(after.previewVideo).toBeNull();
      expect((await fetch(`${app.url}${after.fullVideo}`)).status).toBe(401);
      // A failed job does not block a new attempt once ffmpeg is there.
      expect((await queuePreviewIfMissing(animation.id))?.status).toBe("queued");
      await prisma.mediaJob.deleteMany({ where: { animationId: animation.id } });
    } finally {
      env.FFMPEG_PATH = before;
    }
  });

  it("fails a job whose full video is missing from storage", async () => {
    const animation = await prisma.animation.create({
      data: { title: "Gone", slug: `gone_${crypto.randomBytes(4).toString("hex")}`, description: "x", fullVideo: `/objects/uploads/${crypto.randomUUID()}` },
    });
    await queuePreviewIfMissing(animation.id);
    expect(await runOne()).toBe("failed");
    const [job] = await getMediaJobs(animation.id);
    expect(job!.error).toMatch(/missing from storage/);
  });

  it("skips a job whose full video changed meanwhile, and keeps no stray preview", async () => {
    const animation = await animationWithVideo();
    await queuePreviewIfMissing(animation.id);
    await prisma.animation.update({ where: { id: animation.id }, data: { fullVideo: `/objects/uploads/${crypto.randomUUID()}` } });
    const previews = await prisma.storedObject.count({ where: { kind: "preview" } });
    expect(await runOne()).toBe("skipped");
    expect(await prisma.storedObject.count({ where: { kind: "preview" } })).toBe(previews);
    expect((await getMediaJobs(animation.id))[0]!.status).toBe("done");
  });
});

describe("the worker", () => {
  it("a saved video is cut by the queue's worker in the background (row and job written together)", async () => {
    const workers = await startJobWorkers({ pollingIntervalSeconds: 0.5 });
    try {
      const animation = await animationWithVideo();
      const job = await queuePreviewIfMissing(animation.id);
      expect(await (await jobQueue()).getQueueSize(QUEUES.mediaPreview)).toBeGreaterThanOrEqual(0);
      await expect.poll(async () => (await prisma.mediaJob.findUniqueOrThrow({ where: { id: job!.id } })).status, { timeout: 20_000, interval: 200 }).toBe("done");
      expect((await prisma.animation.findUniqueOrThrow({ where: { id: animation.id } })).previewVideo).not.toBeNull();
    } finally {
      await workers.stop();
    }
  }, 30_000);

  it("a failed transaction leaves neither the row nor the job", async () => {
    const animation = await animationWithVideo();
    const size = await (await jobQueue()).getQueueSize(QUEUES.mediaPreview);
    await expect(
      prisma.$transaction(async (tx) => {
        const { sendJob } = await import("~/lib/jobs.server.ts");
        await tx.mediaJob.create({ data: { animationId: animation.id, sourcePath: animation.fullVideo! } });
        await sendJob("mediaPreview", { mediaJobId: "rolled-back" }, { tx });
        throw new Error("rolled back");
      }),
    ).rejects.toThrow("rolled back");
    expect(await prisma.mediaJob.count({ where: { animationId: animation.id } })).toBe(0);
    expect(await (await jobQueue()).getQueueSize(QUEUES.mediaPreview)).toBe(size);
  });

  it("resumes a job left running by a crashed process (its lock went stale)", async () => {
    const animation = await animationWithVideo();
    const job = await prisma.mediaJob.create({
      data: {
        animationId: animation.id,
        sourcePath: animation.fullVideo!,
        status: "running",
        lockedBy: "crashed-host:3000",
        lockedAt: new Date(Date.now() - 60 * 60_000),
        attempts: 1,
      },
    });
    expect(await runMediaJob(job.id, { instanceId: "survivor:3000" })).toBe("done");
    const after = await prisma.mediaJob.findUniqueOrThrow({ where: { id: job.id } });
    expect(after).toMatchObject({ status: "done", attempts: 2, lockedBy: null });
    expect((await prisma.animation.findUniqueOrThrow({ where: { id: animation.id } })).previewVideo).not.toBeNull();
  });

  it("leaves a fresh lock of another instance alone, and gives up after three attempts", async () => {
    const animation = await animationWithVideo();
    const busy = await prisma.mediaJob.create({
      data: { animationId: animation.id, sourcePath: animation.fullVideo!, status: "running", lockedBy: "alive:3000", lockedAt: new Date(), attempts: 1 },
    });
    const doomed = await prisma.mediaJob.create({
      data: { animationId: animation.id, sourcePath: animation.fullVideo!, status: "running", lockedBy: "dead:3000", lockedAt: new Date(0), attempts: 3 },
    });
    expect(await runMediaJob(busy.id, { instanceId: "other:3000" })).toBe("nothing");
    expect(await runMediaJob(doomed.id, { instanceId: "other:3000" })).toBe("nothing");
    expect((await prisma.mediaJob.findUniqueOrThrow({ where: { id: busy.id } })).status).toBe("running");
    expect(await prisma.mediaJob.findUniqueOrThrow({ where: { id: doomed.id } })).toMatchObject({
      status: "failed",
      error: "Gave up after 3 attempts",
    });
    await prisma.mediaJob.deleteMany({ where: { animationId: animation.id } });
  });

  it("the scan queues missing previews and hands lost rows to the queue again", async () => {
    const animation = await animationWithVideo();
    const lost = await prisma.mediaJob.create({
      data: { animationId: animation.id, sourcePath: animation.fullVideo!, status: "running", lockedBy: "gone:3000", lockedAt: new Date(0), attempts: 1 },
    });
    const other = await animationWithVideo();
    const scanned = await scanMediaJobs();
    expect(scanned.resent).toBeGreaterThanOrEqual(1);
    expect(await prisma.mediaJob.count({ where: { animationId: other.id, status: "queued" } })).toBe(1);
    expect(await runMediaJob(lost.id)).toBe("done");
  });

  it("runs a job once when several workers race for it", async () => {
    const animation = await animationWithVideo();
    const job = await queuePreviewIfMissing(animation.id);
    // Ten claims at once: exactly one wins.
    const claims = await Promise.all(Array.from({ length: 10 }, (_, i) => claimJob(job!.id, `racer-${i}`)));
    expect(claims.filter(Boolean)).toHaveLength(1);
    await prisma.mediaJob.update({ where: { id: job!.id }, data: { status: "queued", lockedBy: null, lockedAt: null, attempts: 0 } });

    // Two workers given the same job at once finish it once.
    const previews = await prisma.storedObject.count({ where: { kind: "preview" } });
    const outcomes = await Promise.all([runMediaJob(job!.id, { instanceId: "worker-a" }), runMediaJob(job!.id, { instanceId: "worker-b" })]);
    expect(outcomes.sort()).toEqual(["done", "nothing"]);
    expect(await prisma.mediaJob.findUniqueOrThrow({ where: { id: job!.id } })).toMatchObject({ status: "done", attempts: 1 });
    expect(await prisma.storedObject.count({ where: { kind: "preview" } })).toBe(previews + 1);
  });

  it("puts a job back in the queue when stopped mid-cut, and throws so the queue retries it", async () => {
    // An "ffmpeg" that never finishes: the stop must abort it, not wait.
    const hanging = path.join(workDir, "ffmpeg");
    fs.writeFileSync(hanging, "#!/bin/sh\nexec sleep 30\n", { mode: 0o755 });
    const env = getEnv() as { FFMPEG_PATH: string };
    const before = env.FFMPEG_PATH;
    env.FFMPEG_PATH = hanging;
    try {
      const animation = await animationWithVideo();
      const job = await queuePreviewIfMissing(animation.id);
      const stop = new AbortController();
      const run = runMediaJob(job!.id, { instanceId: "stopping:3000", signal: stop.signal });
      await expect.poll(async () => (await prisma.mediaJob.findUniqueOrThrow({ where: { id: job!.id } })).status, { interval: 20 }).toBe("running");
      await new Promise((r) => setTimeout(r, 100));
      const started = Date.now();
      stop.abort();
      await expect(run).rejects.toThrow("retried");
      expect(Date.now() - started).toBeLessThan(5000);
      const after = await prisma.mediaJob.findUniqueOrThrow({ where: { id: job!.id } });
      expect(after).toMatchObject({ status: "queued", lockedBy: null, attempts: 1 });
      await prisma.mediaJob.deleteMany({ where: { animationId: animation.id } });
    } finally {
      env.FFMPEG_PATH = before;
    }
  });
});
