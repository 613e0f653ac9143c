import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { ANIMATIONS, animationSlug } from "../prisma/seed-data/animations.ts";
import { DEMO_1080P_SLUG, DEMO_MEDIA_DIR, demoFile, demoVideoSize } from "../prisma/seed-data/demo-media.ts";

// How long the media pipeline takes for demo masters, the way a fresh `npm start` runs it after
// the seed: the master is stored, a transcode is queued and the job runs to a published set
// (probe, every step, measurements, publish, the set switched in). A throwaway DATA_DIR and an
// in-memory database. Each step's time is read from the job's progress row while it runs.
//
//   npx tsx bench/demo-transcode.ts [slug ... | --all]   (default: the 1080p demo master and a
//                                                       480×270 one; --all: every demo master)

/** The 480×270 master measured by default: the one the e2e specs buy, a mid-length video. */
const ORDINARY_SLUG = "open_rhinoplasty_reshaping_the_nasal_framework";

export type DemoTranscodeFigure = {
  slug: string;
  size: string;
  seconds: number;
  totalSeconds: number;
  /** From the job's start to its preview step being done: a playable preview. */
  previewSeconds: number | null;
  steps: Record<string, number>;
  /** ffmpeg's and ffprobe's CPU time (user + system) for the job: steadier than wall time on a shared machine. */
  cpuSeconds: number | null;
  outcome: string;
};

export async function runDemoTranscodeBench(slugs = [DEMO_1080P_SLUG, ORDINARY_SLUG]): Promise<DemoTranscodeFigure[]> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "medanim-bench-demo-transcode-"));
  const saved = { DATA_DIR: process.env.DATA_DIR, S3_BUCKET: process.env.S3_BUCKET, LOG_LEVEL: process.env.LOG_LEVEL };
  Object.assign(process.env, { DATA_DIR: dataDir, LOG_LEVEL: "silent" });
  delete process.env.S3_BUCKET;
  const { resetEnv } = await import("../app/lib/env.server.ts");
  resetEnv();
  const dbModule = await import("../app/lib/db.server.ts");
  const db = dbModule.openDatabase({ memory: true });
  dbModule.setDb(db);
  const { stopJobQueue } = await import("../app/lib/jobs.server.ts");
  try {
    await db.migrate();
    const { prisma } = dbModule;
    const { saveObject } = await import("../app/lib/storage.server.ts");
    const { claimJob, queueTranscode, runTranscodeJob } = await import("../app/services/media/media-jobs.server.ts");
    const figures: DemoTranscodeFigure[] = [];
    for (const slug of slugs) {
      const seed = ANIMATIONS.find((a) => animationSlug(a.title) === slug);
      if (!seed) throw new Error(`No demo animation ${slug}`);
      const stored = await saveObject({
        body: fs.createReadStream(path.join(DEMO_MEDIA_DIR, demoFile.fullVideo(slug))),
        contentType: "video/mp4",
        kind: "video",
      });
      const animation = await prisma.animation.create({ data: { title: seed.title, slug, description: "bench", fullVideo: stored.path } });
      const began = performance.now();
      const job = await queueTranscode(animation.id);
      const claimed = await claimJob(job!.id, "bench:0");
      const stepStarted: Record<string, number> = {};
      const stepDone: Record<string, number> = {};
      // The row is written as each step starts and ends: polled, it gives every step's span.
      const watch = setInterval(() => {
        void prisma.mediaJob.findUnique({ where: { id: job!.id }, select: { progress: true } }).then((row) => {
          const now = performance.now();
          for (const entry of (row?.progress ?? []) as { step: string; status: string }[]) {
            if (entry.status !== "waiting") stepStarted[entry.step] ??= now;
            if (entry.status === "done") stepDone[entry.step] ??= now;
          }
        });
      }, 100);
      const jobStarted = performance.now();
      const cpuBefore = childrenCpuSeconds();
      const outcome = await runTranscodeJob(claimed!, "bench:0");
      const cpuAfter = childrenCpuSeconds();
      clearInterval(watch);
      const ended = performance.now();
      const steps: Record<string, number> = {};
      const order = Object.keys(stepStarted).sort((a, b) => stepStarted[a]! - stepStarted[b]!);
      order.forEach((step, i) => {
        // A step ends where the next one starts (the poll may miss a short step's "done").
        const end = stepStarted[order[i + 1]!] ?? stepDone[step] ?? ended;
        steps[step] = (end - stepStarted[step]!) / 1000;
      });
      const { width, height } = demoVideoSize(slug);
      figures.push({
        slug,
        size: `${width}x${height}`,
        seconds: seed.duration,
        totalSeconds: (ended - began) / 1000,
        previewSeconds: stepStarted["download-mp4"] ? (stepStarted["download-mp4"] - jobStarted) / 1000 : null,
        steps,
        cpuSeconds: cpuBefore === null || cpuAfter === null ? null : cpuAfter - cpuBefore,
        outcome,
      });
    }
    return figures;
  } finally {
    await stopJobQueue();
    await db.close();
    dbModule.setDb(undefined);
    for (const [key, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[key];
      else process.env[key] = value;
    }
    resetEnv();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

/** CPU time of this process's finished children (ffmpeg, ffprobe), from /proc; null elsewhere. */
function childrenCpuSeconds() {
  try {
    const stat = fs.readFileSync("/proc/self/stat", "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return (Number(fields[13]) + Number(fields[14])) / 100; // cutime + cstime, in USER_HZ ticks
  } catch {
    return null;
  }
}

export function formatDemoTranscodeBench(figures: DemoTranscodeFigure[]) {
  const sum = (values: number[]) => values.reduce((total, n) => total + n, 0);
  const cpu = figures.every((f) => f.cpuSeconds !== null) ? `, ffmpeg CPU ${sum(figures.map((f) => f.cpuSeconds!)).toFixed(1)} s` : "";
  const total =
    figures.length > 1
      ? [
          `${figures.length} masters, ${sum(figures.map((f) => f.seconds))} s of video: ${sum(figures.map((f) => f.totalSeconds)).toFixed(1)} s one after another${cpu}`,
        ]
      : [];
  return figures
    .map((f) =>
      [
        `${f.slug} (${f.size}, ${f.seconds} s): ${f.outcome} in ${f.totalSeconds.toFixed(1)} s (${(f.seconds / f.totalSeconds).toFixed(1)}× realtime); ` +
          `preview made after ${f.previewSeconds?.toFixed(1) ?? "?"} s` +
          (f.cpuSeconds === null ? "" : `; ffmpeg CPU ${f.cpuSeconds.toFixed(1)} s`),
        `  ${Object.entries(f.steps)
          .map(([step, s]) => `${step} ${s.toFixed(1)} s`)
          .join(" · ")}`,
      ].join("\n"),
    )
    .concat(total)
    .join("\n");
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) {
  const slugs = process.argv.includes("--all") ? ANIMATIONS.map((a) => animationSlug(a.title)) : process.argv.slice(2);
  const figures = await runDemoTranscodeBench(slugs.length ? slugs : undefined);
  console.log(
    `${os.cpus().length} CPUs, load ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(" ")}`,
  );
  console.log(formatDemoTranscodeBench(figures));
}
