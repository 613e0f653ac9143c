// `npm run bench [-- --large] [-- --duration=5 --connections=20 --no-build --quick --load-only]`
//
// Starts the production build on a freshly seeded database and drives its targets with
// autocannon: the home and an animation page for a visitor (from the page cache) and for a
// signed-in member (rendered), /api/animations?page=1&limit=6&light=true, /api/categories/main
// and the licensed embed. Each is measured, in the same run, against
//   - the floor: a one-route React Router app (bench/floor/) with the same versions and server
//     setup, answering a static page of the same document size and the same JSON bytes;
//   - the ceiling: a bare node:http server answering the same bytes (for reference).
// Targets: a visitor's pages >= 300% of the floor page with p99 <= 30 ms, a member's
// >= 60%, public JSON >= 100% of the floor resource route, the embed >= 80% of the floor page.
// `--large` adds 10,000 animations and checks that home, search and category pages stay
// within 2x of their small-catalogue figures, with the page and catalogue caches off (database
// work only) and on (what visitors get),
// and reads the whole sitemap of 100,000 animations (bench/sitemap.ts; `--sitemap-animations=N`).
// Finally it runs the media streaming benchmark (bench/stream.ts) when present, the media
// pipeline's transcoding speed (bench/transcode.ts; a 60 s 1080p source, 20 s with `--quick`;
// skipped without ffmpeg), with `--playback` a 2160p master played on a throttled phone, HLS
// against the one file (bench/playback.ts), and a bulk e-mail campaign of 10,000 recipients to
// a local SMTP sink (bench/campaign.ts). Last, the load test: a few minutes of mixed traffic from
// 50 visitors, p50/p95/p99 per step (bench/load.ts; `--load-only`, `--load-duration=SECONDS`,
// `--load-connections=N`, 30 s with `--quick`).
import { execFile, spawnSync } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type autocannon from "autocannon";
import { generate, generateSecret } from "otplib";
import { fmt, get, type Got, groupCpuMs, root, secrets, seedDemo, start, stop, stopAll, table, waitFor, withDatabase } from "./support.ts";

const floorDir = path.join(root, "bench/floor");
const tsx = path.join(root, "node_modules/.bin/tsx");

const argv = process.argv.slice(2);
const flag = (name: string) => argv.includes(`--${name}`);
const option = (name: string, fallback: number) => {
  const hit = argv.find((a) => a.startsWith(`--${name}=`));
  return hit ? Number(hit.split("=")[1]) : fallback;
};
const LARGE = flag("large");
const DURATION = option("duration", 5);
const CONNECTIONS = option("connections", 20);
const LARGE_COUNT = option("large-count", 10_000);
const LARGE_USERS = option("large-users", 100_000);
const LARGE_PAYMENTS = option("large-payments", 1_000_000);
const BASE_PORT = option("port", 3290);
const PORTS = { app: BASE_PORT, floor: BASE_PORT + 1, ceiling: BASE_PORT + 2 };
const BUILD_DIR = process.env.BUILD_DIR ?? "build";
const QUICK = flag("quick");
const LOAD_ONLY = flag("load-only");
// The load test (bench/load.ts): a few minutes of mixed traffic, 30 s with --quick.
const LOAD_DURATION = option("load-duration", QUICK ? 30 : 180);
const LOAD_CONNECTIONS = option("load-connections", 50);
const LOAD_THINK_MS = option("load-think-ms", 1000);
const LOAD_PORT = BASE_PORT + 3;

const log = (...parts: unknown[]) => console.log(...parts);

// ---------------------------------------------------------------------------------------------
// Builds

function newestMtime(dir: string): number {
  if (fs.statSync(dir).isFile()) return fs.statSync(dir).mtimeMs;
  let newest = 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) newest = Math.max(newest, fs.statSync(path.join(entry.parentPath, entry.name)).mtimeMs);
  }
  return newest;
}

function buildIfNeeded(label: string, cwd: string, output: string, sources: string[], env: NodeJS.ProcessEnv = {}) {
  const target = path.join(cwd, output);
  const stale = !fs.existsSync(target) || sources.some((dir) => fs.existsSync(dir) && newestMtime(dir) > fs.statSync(target).mtimeMs);
  if (!stale) return;
  log(`Building ${label}...`);
  const result = spawnSync("npx", ["react-router", "build"], { cwd, stdio: ["ignore", "ignore", "inherit"], env: { ...process.env, ...env } });
  if (result.status !== 0) throw new Error(`${label} build failed`);
}

// ---------------------------------------------------------------------------------------------
// Data

/** `/embed/{animationId}?licence={id}` for the demo member's active individual licence. */
async function demoEmbedPath(appUrl: string) {
  const mine = (await (await fetch(`${appUrl}/api/subscriptions/me`, { headers: await memberHeaders(appUrl) })).json()) as Array<{
    id: string;
    type: string;
    status: string;
    animationId: string | null;
    endDate: string | null;
  }>;
  const licence = mine.find((s) => s.type === "individual" && s.status === "active" && s.animationId && new Date(s.endDate ?? 0) > new Date());
  if (!licence) throw new Error("the demo member holds no active individual licence: no embed to measure");
  return `/embed/${licence.animationId}?licence=${licence.id}`;
}

/** The embed's bytes before the video: the document, its scripts' count and its poster (its stylesheet is the site's, cached). */
async function embedBytes(appUrl: string, page: Got) {
  const html = page.body.toString();
  const poster = /poster="([^"]+)"/.exec(html)?.[1];
  const posterAnswer = poster ? await get(appUrl + poster) : null;
  const scripts = (html.match(/<script/g) ?? []).length;
  const documentKb = page.wireBytes / 1024;
  return [
    `${documentKb < 15 ? "PASS" : "FAIL"}  embed player: ${fmt(documentKb, 1)} KB on the wire (${fmt(page.body.length / 1024, 1)} KB uncompressed), ${scripts} scripts (target under 15 KB before the video)`,
    posterAnswer === null
      ? "      no poster; the video is fetched only when the viewer presses play"
      : posterAnswer.status === 200
        ? `      its poster (the animation's cover image, shown until play) adds ${fmt(posterAnswer.wireBytes / 1024, 1)} KB; the video is fetched only when the viewer presses play`
        : `      its poster (the animation's cover image) answered ${posterAnswer.status} here: not measured; the video is fetched only when the viewer presses play`,
  ];
}

const WORDS =
  "anterior posterior lateral medial laser graft valve bypass fusion release repair reconstruction implant incision suture cartilage tendon ligament nerve artery".split(
    " ",
  );

/**
 * `count` extra animations spread over every subcategory but `keep` (whose listing page is
 * measured: its content stays the same, so the comparison measures the database work, not a
 * longer page), inserted in bulk.
 */
async function addLargeCatalogue(dataDir: string, count: number, keep: string) {
  await withDatabase(dataDir, async (prisma) => {
    const categories = await prisma.category.findMany({ where: { parentId: { not: null }, id: { not: keep } }, select: { id: true } });
    const targets = categories.length ? categories : await prisma.category.findMany({ select: { id: true } });
    const doctors = await prisma.doctor.findMany({ select: { id: true } });
    const started = new Date(Date.UTC(2020, 0, 1)).getTime();
    for (let offset = 0; offset < count; offset += 1000) {
      const rows = Array.from({ length: Math.min(1000, count - offset) }, (_, i) => {
        const n = offset + i;
        const word = (k: number) => WORDS[(n * 7 + k * 13) % WORDS.length];
        return {
          id: crypto.randomUUID(),
          title: `${word(1)} ${word(2)} ${word(3)} study ${n}`,
          slug: `bench-animation-${n}`,
          description: `A ${word(4)} ${word(5)} procedure, step by step (${n}).`,
          categoryId: targets[n % targets.length]?.id ?? null,
          duration: 60 + (n % 300),
          views: n % 1000,
          createdAt: new Date(started + n * 1000),
        };
      });
      await prisma.animation.createMany({ data: rows });
      if (doctors.length) {
        await prisma.animationDoctor.createMany({ data: rows.map((r, i) => ({ animationId: r.id, doctorId: doctors[i % doctors.length]!.id })) });
      }
    }
  });
}

/**
 * The back office's scale: 100,000 users, 1,000,000 payments over three years, 50,000
 * subscriptions and 100,000 audit rows, inserted with set-based SQL in chunks (the counters'
 * statement triggers see each chunk once).
 */
async function addLargeBackOffice(dataDir: string, { users, payments }: { users: number; payments: number }) {
  await withDatabase(dataDir, async (prisma) => {
    const run = (sql: string) => prisma.$executeRawUnsafe(sql);
    for (let from = 1; from <= users; from += 50_000) {
      const to = Math.min(users, from + 49_999);
      await run(`INSERT INTO "User" ("id", "email", "username", "password", "firstName", "lastName", "isEmailVerified", "createdAt", "updatedAt")
        SELECT gen_random_uuid(), 'bench-' || n || '@example.test', 'bench_' || n, 'x', 'Bench', 'Member ' || n, n % 3 <> 0,
               now() - (n || ' minutes')::interval, now()
        FROM generate_series(${from}, ${to}) AS n`);
    }
    await run(`CREATE TEMP TABLE bench_users AS SELECT "id", row_number() OVER (ORDER BY "email") AS rn FROM "User" WHERE "email" LIKE 'bench-%'`);
    await run(`CREATE INDEX ON bench_users (rn)`);
    for (let from = 1; from <= payments; from += 100_000) {
      const to = Math.min(payments, from + 99_999);
      await run(`INSERT INTO "Payment" ("id", "userId", "amount", "currency", "status", "description", "createdAt", "updatedAt")
        SELECT gen_random_uuid(), u."id", 99, 'usd', (CASE WHEN n % 20 = 0 THEN 'refunded' ELSE 'completed' END)::"PaymentStatus",
               'Premium yearly subscription', now() - ((n % 1095) || ' days')::interval - ((n % 1440) || ' minutes')::interval, now()
        FROM generate_series(${from}, ${to}) AS n JOIN bench_users AS u ON u.rn = (n % ${users}) + 1`);
    }
    await run(`INSERT INTO "Subscription" ("id", "userId", "type", "status", "startDate", "endDate", "price", "createdAt", "updatedAt")
      SELECT gen_random_uuid(), u."id", 'global', (CASE WHEN u.rn % 2 = 0 THEN 'active' ELSE 'expired' END)::"SubscriptionStatus",
             now() - interval '100 days', now() + (CASE WHEN u.rn % 2 = 0 THEN interval '265 days' ELSE interval '-1 day' END), 99,
             now() - (u.rn || ' minutes')::interval, now()
      FROM bench_users AS u WHERE u.rn <= ${Math.min(50_000, users)}`);
    await run(`INSERT INTO "AuditLog" ("id", "actorEmail", "action", "entityType", "entityId", "summary", "createdAt")
      SELECT gen_random_uuid(), 'admin@medanim.local', 'animation.update', 'animation', n::text, 'Updated animation number ' || n,
             now() - (n || ' seconds')::interval
      FROM generate_series(1, 100000) AS n`);
  });
}

/**
 * The bench's admin gets an authenticator app, as decision 019 requires before the back office
 * opens: without one its rows would measure the redirect to the set-up walk-through.
 */
let adminTotpSecret: string | undefined;
async function enrolAdminTotp(dataDir: string) {
  // Sealed with the key the app is started with.
  process.env.MFA_ENCRYPTION_KEY = secrets.MFA_ENCRYPTION_KEY;
  (await import("../app/lib/env.server.ts")).resetEnv();
  const { sealSecret } = await import("../app/lib/secret-box.server.ts");
  const secret = generateSecret();
  await withDatabase(dataDir, async (prisma) => {
    const admin = await prisma.user.findUniqueOrThrow({ where: { email: "admin@medanim.local" } });
    await prisma.totpFactor.create({ data: { userId: admin.id, secret: sealSecret(secret), confirmedAt: new Date() } });
  });
  adminTotpSecret = secret;
}

/**
 * An Authorization header for one of the seed's accounts, signed in through /api/auth/login
 * (and /api/auth/mfa/verify with the authenticator's code when the account has one).
 */
async function bearerFor(appUrl: string, email: string, password: string) {
  const post = async (path: string, json: unknown) =>
    (
      await fetch(`${appUrl}${path}`, { method: "POST", headers: { "Content-Type": "application/json", Origin: appUrl }, body: JSON.stringify(json) })
    ).json() as Promise<{
      accessToken?: string;
      mfaToken?: string;
      message?: string;
    }>;
  let body = await post("/api/auth/login", { email, password });
  if (body.mfaToken && adminTotpSecret)
    body = await post("/api/auth/mfa/verify", { mfaToken: body.mfaToken, code: await generate({ secret: adminTotpSecret }) });
  if (!body.accessToken) throw new Error(`${email} could not sign in: ${body.message ?? "no token"}`);
  return { Authorization: `Bearer ${body.accessToken}` };
}

/** The demo member: a signed-in visitor, whose pages are rendered for them. */
const memberHeaders = (appUrl: string) => bearerFor(appUrl, "member@medanim.local", "member12345");

/** The seeded admin (pages accept a bearer token as well as a session cookie). */
const adminHeaders = (appUrl: string) => bearerFor(appUrl, "admin@medanim.local", "admin12345");

// ---------------------------------------------------------------------------------------------
// Measurement

type Figure = { rps: number; p99: number; mean: number; non2xx: number; errors: number; cpuMsPerRequest: number | null };

/**
 * One autocannon run, in a process of its own: the bench process holds the seed's database
 * client and much else, and its garbage collections would count as the server's latency.
 */
function cannon(url: string, duration: number, headers: Record<string, string> = {}): Promise<autocannon.Result> {
  const args = ["-j", "-c", String(CONNECTIONS), "-d", String(duration)];
  for (const [name, value] of Object.entries({ "accept-encoding": "gzip", ...headers })) args.push("-H", `${name}: ${value}`);
  return new Promise((resolve, reject) => {
    execFile(path.join(root, "node_modules/.bin/autocannon"), [...args, url], { maxBuffer: 16 * 1024 * 1024 }, (error, stdout) =>
      error ? reject(error) : resolve(JSON.parse(stdout) as autocannon.Result),
    );
  });
}

const SLICES = 5;

/**
 * Drives each server in turn, in short interleaved slices, so that a burst of load from
 * elsewhere on the machine falls on all of them alike. Also records the server's own CPU time
 * per request, which hardly depends on that load at all.
 */
async function measureTogether(targets: Array<{ url: string; pgid: number; headers?: Record<string, string> }>): Promise<Figure[]> {
  for (const t of targets) await cannon(t.url, 1, t.headers); // warm-up: JIT, caches, connections
  const sums = targets.map(() => ({ requests: 0, seconds: 0, latencySum: 0, p99s: [] as number[], non2xx: 0, errors: 0, cpu: 0 }));
  const slice = Math.max(1, DURATION / SLICES);
  for (let round = 0; round < SLICES; round++) {
    for (const [i, t] of targets.entries()) {
      const cpuBefore = groupCpuMs(t.pgid);
      const r = await cannon(t.url, slice, t.headers);
      const cpuAfter = groupCpuMs(t.pgid);
      const sum = sums[i]!;
      sum.requests += r.requests.total;
      sum.seconds += slice;
      sum.latencySum += r.latency.average * r.requests.total;
      sum.p99s.push(r.latency.p99);
      sum.non2xx += r.non2xx;
      sum.errors += r.errors + r.timeouts;
      if (cpuBefore !== null && cpuAfter !== null) sum.cpu += cpuAfter - cpuBefore;
    }
  }
  return sums.map((sum) => ({
    rps: sum.requests / sum.seconds,
    mean: sum.requests ? sum.latencySum / sum.requests : 0,
    p99: sum.p99s.sort((a, b) => a - b)[Math.floor(sum.p99s.length / 2)] ?? 0,
    non2xx: sum.non2xx,
    errors: sum.errors,
    cpuMsPerRequest: sum.requests && sum.cpu ? sum.cpu / sum.requests : null,
  }));
}

const pct = (a: number, b: number) => (b > 0 ? (100 * a) / b : 0);

/** The gzip bytes of every script a page loads (module preloads and module scripts). */
async function pageJsBytes(base: string, html: string) {
  const srcs = new Set<string>();
  for (const m of html.matchAll(/<link rel="modulepreload" href="([^"]+)"/g)) srcs.add(m[1]!);
  for (const m of html.matchAll(/import\s*(?:[^"']*from\s*)?["'](\/assets\/[^"']+)["']/g)) srcs.add(m[1]!);
  // A page that does not hydrate names its script by a tag (decision 025).
  for (const m of html.matchAll(/<script type="module" src="([^"]+)"/g)) srcs.add(m[1]!);
  let total = 0;
  for (const src of srcs) total += (await get(base + src)).wireBytes;
  return { total, files: srcs.size };
}

// ---------------------------------------------------------------------------------------------

async function main() {
  log(`Medanim benchmark: ${DURATION} s per target, ${CONNECTIONS} connections, ${os.cpus().length} CPUs, Node ${process.version}\n`);
  if (!flag("no-build")) {
    const sources = ["app", "public", "vite.config.ts", "vite.static-page.ts"].map((name) => path.join(root, name));
    buildIfNeeded("the app", root, path.join(BUILD_DIR, "server/index.js"), sources, { BUILD_DIR });
  }
  if (LOAD_ONLY) return runLoad();
  buildIfNeeded("the floor app", floorDir, "build/server/index.js", [path.join(floorDir, "app"), path.join(floorDir, "vite.config.ts")]);

  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "medanim-bench-"));
  const workDir = fs.mkdtempSync(path.join(os.tmpdir(), "medanim-bench-work-"));
  log("Seeding a fresh database... (the app runs with MEDIA_CONCURRENCY=0: no transcodes while it is measured)");
  await seedDemo(dataDir);
  await enrolAdminTotp(dataDir);

  const appEnv = (extra: NodeJS.ProcessEnv = {}) => ({
    PORT: String(PORTS.app),
    DATA_DIR: dataDir,
    BUILD_DIR,
    NODE_ENV: "production",
    APP_URL: `http://localhost:${PORTS.app}`,
    LOG_LEVEL: "warn",
    DATABASE_URL: "",
    SMTP_URL: "",
    // A fresh demo queues a transcode per master: ffmpeg would take a core from the serving
    // measured here, and from the floor's slices unevenly (as in bench/load.ts).
    MEDIA_CONCURRENCY: "0",
    ...secrets,
    ...extra,
  });
  const startApp = async (extra: NodeJS.ProcessEnv = {}) => {
    const child = start("app", ["scripts/start.ts", "--no-build", "--no-seed"], appEnv(extra));
    await waitFor(`http://localhost:${PORTS.app}/healthz`);
    return child;
  };

  let app = await startApp();
  const appUrl = `http://localhost:${PORTS.app}`;

  // What to drive: the newest animation, a subcategory, a search term from real titles.
  const list = JSON.parse((await get(`${appUrl}/api/animations?limit=1&light=true`)).body.toString());
  const animation = list.animations[0];
  if (!animation) throw new Error("The seed has no animations: nothing to measure.");
  type Main = { id: string; slug: string; subcategories: Array<{ id: string; slug: string }> };
  const mains: Main[] = JSON.parse((await get(`${appUrl}/api/categories/main`)).body.toString());
  const main = mains.find((m) => m.subcategories.length > 0) ?? mains[0]!;
  const sub = main.subcategories[0] ?? main;
  const term = (animation.title.split(/\s+/).find((w: string) => w.length > 3) ?? animation.title).toLowerCase();

  // The licensed embed player under the demo member's active individual licence.
  const embedPath = await demoEmbedPath(appUrl);

  // A visitor's pages come from the page cache (decision 021), so at least
  // 3x the floor with p99 within 30 ms; a member's are rendered (60 % of the floor); public
  // JSON at least the floor's resource route answering the same bytes.
  const member = await memberHeaders(appUrl);
  type Target = {
    name: string;
    kind: "html" | "json";
    path: string;
    target: number;
    p99?: number;
    headers?: Record<string, string>;
    /** The embed: its bytes before the video are reported too. */
    embed?: true;
  };
  const targets: Target[] = [
    { name: "home page, visitor", kind: "html", path: "/", target: 300, p99: 30 },
    { name: "animation page, visitor", kind: "html", path: `/animations/${animation.slug}`, target: 300, p99: 30 },
    { name: "home page, member", kind: "html", path: "/", target: 60, headers: member },
    { name: "animation page, member", kind: "html", path: `/animations/${animation.slug}`, target: 60, headers: member },
    { name: "GET /api/animations (light)", kind: "json", path: "/api/animations?page=1&limit=6&light=true", target: 100 },
    { name: "GET /api/categories/main", kind: "json", path: "/api/categories/main", target: 100 },
    // The site's player alone in a bare React document (issue 46; until then a string-built
    // resource route, measured against the floor's resource route), per requesting site so never
    // kept: measured against the floor's React page of the same length. Framed as the licensee's
    // preview frames it (the domain lock gives media to a frame only): the player itself, not the
    // card a top-level request gets.
    {
      name: "embed player (/embed)",
      kind: "html",
      path: embedPath,
      target: 80,
      headers: { "Sec-Fetch-Dest": "iframe", Referer: `${appUrl}/my-animations` },
      embed: true,
    },
  ];

  // The bytes each target answers, for the floor and the ceiling to answer the same.
  const captured = await Promise.all(targets.map((t) => get(appUrl + t.path, t.headers)));
  for (const [i, t] of targets.entries()) {
    if (captured[i]!.status !== 200) throw new Error(`${t.path} answered ${captured[i]!.status}`);
  }
  const floorPayloads: Record<string, string> = {};
  const ceilingPayloads: Record<string, { contentType: string; body: string }> = {};
  targets.forEach((t, i) => {
    const body = captured[i]!.body.toString();
    if (t.kind !== "html") floorPayloads[`t${i}`] = body;
    ceilingPayloads[`t${i}`] = { contentType: String(captured[i]!.headers["content-type"]), body };
  });
  fs.writeFileSync(path.join(workDir, "floor.json"), JSON.stringify(floorPayloads));
  fs.writeFileSync(path.join(workDir, "ceiling.json"), JSON.stringify(ceilingPayloads));

  const floor = start(
    "floor",
    ["server.ts"],
    { PORT: String(PORTS.floor), FLOOR_PAYLOADS: path.join(workDir, "floor.json"), LOG_LEVEL: "warn", NODE_ENV: "production" },
    floorDir,
  );
  const ceiling = start("ceiling", ["bench/ceiling.ts"], { PORT: String(PORTS.ceiling), CEILING_PAYLOADS: path.join(workDir, "ceiling.json") });
  const floorUrl = `http://localhost:${PORTS.floor}`;
  const ceilingUrl = `http://localhost:${PORTS.ceiling}`;
  await waitFor(`${floorUrl}/page/0`);
  await waitFor(`${ceilingUrl}/t0`);

  // Pad the floor page so its document is as long as the app's.
  const floorOverhead = (await get(`${floorUrl}/page/0`)).body.length;
  const floorPath = (i: number) => (targets[i]!.kind === "html" ? `/page/${Math.max(0, captured[i]!.body.length - floorOverhead)}` : `/data/t${i}`);

  const rows: string[][] = [];
  const verdicts: string[] = [];
  const embedVerdict: string[] = [];
  for (const [i, t] of targets.entries()) {
    const floorDoc = await get(floorUrl + floorPath(i));
    const [a, f, c] = await measureTogether([
      { url: appUrl + t.path, pgid: app.pid!, headers: t.headers },
      { url: floorUrl + floorPath(i), pgid: floor.pid! },
      { url: `${ceilingUrl}/t${i}`, pgid: ceiling.pid! },
    ]);
    const ratio = pct(a.rps, f.rps);
    const cpuRatio = a.cpuMsPerRequest && f.cpuMsPerRequest ? pct(f.cpuMsPerRequest, a.cpuMsPerRequest) : null;
    const target = t.target;
    if (t.embed) embedVerdict.push(...(await embedBytes(appUrl, captured[i]!)));
    const cpu = (x: Figure) => (x.cpuMsPerRequest === null ? "-" : fmt(x.cpuMsPerRequest, 2));
    rows.push([
      t.name,
      `${fmt(captured[i]!.body.length / 1024, 1)}/${fmt(floorDoc.body.length / 1024, 1)} KB`,
      captured[i]!.headers["content-encoding"] === "gzip" ? "gzip" : "none",
      fmt(a.rps),
      `${fmt(a.p99)} ms`,
      cpu(a),
      fmt(f.rps),
      `${fmt(f.p99)} ms`,
      cpu(f),
      `${fmt(ratio)}%`,
      cpuRatio === null ? "-" : `${fmt(cpuRatio)}%`,
      fmt(c.rps),
      `${fmt(pct(a.rps, c.rps), 1)}%`,
    ]);
    const p99Ok = t.p99 === undefined || a.p99 <= t.p99;
    verdicts.push(
      `${ratio >= target && p99Ok ? "PASS" : "FAIL"}  ${t.name}: ${fmt(ratio)}% of the floor's throughput (target ${target}%)` +
        (t.p99 === undefined ? "" : `, p99 ${fmt(a.p99)} ms (target <= ${t.p99} ms)`) +
        (cpuRatio === null ? "" : `; by CPU time per request ${fmt(cpuRatio)}%`),
    );
    if (a.non2xx || a.errors) verdicts.push(`      (${a.non2xx} non-2xx answers, ${a.errors} errors from the app)`);
  }

  log(`\nThroughput (req/s), p99 latency and server CPU time per request; documents app/floor, uncompressed\n`);
  log(
    table(
      [
        "target",
        "document",
        "encoding",
        "app req/s",
        "app p99",
        "app CPU ms/req",
        "floor req/s",
        "floor p99",
        "floor CPU ms/req",
        "app/floor",
        "app/floor by CPU",
        "ceiling req/s",
        "app/ceiling",
      ],
      rows,
    ),
  );
  log(`\n${verdicts.join("\n")}`);
  log(`\n${embedVerdict.join("\n")}`);

  const homeHtml = captured[0]!.body.toString();
  const homeJs = await pageJsBytes(appUrl, homeHtml);
  const floorJs = await pageJsBytes(floorUrl, (await get(`${floorUrl}/page/0`)).body.toString());
  // At most 85 KB. The floor page is React and React Router alone: a page that hydrates
  // cannot go below it (decision 022); the home page does not hydrate (decision 025).
  const homeJsKb = homeJs.total / 1024;
  log(
    `\n${homeJsKb <= 85 ? "PASS" : "FAIL"}  Home page JavaScript: ${fmt(homeJsKb, 1)} KB gzip in ${homeJs.files} files ` +
      `(target ≤ 85 KB; the floor page alone loads ${fmt(floorJs.total / 1024, 1)} KB in ${floorJs.files} files)`,
  );

  await stop(floor);
  await stop(ceiling);

  if (LARGE) {
    // With the caches off, these figures are the database work itself; with them on, what a
    // visitor gets.
    const pages = [
      { name: "home page", path: "/" },
      { name: "search page", path: `/search?q=${encodeURIComponent(term)}` },
      { name: "category listing", path: `/category/${sub.slug}` },
      { name: "home, main category", path: `/?category=${main.slug}` },
    ];
    // The back office, signed in as the seeded admin (a bearer token).
    const adminPages = [
      { name: "admin dashboard", path: "/admin" },
      { name: "dashboard call", path: "/api/admin/dashboard" },
      { name: "admin animations", path: "/admin/animations" },
      { name: "admin animations, search", path: `/admin/animations?search=${encodeURIComponent(term)}` },
      { name: "admin users", path: "/admin/users" },
      { name: "admin users, search", path: "/admin/users?search=member" },
      { name: "admin subscriptions", path: "/admin/subscriptions?status=active" },
      { name: "admin refunds", path: "/admin/refunds" },
      { name: "admin doctors", path: "/admin/doctors" },
      { name: "admin categories", path: "/admin/categories?tab=sub" },
      { name: "admin pages", path: "/admin/pages" },
      { name: "admin audit log", path: "/admin/audit" },
    ];
    const measureAll = async () => {
      const headers = await adminHeaders(appUrl);
      const figures: Figure[] = [];
      for (const p of pages) figures.push((await measureTogether([{ url: appUrl + p.path, pgid: app.pid! }]))[0]!);
      for (const p of adminPages) figures.push((await measureTogether([{ url: appUrl + p.path, pgid: app.pid!, headers }]))[0]!);
      return figures;
    };
    // Visitors' pages as served: the page cache and the data caches on (decision 021).
    const measureCached = async () => {
      const figures: Figure[] = [];
      for (const p of pages) figures.push((await measureTogether([{ url: appUrl + p.path, pgid: app.pid! }]))[0]!);
      return figures;
    };
    const uncached = { CATALOGUE_CACHE_MS: "0", PAGE_CACHE_MS: "0" };
    const smallCached = await measureCached();
    await stop(app);
    app = await startApp(uncached);
    const small = await measureAll();
    await stop(app);
    log(`\nAdding ${fmt(LARGE_COUNT)} animations, ${fmt(LARGE_USERS)} users, ${fmt(LARGE_PAYMENTS)} payments...`);
    const began = Date.now();
    await addLargeCatalogue(dataDir, LARGE_COUNT, sub.id);
    await addLargeBackOffice(dataDir, { users: LARGE_USERS, payments: LARGE_PAYMENTS });
    log(`  inserted in ${fmt((Date.now() - began) / 1000, 1)} s`);
    app = await startApp(uncached);
    const total = JSON.parse((await get(`${appUrl}/api/animations?limit=1&light=true`)).body.toString()).total;
    const large = await measureAll();
    await stop(app);
    app = await startApp();
    const largeCached = await measureCached();
    const compare = (measured: Array<{ name: string; path: string }>, smallFigures: Figure[], largeFigures: Figure[]) =>
      measured.map((p, i) => {
        const [sm, lg] = [smallFigures[i]!, largeFigures[i]!];
        // Server CPU time per request is the work itself; latency under load also measures the queue.
        const ratio = sm.cpuMsPerRequest && lg.cpuMsPerRequest ? lg.cpuMsPerRequest / sm.cpuMsPerRequest : lg.mean / Math.max(0.001, sm.mean);
        return [
          `${p.name} (${p.path})`,
          `${fmt(sm.rps)} / ${fmt(lg.rps)}`,
          `${fmt(sm.mean, 1)} / ${fmt(lg.mean, 1)} ms`,
          sm.cpuMsPerRequest && lg.cpuMsPerRequest ? `${fmt(sm.cpuMsPerRequest, 2)} / ${fmt(lg.cpuMsPerRequest, 2)} ms` : "-",
          `${fmt(ratio, 2)}x`,
          // A refused or failing answer is cheap: a ratio over those would measure nothing.
          sm.non2xx || lg.non2xx ? "non-2xx!" : ratio <= 2 ? "PASS" : "FAIL",
        ];
      });
    const headings = ["page", "req/s", "mean latency", "CPU per request", "large/small", "<= 2x"];
    log(
      `\nLarge database (${fmt(total)} animations, ${fmt(LARGE_USERS)} more users, ${fmt(LARGE_PAYMENTS)} payments), page and catalogue caches off: small vs large\n`,
    );
    log(table(headings, compare([...pages, ...adminPages], small, large)));
    log(`\nThe same visitors' pages with the caches on (served from the page cache): small vs large\n`);
    log(table(headings, compare(pages, smallCached, largeCached)));

    // The sitemap at 100,000 animations: a database of its own, read through the route.
    const sitemap = (await import(path.join(root, "bench/sitemap.ts"))) as typeof import("./sitemap.ts");
    log("\nSitemap benchmark (bench/sitemap.ts)...");
    log(sitemap.formatSitemapBench(await sitemap.runSitemapBench(option("sitemap-animations", 100_000))));
  }
  await stop(app);

  // The media streaming benchmark, when the media work has provided it.
  try {
    const stream = (await import(path.join(root, "bench/stream.ts"))) as typeof import("./stream.ts");
    log("\nStreaming benchmark (bench/stream.ts)...");
    const result = await stream.runStreamBench();
    log(stream.formatStreamBench(result));
  } catch (error) {
    if ((error as { code?: string }).code === "ERR_MODULE_NOT_FOUND") log("\n(bench/stream.ts not found: streaming benchmark skipped)");
    else throw error;
  }

  // A 200 MB licence package streamed as a ZIP from its files, against a bare file stream.
  const packaged = (await import(path.join(root, "bench/package.ts"))) as typeof import("./package.ts");
  log("\nPackage download benchmark (bench/package.ts)...");
  log(packaged.formatPackageBench(await packaged.runPackageBench({ packageMB: QUICK ? 50 : 200 })));

  // The media pipeline's speed: × realtime and the preview's time to playable.
  const transcode = (await import(path.join(root, "bench/transcode.ts"))) as typeof import("./transcode.ts");
  log("\nTranscoding benchmark (bench/transcode.ts)...");
  const transcoded = await transcode.runTranscodeBench({ seconds: QUICK ? 20 : 60 });
  log(transcoded ? transcode.formatTranscodeBench(transcoded) : "(ffmpeg not found: transcoding benchmark skipped)");

  // Playback on a throttled phone, HLS against the one file: a 2160p transcode and
  // two Chromium sessions, about five minutes, so only with --playback. Its own process: it
  // runs the production build in-process with an environment of its own.
  if (flag("playback")) {
    log("\nPlayback benchmark (bench/playback.ts)...");
    const played = spawnSync(tsx, [path.join(root, "bench/playback.ts")], { cwd: root, encoding: "utf8", env: { ...process.env, BUILD_DIR } });
    log(played.status === 0 ? played.stdout.trim() : `(playback benchmark failed: ${played.stderr.trim().split("\n").slice(-3).join(" ")})`);
  }

  // Bulk e-mail: a campaign of 10,000 recipients to a local SMTP sink.
  const campaign = (await import(path.join(root, "bench/campaign.ts"))) as typeof import("./campaign.ts");
  log("\nCampaign benchmark (bench/campaign.ts)...");
  log(campaign.formatCampaignBench(await campaign.runCampaignBench(10_000)));

  fs.rmSync(dataDir, { recursive: true, force: true });
  fs.rmSync(workDir, { recursive: true, force: true });

  await runLoad();
}

/** Mixed traffic of visitors and members on a server and database of its own. */
async function runLoad() {
  const load = (await import(path.join(root, "bench/load.ts"))) as typeof import("./load.ts");
  log(`\nLoad test (bench/load.ts): ${LOAD_CONNECTIONS} visitors for ${LOAD_DURATION} s on port ${LOAD_PORT}...`);
  const result = await load.runLoadBench({
    port: LOAD_PORT,
    duration: LOAD_DURATION,
    connections: LOAD_CONNECTIONS,
    thinkMs: LOAD_THINK_MS,
    buildDir: BUILD_DIR,
  });
  log(load.formatLoadBench(result));
}

try {
  await main();
} catch (error) {
  console.error(error instanceof Error ? error.stack : error);
  process.exitCode = 1;
} finally {
  await stopAll();
}
