import { execFileSync } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";

// Playback on a throttled phone: a 2160p master, transcoded by the real pipeline,
// played in Debian's Chromium at 390 px with 1.6 Mbit/s down, 150 ms RTT and a 4× slower CPU
// (CDP), two ways in the same run:
// - today's product: the /watch page of the production build (its player starts hls.js on the
//   ladder's lowest rung and adapts);
// - the old path: the same master served as one file by the same app (/objects/uploads/{id},
//   through its access check), in a plain <video>.
// For each: time from play() to the first frame drawn, media bytes received from the page's
// load to that frame, and the stalls (`waiting` after playing started) in the next 30 s.
// Targets: first frame ≤ 2 s with ≤ 1 MB before it, ≥ 5× fewer bytes than the old path, no
// stall in the first 30 s.
//
//   npm run build && npx tsx bench/playback.ts [--seconds=32]
//   (or npm run bench -- --playback, which builds first)

export type PlaybackFigure = {
  firstFrameMs: number | null;
  bytesBeforeFirstFrame: number;
  /** Those bytes by file (the last two path segments), largest first. */
  byFile: [string, number][];
  stalls: number;
  stalledMs: number;
  rung: string | null;
};
export type PlaybackBenchResult = { transcodeSeconds: number; sourceMbps: number; hls: PlaybackFigure; single: PlaybackFigure; pass: boolean };

const PHONE = { width: 390, height: 844 };
const NETWORK = { offline: false, latency: 150, downloadThroughput: (1.6e6 / 8) | 0, uploadThroughput: (750e3 / 8) | 0 };
const CPU_SLOWDOWN = 4;
const WATCH_SECONDS = 30;
/** The old path may never start on this line: it gets this long. */
const START_LIMIT_MS = 60_000;

export async function runPlaybackBench({ seconds = 32 } = {}): Promise<PlaybackBenchResult> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "medanim-bench-playback-"));
  Object.assign(process.env, {
    DATA_DIR: dataDir,
    LOG_LEVEL: "silent",
    NODE_ENV: "production",
    SESSION_SECRET: process.env.SESSION_SECRET ?? "bench-session-secret-0123456789abcdef",
    JWT_SECRET: process.env.JWT_SECRET ?? "bench-jwt-secret-0123456789abcdef0123456789",
    MFA_ENCRYPTION_KEY: process.env.MFA_ENCRYPTION_KEY ?? "bench-mfa-key-0123456789abcdef0123456789",
    MEDIA_CONCURRENCY: "0",
  });
  delete process.env.S3_BUCKET;
  delete process.env.DATABASE_URL;
  const { resetEnv } = await import("../app/lib/env.server.ts");
  resetEnv();
  const dbModule = await import("../app/lib/db.server.ts");
  const db = dbModule.openDatabase({ memory: true });
  dbModule.setDb(db);
  let server: http.Server | undefined;
  try {
    await db.migrate();
    // A 4K master as an editor exports it (x264, tens of Mbit/s, moov first, which favours the
    // old path), 12 frames a second to keep the bench's transcode to a few minutes.
    const master = path.join(dataDir, "master.mp4");
    execFileSync("ffmpeg", [
      "-hide_banner",
      "-loglevel",
      "error",
      "-y",
      "-f",
      "lavfi",
      "-i",
      `testsrc2=duration=${seconds}:size=3840x2160:rate=12`,
      "-f",
      "lavfi",
      "-i",
      `sine=frequency=330:duration=${seconds}`,
      "-c:v",
      "libx264",
      "-preset",
      "ultrafast",
      "-crf",
      "20",
      "-pix_fmt",
      "yuv420p",
      "-c:a",
      "aac",
      "-shortest",
      "-movflags",
      "+faststart",
      master,
    ]);
    const sourceMbps = (fs.statSync(master).size * 8) / seconds / 1e6;

    const { prisma } = dbModule;
    const { saveObject } = await import("../app/lib/storage.server.ts");
    const { createSession } = await import("../app/lib/session.server.ts");
    const { claimJob, queueTranscode, runTranscodeJob } = await import("../app/services/media/media-jobs.server.ts");
    const stored = await saveObject({ body: fs.createReadStream(master), contentType: "video/mp4", kind: "video" });
    const animation = await prisma.animation.create({
      data: { title: "Playback bench", slug: "playback_bench", description: "A 4K test pattern.", fullVideo: stored.path, duration: seconds },
    });
    const member = await prisma.user.create({
      data: {
        email: "bench@example.com",
        username: "bench",
        firstName: "Bench",
        lastName: "Member",
        password: "x",
        accountType: "premium",
        isEmailVerified: true,
      },
    });
    const started = performance.now();
    const job = await queueTranscode(animation.id);
    const outcome = await runTranscodeJob((await claimJob(job!.id, "bench"))!, "bench");
    const transcodeSeconds = (performance.now() - started) / 1000;
    if (outcome !== "done") throw new Error(`the transcode ended ${outcome}: ${(await prisma.mediaJob.findUnique({ where: { id: job!.id } }))?.error}`);

    // The built app (build/server/index.js), on the database this bench filled: its own copy of
    // db.server is handed the same client.
    const { loadProductionBuild } = await import("../server.ts");
    const appServer = await loadProductionBuild();
    appServer.setDb(db);
    const app = await appServer.createApp({ mode: "production" });
    server = http.createServer(app);
    await new Promise<void>((resolve) => server!.listen(0, resolve));
    const origin = `http://localhost:${(server.address() as AddressInfo).port}`;
    const cookie = (await createSession(member.id)).split(";")[0]!;

    const { chromium } = await import("@playwright/test");
    const shell = "/usr/bin/chromium-headless-shell";
    const browser = await chromium.launch({
      executablePath: process.env.CHROMIUM_PATH ?? (fs.existsSync(shell) ? shell : "/usr/bin/chromium"),
      args: ["--no-sandbox", "--disable-gpu", "--autoplay-policy=no-user-gesture-required", "--disable-background-networking"],
    });
    try {
      const play = async (open: (page: import("@playwright/test").Page) => Promise<void>): Promise<PlaybackFigure> => {
        const context = await browser.newContext({ viewport: PHONE, deviceScaleFactor: 3, isMobile: true, hasTouch: true });
        const [name, value] = cookie.split("=") as [string, string];
        await context.addCookies([{ name, value, url: origin }]);
        const page = await context.newPage();
        const cdp = await context.newCDPSession(page);
        await cdp.send("Network.enable");
        await cdp.send("Network.emulateNetworkConditions", NETWORK);
        await cdp.send("Emulation.setCPUThrottlingRate", { rate: CPU_SLOWDOWN });
        const media = new Map<string, string>();
        const byFile = new Map<string, number>();
        let bytes = 0;
        let counting = true;
        cdp.on("Network.responseReceived", (event) => {
          const url = new URL(event.response.url);
          if (/^\/(media|objects)\//.test(url.pathname)) media.set(event.requestId, url.pathname.split("/").slice(-2).join("/"));
        });
        cdp.on("Network.dataReceived", (event) => {
          const file = media.get(event.requestId);
          if (!counting || file === undefined) return;
          const received = event.encodedDataLength || event.dataLength;
          bytes += received;
          byFile.set(file, (byFile.get(file) ?? 0) + received);
        });
        await open(page);
        const video = page.locator("video").first();
        await video.waitFor();
        const first = await video.evaluate(
          (el: HTMLVideoElement, limit: number) =>
            new Promise<number | null>((resolve) => {
              const start = performance.now();
              const timer = setTimeout(() => resolve(null), limit);
              el.muted = true;
              el.requestVideoFrameCallback(() => {
                clearTimeout(timer);
                resolve(performance.now() - start);
              });
              void el.play().catch(() => undefined);
            }),
          START_LIMIT_MS,
        );
        counting = false;
        let stalls = { count: 0, ms: 0 };
        if (first !== null) {
          stalls = await video.evaluate(
            (el: HTMLVideoElement, watch: number) =>
              new Promise<{ count: number; ms: number }>((resolve) => {
                let count = 0;
                let ms = 0;
                let since: number | null = null;
                el.addEventListener("waiting", () => {
                  count++;
                  since = performance.now();
                });
                el.addEventListener("playing", () => {
                  if (since !== null) ms += performance.now() - since;
                  since = null;
                });
                setTimeout(() => resolve({ count, ms: ms + (since === null ? 0 : performance.now() - since) }), watch);
              }),
            WATCH_SECONDS * 1000,
          );
        }
        const rung = await video.evaluate((el: HTMLVideoElement) => (el.videoHeight ? `${el.videoHeight}p` : null));
        await context.close();
        return {
          firstFrameMs: first === null ? null : Math.round(first),
          bytesBeforeFirstFrame: bytes,
          byFile: [...byFile].sort((a, b) => b[1] - a[1]),
          stalls: stalls.count,
          stalledMs: Math.round(stalls.ms),
          rung,
        };
      };

      const hls = await play(async (page) => {
        await page.goto(`${origin}/watch/${animation.id}`, { waitUntil: "networkidle" });
        // The player hands the video to hls.js once it has hydrated.
        await page.waitForFunction(() => (document.querySelector("video") as HTMLVideoElement | null)?.src.startsWith("blob:"), undefined, { timeout: 60_000 });
      });
      const single = await play(async (page) => {
        await page.goto(`${origin}/healthz`);
        await page.setContent(`<video controls playsinline preload="metadata" src="${stored.path}" style="width:100%"></video>`);
      });
      const pass =
        hls.firstFrameMs !== null &&
        hls.firstFrameMs <= 2000 &&
        hls.bytesBeforeFirstFrame <= 1024 * 1024 &&
        hls.stalls === 0 &&
        single.bytesBeforeFirstFrame >= 5 * hls.bytesBeforeFirstFrame;
      return { transcodeSeconds, sourceMbps, hls, single, pass };
    } finally {
      await browser.close();
    }
  } finally {
    if (server) await new Promise((resolve) => server!.close(resolve));
    const { stopJobQueue } = await import("../app/lib/jobs.server.ts");
    await stopJobQueue().catch(() => undefined);
    await db.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

export function formatPlayback(result: PlaybackBenchResult) {
  const kb = (bytes: number) => `${Math.round(bytes / 1024)} KB`;
  const row = (name: string, f: PlaybackFigure) =>
    `| ${name} | ${f.firstFrameMs === null ? `no frame in ${START_LIMIT_MS / 1000} s` : `${(f.firstFrameMs / 1000).toFixed(2)} s`} | ${kb(f.bytesBeforeFirstFrame)} | ${f.stalls} (${(f.stalledMs / 1000).toFixed(1)} s) | ${f.rung ?? "—"} |`;
  const ratio = result.hls.bytesBeforeFirstFrame ? (result.single.bytesBeforeFirstFrame / result.hls.bytesBeforeFirstFrame).toFixed(1) : "—";
  return [
    `Playback, 2160p master (${result.sourceMbps.toFixed(1)} Mbit/s, transcoded in ${result.transcodeSeconds.toFixed(0)} s), phone 390 px, 1.6 Mbit/s, 150 ms RTT, CPU ×${CPU_SLOWDOWN}:`,
    "| path | first frame | media bytes before it | stalls in 30 s | rung at the end |",
    "|---|---|---|---|---|",
    row("HLS ladder (/watch)", result.hls),
    row("one file (old path)", result.single),
    ...(["hls", "single"] as const).map((key) => `  ${key}: ${result[key].byFile.map(([file, n]) => `${file} ${kb(n)}`).join(", ")}`),
    `bytes before the first frame: ${ratio}× fewer on the ladder; target ≤ 2 s, ≤ 1 MB, ≥ 5× fewer, no stall: ${result.pass ? "PASS" : "FAIL"}`,
  ].join("\n");
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) {
  const seconds = Number(process.argv.find((a) => a.startsWith("--seconds="))?.split("=")[1] ?? 32);
  const result = await runPlaybackBench({ seconds });
  console.log(formatPlayback(result));
  process.exit(0);
}
