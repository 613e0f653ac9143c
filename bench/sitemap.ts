import fs from "node:fs";
import os from "node:os";
import path from "node:path";

// Sitemap benchmark: a catalogue of 100,000 active animations (every one with a cover
// and a public preview, so every entry carries its video extension; descriptions of about 600
// characters with text to escape), then the whole sitemap as a crawler reads it: the index, then
// every file it lists, through the route's loader (app/routes/public/sitemap.ts), with the
// caches as in production: the index pays for the plan (one scan of the active animations),
// each file then for its own rows and XML. Reports the files, URLs and bytes per file, and the time.
//
//   npx tsx bench/sitemap.ts [animations]   (or `npm run bench -- --large`, which calls runSitemapBench)

export type SitemapBenchResult = {
  animations: number;
  insertMs: number;
  indexMs: number;
  totalMs: number;
  files: Array<{ path: string; urls: number; bytes: number; ms: number }>;
};

const MB = 1024 * 1024;
/** The protocol's limits per file. */
const MAX_URLS = 50_000;
const MAX_BYTES = 50 * MB;

export async function runSitemapBench(animations = 100_000): Promise<SitemapBenchResult> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "medanim-bench-sitemap-"));
  const saved = {
    DATA_DIR: process.env.DATA_DIR,
    LOG_LEVEL: process.env.LOG_LEVEL,
    CATALOGUE_CACHE_MS: process.env.CATALOGUE_CACHE_MS,
    APP_URL: process.env.APP_URL,
  };
  Object.assign(process.env, { DATA_DIR: dataDir, LOG_LEVEL: "silent", CATALOGUE_CACHE_MS: "2000", APP_URL: "https://medanim.example" });
  const { resetEnv } = await import("../app/lib/env.server.ts");
  resetEnv();
  const dbModule = await import("../app/lib/db.server.ts");
  const db = dbModule.openDatabase({ memory: true });
  dbModule.setDb(db);
  try {
    await db.migrate();
    const { prisma } = dbModule;
    let began = performance.now();
    const category = await prisma.category.create({ data: { name: "Bench", slug: "bench" } });
    for (let from = 1; from <= animations; from += 50_000) {
      const to = Math.min(animations, from + 49_999);
      await prisma.$executeRawUnsafe(`INSERT INTO "Animation" ("id", "title", "slug", "description", "coverImage", "previewVideo", "duration", "categoryId", "createdAt", "updatedAt")
        SELECT gen_random_uuid(), 'Procedure & recovery, part ' || n, 'bench_animation_' || n,
               repeat('Step by step: the incision, the graft & the "closure" <in theatre>. ', 9) || n,
               '/objects/uploads/' || gen_random_uuid(), '/objects/uploads/' || gen_random_uuid(), 60 + n % 300, '${category.id}'::uuid,
               timestamp '2020-01-01' + (n || ' seconds')::interval, now()
        FROM generate_series(${from}, ${to}) AS n`);
    }
    const insertMs = performance.now() - began;

    const { loader } = await import("../app/routes/public/sitemap.ts");
    const origin = "https://medanim.example";
    const read = async (target: string) => {
      const started = performance.now();
      const response = (await loader({ request: new Request(origin + target), params: {}, context: {} } as never)) as Response;
      if (response.status !== 200) throw new Error(`${target} answered ${response.status}`);
      const body = await response.text();
      return { body, ms: performance.now() - started };
    };
    began = performance.now();
    const index = await read("/sitemap.xml");
    const files: SitemapBenchResult["files"] = [];
    for (const [, loc] of index.body.matchAll(/<loc>([^<]+)<\/loc>/g)) {
      const target = loc!.replace(/&amp;/g, "&").slice(origin.length);
      const file = await read(target);
      const urls = (file.body.match(/<url>/g) ?? []).length;
      const bytes = Buffer.byteLength(file.body);
      if (urls > MAX_URLS || bytes > MAX_BYTES) throw new Error(`${target}: ${urls} URLs, ${bytes} bytes: over the protocol's limits`);
      files.push({ path: target, urls, bytes, ms: file.ms });
    }
    const totalMs = performance.now() - began;
    const listed = files.filter((f) => f.path.startsWith("/sitemap-animations")).reduce((sum, f) => sum + f.urls, 0);
    if (listed !== animations) throw new Error(`the animation files list ${listed} of ${animations} animations`);
    return { animations, insertMs, indexMs: index.ms, totalMs, files };
  } finally {
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

export function formatSitemapBench(r: SitemapBenchResult) {
  const fmt = (n: number, digits = 0) => n.toLocaleString("en-US", { maximumFractionDigits: digits, minimumFractionDigits: digits });
  const animationFiles = r.files.filter((f) => f.path.startsWith("/sitemap-animations"));
  const largest = Math.max(...r.files.map((f) => f.bytes));
  return [
    `The sitemap of ${fmt(r.animations)} animations (each with a video entry; rows inserted in ${fmt(r.insertMs / 1000, 1)} s):`,
    `  index (with the plan's scan) in ${fmt(r.indexMs)} ms; ${r.files.length} files, ${animationFiles.length} of animations of at most ${fmt(Math.max(...animationFiles.map((f) => f.urls)))} URLs (limit ${fmt(MAX_URLS)});`,
    `  largest file ${fmt(largest / MB, 1)} MB (limit 50 MB); an animation file in ${fmt(Math.min(...animationFiles.map((f) => f.ms)))}-${fmt(Math.max(...animationFiles.map((f) => f.ms)))} ms;`,
    `  the whole sitemap (index and every file) in ${fmt(r.totalMs / 1000, 1)} s`,
  ].join("\n");
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) {
  console.log(formatSitemapBench(await runSitemapBench(Number(process.argv[2] ?? 100_000))));
}
