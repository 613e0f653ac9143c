import crypto from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { pipeline } from "node:stream/promises";
import { listen, median, randomStream, round1, throughput } from "./stream.ts";

// Licence package download benchmark: a package of `packageMB` (an MP4 of 3/4 of it and a WebM
// of the rest in a media set, with the texts the package writes) served by the app's media
// router in an Express app, through the real access check, the ZIP laid out from the recorded
// checksums and streamed from the set's files; against (b) a bare node:http server piping
// fs.createReadStream of one file of the same size, in the same run. Target: the package keeps
// at least 80% of the bare server's throughput, and memory stays flat (peak RSS while packages
// stream, against the RSS before).
//
//   npx tsx bench/package.ts           (or through bench/run.ts, which calls runPackageBench)

export type PackageBenchResult = {
  packageMB: number;
  rounds: number;
  bareMBps: number;
  appMBps: number;
  ratio: number;
  target: number;
  rssBeforeMB: number;
  rssPeakMB: number;
  pass: boolean;
};

const MB = 1024 * 1024;

export async function runPackageBench({ packageMB = 200, rounds = 3 } = {}): Promise<PackageBenchResult> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "medanim-bench-package-"));
  const saved = { DATA_DIR: process.env.DATA_DIR, S3_BUCKET: process.env.S3_BUCKET, LOG_LEVEL: process.env.LOG_LEVEL };
  process.env.DATA_DIR = dataDir;
  process.env.LOG_LEVEL = "silent";
  delete process.env.S3_BUCKET;
  const { resetEnv } = await import("../app/lib/env.server.ts");
  resetEnv();
  const dbModule = await import("../app/lib/db.server.ts");
  const db = dbModule.openDatabase({ memory: true });
  dbModule.setDb(db);
  const servers: http.Server[] = [];
  try {
    await db.migrate();
    const { default: express } = await import("express");
    const { mediaRouter } = await import("../app/media-router.server.ts");
    const { localSetDir } = await import("../app/lib/media-store.server.ts");
    const { checksums } = await import("../app/services/media/transcode.server.ts");
    const { createSession } = await import("../app/lib/session.server.ts");
    const { prisma } = dbModule;

    // A media set with two download files, as the pipeline leaves one, its checksums recorded.
    const setId = crypto.randomUUID();
    const dir = localSetDir(setId);
    fs.mkdirSync(dir, { recursive: true });
    const files = [
      { file: "download.mp4", bytes: Math.round(packageMB * MB * 0.75), width: 1920, height: 1080, codec: "h264,aac" },
      { file: "download.webm", bytes: Math.round(packageMB * MB * 0.25), width: 1920, height: 1080, codec: "vp9,opus" },
    ];
    for (const f of files) await pipeline(randomStream(f.bytes), fs.createWriteStream(path.join(dir, f.file)));
    const bareFile = path.join(dataDir, "bare.bin");
    await pipeline(randomStream(packageMB * MB), fs.createWriteStream(bareFile));
    const animation = await prisma.animation.create({ data: { title: "Bench", slug: "bench", description: "Package benchmark", duration: 60 } });
    await prisma.mediaSet.create({
      data: {
        id: setId,
        animationId: animation.id,
        sourcePath: "/objects/uploads/bench",
        sourceWidth: 1920,
        sourceHeight: 1080,
        duration: 60,
        frameRate: 25,
        hasAudio: true,
      },
    });
    for (const f of files) {
      const sums = await checksums(fs.createReadStream(path.join(dir, f.file)));
      await prisma.mediaRendition.create({
        data: {
          setId,
          kind: "download",
          file: f.file,
          width: f.width,
          height: f.height,
          codec: f.codec,
          bytes: BigInt(f.bytes),
          duration: 60,
          bitrate: null,
          ...sums,
        },
      });
    }
    await prisma.animation.update({ where: { id: animation.id }, data: { mediaSetId: setId } });
    const user = await prisma.user.create({ data: { email: "bench@example.com", username: "bench", firstName: "B", lastName: "B", password: "x" } });
    await prisma.subscription.create({
      data: {
        userId: user.id,
        type: "individual",
        animationId: animation.id,
        status: "active",
        startDate: new Date(),
        endDate: new Date(Date.now() + 86_400_000),
      },
    });
    const cookie = (await createSession(user.id)).split(";")[0]!;

    const app = express();
    app.use(mediaRouter());
    const appUrl = await listen(http.createServer(app), servers);
    const bareUrl = await listen(
      http.createServer((_req, res) => {
        res.writeHead(200, { "Content-Length": fs.statSync(bareFile).size, "Content-Type": "application/octet-stream" });
        fs.createReadStream(bareFile).pipe(res);
      }),
      servers,
    );
    const agent = new http.Agent({ keepAlive: true, maxSockets: 2 });
    const appRequest = [{ url: `${appUrl}/packages/bench.zip`, headers: { Cookie: cookie } }];
    const bareRequest = [{ url: `${bareUrl}/bare.bin`, headers: {} }];
    // Warm-up (the first package request reads its caption and terms rows, and the page cache of the files).
    await throughput(agent, appRequest, 1);
    await throughput(agent, bareRequest, 1);

    global.gc?.();
    const rssBefore = process.memoryUsage().rss;
    let rssPeak = rssBefore;
    const bare: number[] = [];
    const appFigures: number[] = [];
    for (let round = 0; round < rounds; round++) {
      bare.push(await throughput(agent, bareRequest, 1));
      const sampler = setInterval(() => (rssPeak = Math.max(rssPeak, process.memoryUsage().rss)), 20);
      appFigures.push(await throughput(agent, appRequest, 1));
      clearInterval(sampler);
    }
    agent.destroy();
    const ratio = median(appFigures.map((a, i) => a / bare[i]!));
    const result = {
      packageMB,
      rounds,
      bareMBps: round1(median(bare)),
      appMBps: round1(median(appFigures)),
      ratio: Math.round(ratio * 1000) / 1000,
      target: 0.8,
      rssBeforeMB: round1(rssBefore / MB),
      rssPeakMB: round1(rssPeak / MB),
      pass: false,
    };
    // Flat memory: a package of hundreds of MB adds no more than a few buffers' worth.
    result.pass = result.ratio >= result.target && rssPeak - rssBefore < 64 * MB;
    return result;
  } finally {
    await Promise.all(servers.map((s) => new Promise((resolve) => s.close(resolve))));
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

export function formatPackageBench(r: PackageBenchResult) {
  return [
    `Downloading a ${r.packageMB} MB licence package (ZIP streamed from its files; median of ${r.rounds}; target ${r.target * 100}% of a bare file stream, flat memory)`,
    `  bare file stream ${r.bareMBps.toFixed(1).padStart(8)} MB/s   package ${r.appMBps.toFixed(1).padStart(8)} MB/s   ${(r.ratio * 100).toFixed(1)}%`,
    `  RSS ${r.rssBeforeMB.toFixed(0)} MB before, peak ${r.rssPeakMB.toFixed(0)} MB while packages streamed (+${(r.rssPeakMB - r.rssBeforeMB).toFixed(0)} MB)`,
    `  ${r.pass ? "PASS" : "BELOW TARGET"}`,
  ].join("\n");
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) {
  const result = await runPackageBench();
  console.log(formatPackageBench(result));
  console.log(JSON.stringify(result));
}
