import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { prisma } from "~/lib/db.server.ts";
import { getEnv, resetEnv } from "~/lib/env.server.ts";
import { measureDuration, probeMedia } from "~/lib/ffmpeg.server.ts";
import { localSetDir, localSetFile, mediaWorkDir } from "~/lib/media-store.server.ts";
import { saveObject } from "~/lib/storage.server.ts";
import { jobQueue, QUEUES, stopJobQueue } from "~/lib/jobs.server.ts";
import { startJobWorkers } from "~/services/job-workers.server.ts";
import {
  claimJob,
  FFMPEG_MISSING,
  getMediaJobs,
  queueMissingTranscodes,
  queueTranscode,
  retryTranscode,
  runMediaJob,
  runTranscodeJob,
  scanMediaJobs,
  TRANSCODE_PRIORITY,
} from "~/services/media/media-jobs.server.ts";
import { masterCodecs, playlistDuration } from "~/services/media/transcode.server.ts";
import * as formScreen from "~/routes/admin/animation-form.tsx";
import { createUser, sessionCookieFor } from "../helpers/factories.ts";
import { callRoute } from "../helpers/route.ts";
import { makeTestVideo, startMediaApp } from "./media-helpers.ts";

// The media pipeline with real ffmpeg on tiny generated sources (testsrc2 with a tone, a few
// seconds): the ladder, the progressive MP4, the preview, the downloads and the storyboard, as
// jobs on the job queue (pg-boss) with their state in MediaJob rows.

const workDir = fs.mkdtempSync(path.join(os.tmpdir(), "medanim-pipeline-"));
let small: string;
let hd: string;
let app: Awaited<ReturnType<typeof startMediaApp>>;

beforeAll(async () => {
  small = makeTestVideo(path.join(workDir, "small.mp4"), "640x360", 12);
  hd = makeTestVideo(path.join(workDir, "hd.mp4"), "1280x720", 6, false);
  app = await startMediaApp();
});

afterAll(async () => {
  await stopJobQueue();
  await app.close();
  fs.rmSync(workDir, { recursive: true, force: true });
});

async function animationWithVideo(file = small) {
  const stored = await saveObject({ body: fs.createReadStream(file), contentType: "video/mp4", kind: "video" });
  return prisma.animation.create({
    data: { title: "Transcode me", slug: `transcode_me_${crypto.randomBytes(4).toString("hex")}`, description: "x", fullVideo: stored.path },
  });
}

/** Runs the newest queued job, as the queue's worker would. */
async function runOne(instanceId = "test-worker") {
  const queued = await prisma.mediaJob.findFirstOrThrow({ where: { status: "queued" }, orderBy: { createdAt: "desc" } });
  const job = await claimJob(queued.id, instanceId);
  expect(job).not.toBeNull();
  return runTranscodeJob(job!, instanceId);
}

async function currentSet(animationId: string) {
  const animation = await prisma.animation.findUniqueOrThrow({ where: { id: animationId }, select: { mediaSetId: true, videoWidth: true, videoHeight: true } });
  const renditions = await prisma.mediaRendition.findMany({ where: { setId: animation.mediaSetId ?? "00000000-0000-4000-8000-000000000000" } });
  return { ...animation, renditions };
}

describe("queueing", () => {
  it("queues one job for an animation with a master and no set for it", async () => {
    const animation = await animationWithVideo();
    const job = await queueTranscode(animation.id);
    expect(job).toMatchObject({ status: "queued", kind: "transcode", sourcePath: animation.fullVideo, attempts: 0 });
    expect((await queueTranscode(animation.id))?.id).toBe(job!.id);
    expect(await getMediaJobs(animation.id)).toHaveLength(1);
    await prisma.mediaJob.deleteMany({ where: { animationId: animation.id } });
  });

  it("puts a master an admin saved ahead of the scan's backlog on the queue", async () => {
    const saved = await animationWithVideo();
    const backlog = await animationWithVideo();
    const mine = await queueTranscode(saved.id);
    await queueMissingTranscodes();
    const found = await prisma.mediaJob.findFirstOrThrow({ where: { animationId: backlog.id } });
    const priorities = await prisma.$queryRawUnsafe<{ id: string; priority: number }[]>(
      `SELECT data->>'mediaJobId' AS id, priority FROM pgboss.job WHERE data->>'mediaJobId' IN ($1, $2)`,
      mine!.id,
      found.id,
    );
    expect(Object.fromEntries(priorities.map((row) => [row.id, row.priority]))).toEqual({
      [mine!.id]: TRANSCODE_PRIORITY.save,
      [found.id]: TRANSCODE_PRIORITY.backfill,
    });
    expect(TRANSCODE_PRIORITY.save).toBeGreaterThan(TRANSCODE_PRIORITY.backfill);
    await prisma.mediaJob.deleteMany({ where: { animationId: { in: [saved.id, backlog.id] } } });
  });

  it("queues nothing without a master, or for an unknown animation", async () => {
    const bare = await prisma.animation.create({ data: { title: "Bare", slug: `bare_${crypto.randomBytes(4).toString("hex")}`, description: "x" } });
    expect(await queueTranscode(bare.id)).toBeNull();
    expect(await queueTranscode(crypto.randomUUID())).toBeNull();
  });
});

describe("transcoding with ffmpeg", () => {
  it("a 640x360 master: a 360p ladder, never above the source; valid playlists; segments decode; preview ≤ 10 s; MP4 + WebM at the master's size; a storyboard", async () => {
    const animation = await animationWithVideo(small);
    const job = await queueTranscode(animation.id);
    expect(await runOne()).toBe("done");
    const set = await currentSet(animation.id);
    expect(set.mediaSetId).toBe(job!.id);
    expect({ width: set.videoWidth, height: set.videoHeight }).toEqual({ width: 640, height: 360 });

    const hls = set.renditions.filter((r) => r.kind === "hls");
    expect(hls.map((r) => r.height)).toEqual([360]);
    for (const r of set.renditions) expect(r.height ?? 0).toBeLessThanOrEqual(360);

    // The master playlist parses back: one variant per rung, with codecs, pointing at real playlists.
    const master = fs.readFileSync(localSetFile(set.mediaSetId!, "hls/master.m3u8"), "utf8");
    expect(master.startsWith("#EXTM3U")).toBe(true);
    expect([...masterCodecs(master).keys()]).toEqual(["360p/index.m3u8"]);
    expect(masterCodecs(master).get("360p/index.m3u8")).toMatch(/^avc1\.[0-9a-f]{6},mp4a\.40\.2$/);
    const rung = fs.readFileSync(localSetFile(set.mediaSetId!, "hls/360p/index.m3u8"), "utf8");
    expect(rung).toMatch(/#EXT-X-PLAYLIST-TYPE:VOD/);
    const init = /#EXT-X-MAP:URI="([^"]+)"/.exec(rung)![1]!;
    expect(rung).toMatch(/#EXT-X-ENDLIST/);
    expect(playlistDuration(rung)).toBeCloseTo(12, 0);
    // A segment decodes (its init section and the segment make a playable fragment).
    const segments = rung.split("\n").filter((line) => line.endsWith(".m4s"));
    expect(segments.length).toBeGreaterThanOrEqual(3);
    const fragment = path.join(workDir, "fragment.mp4");
    fs.writeFileSync(
      fragment,
      Buffer.concat([
        fs.readFileSync(localSetFile(set.mediaSetId!, `hls/360p/${init}`)),
        fs.readFileSync(localSetFile(set.mediaSetId!, `hls/360p/${segments[1]}`)),
      ]),
    );
    const decoded = await probeMedia(fragment);
    expect(decoded).toMatchObject({ width: 640, height: 360, hasAudio: true });

    const preview = set.renditions.find((r) => r.kind === "preview")!;
    expect(preview.height).toBeLessThanOrEqual(720);
    expect(await measureDuration(localSetFile(set.mediaSetId!, "preview.mp4"))).toBeLessThanOrEqual(10.0001);
    expect(playlistDuration(fs.readFileSync(localSetFile(set.mediaSetId!, "preview/index.m3u8"), "utf8"))).toBeLessThanOrEqual(10.1);

    const downloads = set.renditions.filter((r) => r.kind === "download").map((r) => ({ file: r.file, width: r.width, height: r.height, codec: r.codec }));
    expect(downloads).toEqual(
      expect.arrayContaining([
        { file: "download.mp4", width: 640, height: 360, codec: "h264,aac" },
        { file: "download.webm", width: 640, height: 360, codec: "vp9,opus" },
      ]),
    );
    const vtt = fs.readFileSync(localSetFile(set.mediaSetId!, "storyboard.vtt"), "utf8");
    expect(vtt.startsWith("WEBVTT")).toBe(true);
    expect(vtt).toMatch(/00:00:00\.000 --> 00:00:02\.000\nstoryboard\.jpg#xywh=0,0,160,90/);
    expect(fs.existsSync(localSetFile(set.mediaSetId!, "storyboard.jpg"))).toBe(true);
    // Every row measured from its file.
    for (const r of set.renditions) expect(Number(r.bytes)).toBeGreaterThan(0);

    const [state] = await getMediaJobs(animation.id);
    expect(state).toMatchObject({ status: "done", error: null, attempts: 1 });
    expect(state!.progress.map((p) => [p.step, p.status, p.percent])).toEqual([
      ["hls", "done", 100],
      ["progressive", "done", 100],
      ["preview", "done", 100],
      ["download-mp4", "done", 100],
      ["download-webm", "done", 100],
      ["storyboard", "done", 100],
    ]);
    // The animation had no preview: the set's was attached as soon as it was cut, before the downloads.
    const attached = await prisma.animation.findUniqueOrThrow({ where: { id: animation.id }, select: { previewVideo: true } });
    expect(attached.previewVideo).toMatch(/^\/objects\/uploads\/[0-9a-f-]{36}$/);
    expect((await fetch(`${app.url}${attached.previewVideo}`)).headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    // The work folder is gone once the set is published.
    expect(fs.existsSync(mediaWorkDir(job!.id))).toBe(false);
  }, 120_000);

  it("a 1280x720 master without sound: 360p, 540p and 720p rungs, the preview from the 720p rung", async () => {
    const animation = await animationWithVideo(hd);
    await queueTranscode(animation.id);
    expect(await runOne()).toBe("done");
    const set = await currentSet(animation.id);
    expect(set.renditions.filter((r) => r.kind === "hls").map((r) => [r.width, r.height])).toEqual([
      [640, 360],
      [960, 540],
      [1280, 720],
    ]);
    expect(set.renditions.find((r) => r.kind === "preview")).toMatchObject({ width: 1280, height: 720 });
    expect(set.renditions.find((r) => r.kind === "progressive")).toMatchObject({ width: 1280, height: 720 });
    const master = fs.readFileSync(localSetFile(set.mediaSetId!, "hls/master.m3u8"), "utf8");
    expect([...masterCodecs(master).values()].every((codec) => /^avc1\.[0-9a-f]{6}$/.test(codec))).toBe(true);
    expect(await measureDuration(localSetFile(set.mediaSetId!, "preview.mp4"))).toBeLessThanOrEqual(6.1);
  }, 120_000);

  it("a job killed mid-way completes on retry with one set of renditions", async () => {
    const animation = await animationWithVideo(small);
    const job = await queueTranscode(animation.id);
    const claimed = await claimJob(job!.id, "doomed:3000");
    // A shutdown (or a kill) while the ladder encodes: the run is aborted and the job queued again.
    const stop = new AbortController();
    const running = runTranscodeJob(claimed!, "doomed:3000", stop.signal);
    await expect
      .poll(async () => ((await prisma.mediaJob.findUniqueOrThrow({ where: { id: job!.id } })).progress as { status: string }[] | null)?.[0]?.status, {
        timeout: 10_000,
        interval: 50,
      })
      .toBe("running");
    stop.abort();
    expect(await running).toBe("abandoned");
    expect(await prisma.mediaJob.findUniqueOrThrow({ where: { id: job!.id } })).toMatchObject({ status: "queued", lockedBy: null });
    expect((await currentSet(animation.id)).mediaSetId).toBeNull();

    expect(await runMediaJob(job!.id, { instanceId: "survivor:3000" })).toBe("done");
    expect(await prisma.mediaSet.count({ where: { animationId: animation.id } })).toBe(1);
    const set = await currentSet(animation.id);
    expect(set.mediaSetId).toBe(job!.id);
    expect(new Set(set.renditions.map((r) => r.file)).size).toBe(set.renditions.length);
    // Run again (a duplicate delivery): nothing to claim, still one set.
    expect(await runMediaJob(job!.id, { instanceId: "late:3000" })).toBe("nothing");
    expect(await prisma.mediaSet.count({ where: { animationId: animation.id } })).toBe(1);
  }, 120_000);

  it("a new master: the animation keeps its previous set until the new one is complete, then the old one is removed", async () => {
    const animation = await animationWithVideo(hd);
    await queueTranscode(animation.id);
    expect(await runOne()).toBe("done");
    const first = (await currentSet(animation.id)).mediaSetId!;
    const replacement = await saveObject({ body: fs.createReadStream(hd), contentType: "video/mp4", kind: "video" });
    await prisma.animation.update({ where: { id: animation.id }, data: { fullVideo: replacement.path } });
    const second = await queueTranscode(animation.id);
    expect(second!.id).not.toBe(first);
    expect((await currentSet(animation.id)).mediaSetId).toBe(first);
    expect(await runOne()).toBe("done");
    expect((await currentSet(animation.id)).mediaSetId).toBe(second!.id);
    expect(await prisma.mediaSet.count({ where: { animationId: animation.id } })).toBe(1);
    expect(fs.existsSync(localSetDir(first))).toBe(false);
  }, 120_000);

  it("fails with a clear message when ffmpeg is missing; Retry queues the same job again", async () => {
    const env = getEnv() as { FFMPEG_PATH: string };
    const before = env.FFMPEG_PATH;
    env.FFMPEG_PATH = "/nonexistent/ffmpeg";
    let animationId: string;
    try {
      const animation = await animationWithVideo();
      animationId = animation.id;
      await queueTranscode(animation.id);
      expect(await runOne()).toBe("failed");
      const [job] = await getMediaJobs(animation.id);
      expect(job!.status).toBe("failed");
      expect(job!.error).toMatch(/ffprobe not found|ffmpeg not found/);
      expect(FFMPEG_MISSING).toMatch(/^ffmpeg not found: install ffmpeg/);
      expect((await currentSet(animation.id)).mediaSetId).toBeNull();
    } finally {
      env.FFMPEG_PATH = before;
    }
    const retried = await retryTranscode(animationId!);
    expect(retried).toMatchObject({ status: "queued", attempts: 0, error: null });
    expect(await runOne()).toBe("done");
    expect((await currentSet(animationId!)).mediaSetId).toBe(retried!.id);
  }, 120_000);

  it("fails a job whose master is missing from storage", async () => {
    const animation = await prisma.animation.create({
      data: { title: "Gone", slug: `gone_${crypto.randomBytes(4).toString("hex")}`, description: "x", fullVideo: `/objects/uploads/${crypto.randomUUID()}` },
    });
    await queueTranscode(animation.id);
    expect(await runOne()).toBe("failed");
    expect((await getMediaJobs(animation.id))[0]!.error).toMatch(/missing from storage/);
  });

  it("skips a job whose master changed meanwhile", async () => {
    const animation = await animationWithVideo();
    await queueTranscode(animation.id);
    await prisma.animation.update({ where: { id: animation.id }, data: { fullVideo: `/objects/uploads/${crypto.randomUUID()}` } });
    expect(await runOne()).toBe("skipped");
    expect((await getMediaJobs(animation.id))[0]!.status).toBe("done");
    expect((await currentSet(animation.id)).mediaSetId).toBeNull();
  });
});

describe("the worker", () => {
  it("a saved master is transcoded by the queue's worker in the background", async () => {
    const workers = await startJobWorkers({ pollingIntervalSeconds: 0.5 });
    try {
      const animation = await animationWithVideo(hd);
      const job = await queueTranscode(animation.id);
      await expect
        .poll(async () => (await prisma.mediaJob.findUniqueOrThrow({ where: { id: job!.id } })).status, { timeout: 60_000, interval: 250 })
        .toBe("done");
      expect((await currentSet(animation.id)).mediaSetId).toBe(job!.id);
    } finally {
      await workers.stop();
    }
  }, 90_000);

  it("a failed transaction leaves neither the row nor the job", async () => {
    const animation = await animationWithVideo();
    const size = await (await jobQueue()).getQueueSize(QUEUES.mediaTranscode);
    await expect(
      prisma.$transaction(async (tx) => {
        const { sendJob } = await import("~/lib/jobs.server.ts");
        await tx.mediaJob.create({ data: { animationId: animation.id, kind: "transcode", sourcePath: animation.fullVideo! } });
        await sendJob("mediaTranscode", { mediaJobId: "rolled-back" }, { tx });
        throw new Error("rolled back");
      }),
    ).rejects.toThrow("rolled back");
    expect(await prisma.mediaJob.count({ where: { animationId: animation.id } })).toBe(0);
    expect(await (await jobQueue()).getQueueSize(QUEUES.mediaTranscode)).toBe(size);
  });

  it("leaves a fresh lock of another instance alone, and gives up after three attempts", async () => {
    const animation = await animationWithVideo();
    const busy = await prisma.mediaJob.create({
      data: {
        animationId: animation.id,
        kind: "transcode",
        sourcePath: animation.fullVideo!,
        status: "running",
        lockedBy: "alive:3000",
        lockedAt: new Date(),
        attempts: 1,
      },
    });
    const doomed = await prisma.mediaJob.create({
      data: {
        animationId: animation.id,
        kind: "transcode",
        sourcePath: animation.fullVideo!,
        status: "running",
        lockedBy: "dead:3000",
        lockedAt: new Date(0),
        attempts: 3,
      },
    });
    expect(await runMediaJob(busy.id, { instanceId: "other:3000" })).toBe("nothing");
    expect(await runMediaJob(doomed.id, { instanceId: "other:3000" })).toBe("nothing");
    expect((await prisma.mediaJob.findUniqueOrThrow({ where: { id: busy.id } })).status).toBe("running");
    expect(await prisma.mediaJob.findUniqueOrThrow({ where: { id: doomed.id } })).toMatchObject({ status: "failed", error: "Gave up after 3 attempts" });
    await prisma.mediaJob.deleteMany({ where: { animationId: animation.id } });
  });

  it("the scan queues missing transcodes and hands lost rows to the queue again", async () => {
    const animation = await animationWithVideo();
    await prisma.mediaJob.create({
      data: {
        animationId: animation.id,
        kind: "transcode",
        sourcePath: animation.fullVideo!,
        status: "running",
        lockedBy: "gone:3000",
        lockedAt: new Date(0),
        attempts: 1,
      },
    });
    const other = await animationWithVideo();
    const scanned = await scanMediaJobs();
    expect(scanned.resent).toBeGreaterThanOrEqual(1);
    expect(await prisma.mediaJob.count({ where: { animationId: other.id, status: "queued" } })).toBe(1);
    await prisma.mediaJob.deleteMany({ where: { animationId: { in: [animation.id, other.id] } } });
  });

  it("with MEDIA_BACKFILL off the scan leaves the backlog alone and still resends lost rows", async () => {
    process.env.MEDIA_BACKFILL = "false";
    resetEnv();
    try {
      const lost = await animationWithVideo();
      await prisma.mediaJob.create({
        data: { animationId: lost.id, kind: "transcode", sourcePath: lost.fullVideo!, status: "queued", createdAt: new Date(Date.now() - 120_000) },
      });
      const backlog = await animationWithVideo();
      const scanned = await scanMediaJobs();
      expect(scanned).toMatchObject({ queued: 0 });
      expect(scanned.resent).toBeGreaterThanOrEqual(1);
      expect(await prisma.mediaJob.count({ where: { animationId: backlog.id } })).toBe(0);
      await prisma.mediaJob.deleteMany({ where: { animationId: lost.id } });
    } finally {
      delete process.env.MEDIA_BACKFILL;
      resetEnv();
    }
  });

  it("runs a job once when several workers race for it", async () => {
    const animation = await animationWithVideo();
    const job = await queueTranscode(animation.id);
    const claims = await Promise.all(Array.from({ length: 10 }, (_, i) => claimJob(job!.id, `racer-${i}`)));
    expect(claims.filter(Boolean)).toHaveLength(1);
    await prisma.mediaJob.deleteMany({ where: { animationId: animation.id } });
  });
});

describe("the admin animation page", () => {
  it("shows each step of a failed transcode with its error, and its Retry form queues the same job again", async () => {
    const admin = await createUser({ role: "admin" });
    const cookie = await sessionCookieFor(admin.id);
    const animation = await prisma.animation.create({
      data: {
        title: "Broken master",
        slug: `broken_${crypto.randomBytes(4).toString("hex")}`,
        description: "x",
        fullVideo: (await saveObject({ body: Buffer.from("not a video at all"), contentType: "video/mp4", kind: "video" })).path,
      },
    });
    const job = await queueTranscode(animation.id);
    expect(await runOne()).toBe("failed");

    const page = await callRoute(formScreen, `/admin/animations/${animation.id}`, { cookie, params: { id: animation.id } });
    expect(page.status).toBe(200);
    const shown = JSON.stringify(page.body);
    expect(shown).toContain("failed");
    expect(shown).toMatch(/ffprobe/);

    const retried = await callRoute(formScreen, `/admin/animations/${animation.id}`, { cookie, params: { id: animation.id }, form: { intent: "retry-media" } });
    expect(retried.status).toBe(302);
    expect(await prisma.mediaJob.findUniqueOrThrow({ where: { id: job!.id } })).toMatchObject({ status: "queued", attempts: 0, error: null });
    expect(await prisma.mediaJob.count({ where: { animationId: animation.id } })).toBe(1);
    expect(await prisma.auditLog.count({ where: { entityId: animation.id, action: "animation.media_retry" } })).toBe(1);
  });
});
