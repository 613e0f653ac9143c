import crypto from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { Readable } from "node:stream";

// Streaming benchmark: a 50 MB object served (a) by the app's media router in an
// Express app, through the real access check, and (b) by a bare node:http server piping
// fs.createReadStream, in the same run. Full GETs and 1 MB ranges at random offsets, for a
// public preview (anonymous) and a protected full video (a premium user's session cookie).
// Target: the app keeps at least 80% of the bare server's throughput.
//
//   npx tsx bench/stream.ts           (or through bench/run.ts, which calls runStreamBench)

export type StreamFigure = { bareMBps: number; appMBps: number; ratio: number };
export type StreamBenchResult = {
  fileMB: number;
  rangeMB: number;
  concurrency: number;
  /** Full 50 MB GETs of a public preview, anonymous. */
  full: StreamFigure;
  /** 1 MB ranges at random offsets of a public preview, anonymous. */
  ranged: StreamFigure;
  /** 1 MB ranges of a protected full video, signed-in premium user (session + rights lookups). */
  rangedProtected: StreamFigure;
  target: number;
  pass: boolean;
};

type Options = { fileMB?: number; rangeMB?: number; fullRequests?: number; rangeRequests?: number; concurrency?: number; rounds?: number };

const MB = 1024 * 1024;

export async function runStreamBench(options: Options = {}): Promise<StreamBenchResult> {
  const { fileMB = 50, rangeMB = 1, fullRequests = 6, rangeRequests = 500, concurrency = 2, rounds = 3 } = options;

  // A store of its own: a temporary DATA_DIR and an in-memory database.
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "medanim-bench-stream-"));
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
    const { saveObject, localObjectFile } = await import("../app/lib/storage.server.ts");
    const { createSession } = await import("../app/lib/session.server.ts");
    const { prisma } = dbModule;

    // The 50 MB file, streamed into storage like any upload, attached as preview and full video.
    const preview = await saveObject({ body: randomStream(fileMB * MB), contentType: "video/mp4", kind: "preview" });
    const full = await saveObject({ body: randomStream(fileMB * MB), contentType: "video/mp4", kind: "video" });
    await prisma.animation.create({
      data: { title: "Bench", slug: "bench", description: "Streaming benchmark", previewVideo: preview.path, fullVideo: full.path },
    });
    const user = await prisma.user.create({
      data: { email: "bench@example.com", username: "bench", firstName: "B", lastName: "B", password: "x", accountType: "premium" },
    });
    const cookie = (await createSession(user.id)).split(";")[0]!;

    const app = express();
    app.use(mediaRouter());
    const appUrl = await listen(http.createServer(app), servers);
    const bareUrl = await listen(bareServer(localObjectFile(preview.id), localObjectFile(full.id)), servers);

    const size = fileMB * MB;
    const rangeBytes = rangeMB * MB;
    // The same random offsets for both servers.
    const offsets = Array.from({ length: rangeRequests }, () => Math.floor(Math.random() * (size - rangeBytes)));
    const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency * 2 });

    const fullJob = (base: string, objectPath: string) =>
      Array.from({ length: fullRequests }, () => ({ url: `${base}${objectPath}`, headers: {} as Record<string, string> }));
    const rangeJob = (base: string, objectPath: string, headers: Record<string, string> = {}) =>
      offsets.map((start) => ({ url: `${base}${objectPath}`, headers: { ...headers, Range: `bytes=${start}-${start + rangeBytes - 1}` } }));

    // Warm-up, then the two servers alternate in short batches (the same requests for both), so
    // a change in the machine's load touches both alike; the figures are medians over batches.
    await throughput(agent, rangeJob(appUrl, full.path, { Cookie: cookie }).slice(0, 50), concurrency);
    await throughput(agent, rangeJob(bareUrl, full.path).slice(0, 50), concurrency);
    const compare = async (bareRequests: Request[], appRequests: Request[], batch: number) => {
      const bare: number[] = [];
      const app: number[] = [];
      for (let round = 0; round < rounds; round++) {
        for (let from = 0; from < bareRequests.length; from += batch) {
          bare.push(await throughput(agent, bareRequests.slice(from, from + batch), concurrency));
          app.push(await throughput(agent, appRequests.slice(from, from + batch), concurrency));
        }
      }
      return { bare: median(bare), app: median(app), ratio: median(app.map((a, i) => a / bare[i]!)) };
    };
    const fullResult = await compare(fullJob(bareUrl, preview.path), fullJob(appUrl, preview.path), 1);
    const rangedResult = await compare(rangeJob(bareUrl, preview.path), rangeJob(appUrl, preview.path), 25);
    const protectedResult = await compare(rangeJob(bareUrl, full.path), rangeJob(appUrl, full.path, { Cookie: cookie }), 25);
    agent.destroy();

    const figure = ({ bare, app: appMBps, ratio }: { bare: number; app: number; ratio: number }): StreamFigure => ({
      bareMBps: round1(bare),
      appMBps: round1(appMBps),
      ratio: Math.round(ratio * 1000) / 1000,
    });
    const result = {
      fileMB,
      rangeMB,
      concurrency,
      full: figure(fullResult),
      ranged: figure(rangedResult),
      rangedProtected: figure(protectedResult),
      target: 0.8,
      pass: false,
    };
    result.pass = [result.full, result.ranged, result.rangedProtected].every((f) => f.ratio >= result.target);
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

/** The baseline: what Node does with no framework, no access check and no headers logic. */
function bareServer(previewFile: string, fullFile: string) {
  return http.createServer((req, res) => {
    const file = req.url?.includes(path.basename(fullFile)) ? fullFile : previewFile;
    const size = fs.statSync(file).size;
    const match = /^bytes=(\d+)-(\d+)$/.exec(req.headers.range ?? "");
    if (match) {
      const start = Number(match[1]);
      const end = Math.min(Number(match[2]), size - 1);
      res.writeHead(206, { "Content-Length": end - start + 1, "Content-Range": `bytes ${start}-${end}/${size}`, "Content-Type": "video/mp4" });
      fs.createReadStream(file, { start, end }).pipe(res);
      return;
    }
    res.writeHead(200, { "Content-Length": size, "Content-Type": "video/mp4" });
    fs.createReadStream(file).pipe(res);
  });
}

export function randomStream(total: number) {
  let sent = 0;
  return new Readable({
    read() {
      if (sent >= total) return this.push(null);
      const chunk = crypto.randomBytes(Math.min(MB, total - sent));
      sent += chunk.length;
      this.push(chunk);
    },
  });
}

export async function listen(server: http.Server, servers: http.Server[]) {
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** Runs the requests `concurrency` at a time; returns MB/s of response bodies received. */
export async function throughput(agent: http.Agent, requests: Request[], concurrency: number) {
  let next = 0;
  let bytes = 0;
  const started = process.hrtime.bigint();
  async function lane() {
    while (next < requests.length) {
      const request = requests[next++]!;
      bytes += await download(agent, request.url, request.headers);
    }
  }
  await Promise.all(Array.from({ length: concurrency }, lane));
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  return bytes / MB / seconds;
}

function download(agent: http.Agent, url: string, headers: Record<string, string>) {
  return new Promise<number>((resolve, reject) => {
    http
      .get(url, { agent, headers }, (res) => {
        if (res.statusCode !== 200 && res.statusCode !== 206) {
          res.resume();
          return reject(new Error(`${url} answered ${res.statusCode}`));
        }
        let received = 0;
        res.on("data", (chunk: Buffer) => (received += chunk.length));
        res.on("end", () => resolve(received));
        res.on("error", reject);
      })
      .on("error", reject);
  });
}

export type Request = { url: string; headers: Record<string, string> };

export function median(values: number[]) {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

export function round1(n: number) {
  return Math.round(n * 10) / 10;
}

export function formatStreamBench(r: StreamBenchResult) {
  const line = (name: string, f: StreamFigure) =>
    `  ${name.padEnd(34)} bare ${f.bareMBps.toFixed(1).padStart(8)} MB/s   app ${f.appMBps.toFixed(1).padStart(8)} MB/s   ${(f.ratio * 100).toFixed(1)}%`;
  return [
    `Streaming a ${r.fileMB} MB object (${r.concurrency} concurrent requests; target ${r.target * 100}% of the bare server)`,
    line("full GETs, public preview", r.full),
    line(`${r.rangeMB} MB ranges, public preview`, r.ranged),
    line(`${r.rangeMB} MB ranges, protected full video`, r.rangedProtected),
    `  ${r.pass ? "PASS" : "BELOW TARGET"}`,
  ].join("\n");
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) {
  const result = await runStreamBench();
  console.log(formatStreamBench(result));
  console.log(JSON.stringify(result));
}
