// The load test: what visitors and members do, at once, for minutes, against the
// production build on a freshly seeded embedded database. Run by `npm run bench` after the other
// parts (`--load-only` for just this, `--quick` for 30 s, `--load-duration=SECONDS`,
// `--load-connections=N`, default 50, `--load-think-ms=MS`, default 1000).
//
// Each autocannon connection is one visitor at a time, who pauses between an answer and the next
// click (0.5 to 1.5 times the think time). Without the pause 50 connections are a saturation
// test: their latency is 50 divided by the throughput, whatever the app does. A visit: home, a category page, an animation page, a search, two /api lists, a byte
// range of a preview; one visit in three is a member's, who goes on to sign in (the /api call or
// the page form, in turn), open a signed-in page, buy a licence in the local test mode (the /api
// checkout and its test-mode Pay) and play byte ranges of the full video just bought. Every
// visit is a new visitor: a new seeded account and a new client address.
//
// Rate limits stay as configured. Sign-in counts failures per address and account and clears
// them on success, checkouts refuse what is already held: a visitor per account, and accounts
// enough that none buys twice, keeps every answer a real one. The server runs behind a trusted
// proxy as in production (TRUST_PROXY=loopback) and each visitor sends its own X-Forwarded-For,
// so per-address counters see one visitor each instead of the whole test as one address.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import autocannon from "autocannon";
import { fmt, get, groupCpuMs, secrets, seedDemo, start, stop, table, waitFor, withDatabase } from "./support.ts";

export type LoadOptions = {
  port: number;
  /** Measured seconds (after the warm-up). */
  duration: number;
  connections: number;
  buildDir: string;
  warmupSeconds?: number;
  /** Mean pause of a visitor between an answer and its next request; 0 for none (a closed loop). */
  thinkMs: number;
  /** Seeded member accounts: one per member visit, with room to spare. */
  accounts?: number;
};

export type StepFigure = {
  step: string;
  requests: number;
  p50: number;
  p95: number;
  p99: number;
  max: number;
  /** Answers other than the step's expected ones (`Expect`), by status. */
  bad: Record<string, number>;
  /** Timeouts and connection errors. */
  errors: number;
};

export type LoadResult = {
  seconds: number;
  connections: number;
  thinkMs: number;
  steps: StepFigure[];
  total: StepFigure;
  visits: number;
  memberVisits: number;
  purchases: number;
  cutShort: number;
  loadBefore: number[];
  loadAfter: number[];
  /** The server's CPU time over the measured run (its process group, from /proc; null elsewhere). */
  serverCpuMs: number | null;
  cpus: number;
  serverSettings: string[];
  pass: boolean;
  verdict: string;
};

/** The issue's target: 0 errors and p99 under 500 ms for every step, at 50 visitors. */
const TARGET_P99_MS = 500;
const MEMBER_EVERY = 3;
const PASSWORD = "load-test-12345";
const USER_AGENT = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36";
const RANGE_BYTES = 64 * 1024;

type Catalogue = {
  animations: Array<{ id: string; slug: string; preview: { path: string; size: number } | null; full: { path: string; size: number } | null }>;
  categoryPaths: string[];
  terms: string[];
};

/** Members' accounts, made in one statement with one password hash: argon2 once, not per row. */
async function addMembers(dataDir: string, count: number) {
  await withDatabase(dataDir, async (prisma) => {
    const { hashPassword } = await import("../app/lib/crypto.server.ts");
    const hash = await hashPassword(PASSWORD);
    await prisma.$executeRawUnsafe(
      `INSERT INTO "User" ("id", "email", "username", "password", "firstName", "lastName", "isEmailVerified", "termsAcceptedAt", "createdAt", "updatedAt")
       SELECT gen_random_uuid(), 'load-' || n || '@example.test', 'load_' || n, $1, 'Load', 'Member ' || n, true, now(), now(), now()
       FROM generate_series(1, ${count}) AS n`,
      hash,
    );
    await prisma.$executeRawUnsafe(
      `INSERT INTO "NotificationPreferences" ("id", "userId", "updatedAt") SELECT gen_random_uuid(), "id", now() FROM "User" WHERE "email" LIKE 'load-%'`,
    );
  });
}

/** What visitors pick from: active animations with their media's sizes, category pages, words of titles. */
async function readCatalogue(dataDir: string): Promise<Catalogue> {
  return withDatabase(dataDir, async (prisma) => {
    const { localObjectFile, objectIdFromPath } = await import("../app/lib/storage.server.ts");
    const media = (stored: string | null) => {
      const id = objectIdFromPath(stored);
      if (!id) return null;
      try {
        return { path: stored!, size: fs.statSync(localObjectFile(id)).size };
      } catch {
        return null;
      }
    };
    const rows = await prisma.animation.findMany({
      where: { isActive: true },
      select: { id: true, slug: true, title: true, previewVideo: true, fullVideo: true },
      orderBy: { createdAt: "desc" },
    });
    const categories = await prisma.category.findMany({
      where: { isActive: true },
      select: { slug: true, parent: { select: { slug: true } } },
    });
    const words = new Set(
      rows.flatMap((r) =>
        r.title
          .toLowerCase()
          .split(/[^a-z]+/)
          .filter((w) => w.length > 4),
      ),
    );
    return {
      animations: rows.map((r) => ({ id: r.id, slug: r.slug, preview: media(r.previewVideo), full: media(r.fullVideo) })),
      categoryPaths: categories.map((c) => (c.parent ? `/category/${c.parent.slug}/${c.slug}` : `/category/${c.slug}`)),
      terms: [...words],
    };
  });
}

type Visit = {
  n: number;
  ip: string;
  member: boolean;
  viaForm: boolean;
  account: number;
  animation: Catalogue["animations"][number];
  auth?: Record<string, string>;
  toBuy?: Catalogue["animations"][number];
  checkoutId?: string;
};
/** A connection's context: its visit, and the name of the step whose request it builds. */
type Context = { visit?: Visit; label?: string; expect?: Expect };
/** Which statuses are this step's right answers. */
type Expect = (status: number) => boolean;
const answered: Expect = (status) => status >= 200 && status < 400;
const exactly =
  (...statuses: number[]): Expect =>
  (status) =>
    statuses.includes(status);
// Pages and calls answer 200: a signed-in page that redirects has sent the visitor to the sign-in
// form, a 3xx from a call is no answer. A byte range answers 206, or redirects to the bucket or
// CDN that serves it (S3, MEDIA_BASE_URL; not followed).
const page = exactly(200);
const media = exactly(206, 302, 307);
type RequestData = autocannon.RequestData;
type Step = autocannon.Request;

const pick = <T>(list: T[]) => list[Math.floor(Math.random() * list.length)]!;

function rangeHeader(size: number) {
  const from = Math.floor(Math.random() * Math.max(1, size - RANGE_BYTES));
  return `bytes=${from}-${Math.min(size - 1, from + RANGE_BYTES - 1)}`;
}

function cookiesFrom(headers: Record<string, string | string[]>) {
  const entry = Object.entries(headers).find(([name]) => name.toLowerCase() === "set-cookie")?.[1];
  const all = entry === undefined ? [] : Array.isArray(entry) ? entry : [entry];
  return all.map((c) => c.split(";")[0]!).join("; ");
}

/**
 * Who has been which member and bought what, shared by the warm-up and the measured run: each
 * account buys the catalogue in order, one licence per visit, never one it holds.
 */
type Shop = { visitNumber: number; memberNumber: number; bought: Map<number, number> };

type Counters = { visits: number; memberVisits: number; purchases: number; cutShort: number };

/**
 * The visit as autocannon's request sequence; `counters` sees visits, purchases, and member visits
 * cut short: a step that answered in 2xx/3xx without what the next one needs (no session, no
 * checkout), which the status counts alone would not show.
 */
function scenario(appUrl: string, catalogue: Catalogue, accounts: number, shop: Shop, counters: Counters): Step[] {
  const playable = catalogue.animations.filter((a) => a.preview);
  const buyable = catalogue.animations.filter((a) => a.full);
  if (!playable.length || !buyable.length || !catalogue.categoryPaths.length) throw new Error("the seed has no media or categories to load-test");
  const { bought } = shop;
  const cut = () => {
    counters.cutShort++;
    return null;
  };

  const browser = (visit: Visit, extra: Record<string, string> = {}) => ({
    "user-agent": USER_AGENT,
    "x-forwarded-for": visit.ip,
    "accept-encoding": "gzip",
    ...extra,
  });
  const jsonCall = (visit: Visit) => ({
    "user-agent": USER_AGENT,
    "x-forwarded-for": visit.ip,
    "content-type": "application/json",
    origin: appUrl,
    ...visit.auth,
  });
  // Every step names itself in the context: the timing hook reads it when the request goes out.
  const step = (
    name: string,
    setup: (visit: Visit, req: RequestData, ctx: Context) => RequestData | null,
    onResponse?: Step["onResponse"],
    expect: Expect = answered,
  ): Step => ({
    setupRequest: (req: RequestData, ctx: Context) => {
      const visit = ctx.visit;
      if (!visit) return null;
      ctx.label = name;
      ctx.expect = expect;
      return setup(visit, req, ctx);
    },
    onResponse,
  });

  return [
    {
      setupRequest: (req: RequestData, ctx: Context) => {
        const n = ++shop.visitNumber;
        const member = n % MEMBER_EVERY === 0;
        if (member) shop.memberNumber++;
        counters.visits++;
        if (member) counters.memberVisits++;
        ctx.visit = {
          n,
          ip: `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`,
          member,
          viaForm: shop.memberNumber % 2 === 0,
          account: (shop.memberNumber % accounts) + 1,
          animation: pick(playable),
        };
        ctx.label = "home page";
        ctx.expect = page;
        return { ...req, method: "GET", path: "/", headers: browser(ctx.visit) };
      },
    },
    step("category page", (v, req) => ({ ...req, method: "GET", path: pick(catalogue.categoryPaths), headers: browser(v) }), undefined, page),
    step("animation page", (v, req) => ({ ...req, method: "GET", path: `/animations/${v.animation.slug}`, headers: browser(v) }), undefined, page),
    step(
      "search",
      (v, req) => ({ ...req, method: "GET", path: `/search?q=${encodeURIComponent(pick(catalogue.terms))}`, headers: browser(v) }),
      undefined,
      page,
    ),
    step(
      "GET /api/animations",
      (v, req) => ({ ...req, method: "GET", path: `/api/animations?page=${1 + (v.n % 3)}&limit=6`, headers: browser(v) }),
      undefined,
      page,
    ),
    step("GET /api/categories/main", (v, req) => ({ ...req, method: "GET", path: "/api/categories/main", headers: browser(v) }), undefined, page),
    step(
      "preview, 64 KB range",
      (v, req) => ({
        ...req,
        method: "GET",
        path: v.animation.preview!.path,
        headers: { "user-agent": USER_AGENT, "x-forwarded-for": v.ip, range: rangeHeader(v.animation.preview!.size) },
      }),
      undefined,
      media,
    ),
    // Visitors who are not members leave here (null ends the visit; the next one starts).
    step(
      "sign in",
      (v, req, ctx) => {
        if (!v.member) return null;
        const email = `load-${v.account}@example.test`;
        if (v.viaForm) {
          ctx.label = "sign in (page form)";
          ctx.expect = exactly(302);
          return {
            ...req,
            method: "POST",
            path: "/auth",
            headers: { "user-agent": USER_AGENT, "x-forwarded-for": v.ip, "content-type": "application/x-www-form-urlencoded", origin: appUrl },
            body: new URLSearchParams({ intent: "signin", email, password: PASSWORD, redirectTo: "/my-animations" }).toString(),
          };
        }
        ctx.label = "sign in (POST /api/auth/login)";
        ctx.expect = page;
        return { ...req, method: "POST", path: "/api/auth/login", headers: jsonCall(v), body: JSON.stringify({ email, password: PASSWORD }) };
      },
      (status, body, ctx: Context, headers) => {
        const v = ctx.visit;
        if (!v) return;
        if (v.viaForm) {
          const cookie = status === 302 ? cookiesFrom(headers) : "";
          if (cookie) v.auth = { cookie };
        } else if (status === 200) {
          const token = (JSON.parse(body) as { accessToken?: string }).accessToken;
          if (token) v.auth = { authorization: `Bearer ${token}` };
        }
      },
    ),
    step(
      "signed-in page",
      (v, req, ctx) => {
        if (!v.auth) return cut();
        const path = v.n % 2 === 0 ? "/my-animations" : "/profile";
        ctx.label = `signed-in page ${path}`;
        return { ...req, method: "GET", path, headers: browser(v, v.auth) };
      },
      undefined,
      page,
    ),
    step(
      "buy: POST /api/subscriptions/individual",
      (v, req) => {
        const next = bought.get(v.account) ?? 0;
        if (!v.auth || next >= buyable.length) return cut();
        bought.set(v.account, next + 1);
        v.toBuy = buyable[next]!;
        return { ...req, method: "POST", path: "/api/subscriptions/individual", headers: jsonCall(v), body: JSON.stringify({ animationId: v.toBuy.id }) };
      },
      (status, body, ctx: Context) => {
        if (status === 200 && ctx.visit) ctx.visit.checkoutId = (JSON.parse(body) as { checkoutId?: string }).checkoutId;
      },
      page,
    ),
    step(
      "buy: test-mode Pay",
      (v, req) => {
        if (!v.checkoutId) return cut();
        return { ...req, method: "POST", path: `/api/checkout/test/${v.checkoutId}`, headers: jsonCall(v), body: JSON.stringify({ outcome: "pay" }) };
      },
      (status, body) => {
        if (status === 200 && (JSON.parse(body) as { status?: string }).status === "paid") counters.purchases++;
      },
      page,
    ),
    step(
      "full video, 64 KB range",
      (v, req) => ({
        ...req,
        method: "GET",
        path: v.toBuy!.full!.path,
        headers: { "user-agent": USER_AGENT, "x-forwarded-for": v.ip, range: rangeHeader(v.toBuy!.full!.size), ...v.auth },
      }),
      undefined,
      media,
    ),
  ];
}

type Tally = { latencies: number[]; bad: Record<string, number>; errors: number };

/** Drives the scenario for `seconds`, timing every answer under the step that asked it. */
function drive(appUrl: string, requests: Step[], connections: number, seconds: number, thinkMs: number): Promise<Map<string, Tally>> {
  const tallies = new Map<string, Tally>();
  const tally = (name: string) => {
    let t = tallies.get(name);
    if (!t) tallies.set(name, (t = { latencies: [], bad: {}, errors: 0 }));
    return t;
  };
  return new Promise((resolve, reject) => {
    autocannon(
      {
        url: appUrl,
        connections,
        duration: seconds,
        requests,
        timeout: 10,
        setupClient: (client) => {
          // The step of the request on the wire, and of the one before it: autocannon sends the
          // next request before it reports a timeout, and reports a response before it sends.
          let current = "";
          let previous = "";
          let expect = answered;
          const iterator = client.requestIterator;
          const send = client.getRequestBuffer.bind(client);
          client.getRequestBuffer = () => {
            previous = current;
            current = (iterator.context as Context).label ?? "?";
            expect = (iterator.context as Context).expect ?? answered;
            return send();
          };
          client.on("response", (status: number, _bytes: number, ms: number) => {
            const t = tally(current);
            t.latencies.push(ms);
            if (!expect(status)) t.bad[status] = (t.bad[status] ?? 0) + 1;
          });
          client.on("timeout", () => tally(previous).errors++);
          if (thinkMs > 0) {
            // A visitor reads before the next click: each request waits 0.5 to 1.5 times the mean
            // think time after the answer before it (the first one too, so visitors do not start
            // in step). The wait is not part of any latency.
            const sendNext = client._doRequest.bind(client);
            client._doRequest = () => {
              setTimeout(() => client.destroyed || sendNext(), thinkMs * (0.5 + Math.random()));
            };
          }
          client.on("connError", () => tally(current).errors++);
        },
      },
      (error) => (error ? reject(error) : resolve(tallies)),
    );
  });
}

function percentile(sorted: number[], p: number) {
  if (!sorted.length) return 0;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

function figure(step: string, t: Tally): StepFigure {
  const sorted = Float64Array.from(t.latencies).sort();
  const list = Array.from(sorted);
  return {
    step,
    requests: list.length + t.errors,
    p50: percentile(list, 50),
    p95: percentile(list, 95),
    p99: percentile(list, 99),
    max: list.at(-1) ?? 0,
    bad: t.bad,
    errors: t.errors,
  };
}

export async function runLoadBench(options: LoadOptions): Promise<LoadResult> {
  const { port, duration, connections, buildDir, thinkMs, warmupSeconds = Math.min(10, Math.max(3, Math.round(duration / 6))) } = options;
  const accounts = options.accounts ?? Math.max(2000, connections * 60);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "medanim-load-"));
  const appUrl = `http://127.0.0.1:${port}`;
  // What this server runs with beside the production defaults, printed with the figures.
  const settings: Record<string, string> = {
    TRUST_PROXY: "loopback",
    MEDIA_CONCURRENCY: "0",
  };
  const serverSettings = [
    "TRUST_PROXY=loopback: the bench is the trusted proxy; each visitor's X-Forwarded-For is its address",
    "MEDIA_CONCURRENCY=0: no transcodes in this server (a fresh demo queues one per master: a core taken from the traffic measured)",
    "rate limits as configured (none raised)",
  ];
  let app: ReturnType<typeof start> | undefined;
  try {
    await seedDemo(dataDir);
    await addMembers(dataDir, accounts);
    const catalogue = await readCatalogue(dataDir);
    app = start("load app", ["scripts/start.ts", "--no-build", "--no-seed"], {
      PORT: String(port),
      DATA_DIR: dataDir,
      BUILD_DIR: buildDir,
      NODE_ENV: "production",
      APP_URL: appUrl,
      LOG_LEVEL: "warn",
      DATABASE_URL: "",
      SMTP_URL: "",
      STRIPE_SECRET_KEY: "",
      ...secrets,
      ...settings,
    });
    await waitFor(`${appUrl}/healthz`);
    if ((await get(`${appUrl}/`)).status !== 200) throw new Error("the home page does not answer 200");

    const shop: Shop = { visitNumber: 0, memberNumber: 0, bought: new Map() };
    await drive(
      appUrl,
      scenario(appUrl, catalogue, accounts, shop, { visits: 0, memberVisits: 0, purchases: 0, cutShort: 0 }),
      connections,
      warmupSeconds,
      thinkMs,
    );
    const counters: Counters = { visits: 0, memberVisits: 0, purchases: 0, cutShort: 0 };
    const requests = scenario(appUrl, catalogue, accounts, shop, counters);
    const loadBefore = os.loadavg();
    const cpuBefore = groupCpuMs(app.pid!);
    const tallies = await drive(appUrl, requests, connections, duration, thinkMs);
    const cpuAfter = groupCpuMs(app.pid!);
    const loadAfter = os.loadavg();

    const order = ["home page", "category page", "animation page", "search", "GET /api/animations", "GET /api/categories/main", "preview, 64 KB range"];
    const rank = (name: string) =>
      order.includes(name)
        ? order.indexOf(name)
        : order.length + ["sign in", "signed-in", "buy: POST", "buy: test", "full video"].findIndex((p) => name.startsWith(p));
    const steps = [...tallies.entries()].sort(([a], [b]) => rank(a) - rank(b)).map(([name, t]) => figure(name, t));
    const all: Tally = { latencies: [], bad: {}, errors: 0 };
    for (const t of tallies.values()) {
      for (const ms of t.latencies) all.latencies.push(ms);
      for (const [status, n] of Object.entries(t.bad)) all.bad[status] = (all.bad[status] ?? 0) + n;
      all.errors += t.errors;
    }
    const total = figure("all steps", all);
    const badCount = Object.values(total.bad).reduce((a, b) => a + b, 0);
    const slow = steps.filter((s) => s.p99 >= TARGET_P99_MS);
    const pass = total.errors === 0 && badCount === 0 && counters.cutShort === 0 && slow.length === 0 && total.requests > 0;
    const verdict =
      `${pass ? "PASS" : "FAIL"}  load: ${fmt(total.requests)} requests from ${connections} visitors in ${duration} s, ` +
      `${total.errors} errors, ${badCount} unexpected answers, ${counters.cutShort} member visits cut short, p99 ${fmt(total.p99)} ms overall` +
      (slow.length
        ? `; p99 over ${TARGET_P99_MS} ms: ${slow.map((s) => `${s.step} (${fmt(s.p99)} ms)`).join(", ")}`
        : `, every step under ${TARGET_P99_MS} ms`) +
      ` (target: 0 errors, p99 < ${TARGET_P99_MS} ms at 50 visitors)`;
    return {
      seconds: duration,
      connections,
      thinkMs,
      steps,
      total,
      ...counters,
      loadBefore,
      loadAfter,
      serverCpuMs: cpuBefore === null || cpuAfter === null ? null : cpuAfter - cpuBefore,
      cpus: os.cpus().length,
      serverSettings,
      pass,
      verdict,
    };
  } finally {
    if (app) await stop(app);
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

export function formatLoadBench(r: LoadResult): string {
  const bad = (s: StepFigure) => {
    const entries = Object.entries(s.bad);
    return entries.length ? entries.map(([status, n]) => `${n}×${status}`).join(" ") : "0";
  };
  const row = (s: StepFigure) => [
    s.step,
    fmt(s.requests),
    fmt(s.requests / r.seconds, 1),
    `${fmt(s.p50, 1)}`,
    `${fmt(s.p95, 1)}`,
    `${fmt(s.p99, 1)}`,
    `${fmt(s.max)}`,
    bad(s),
    String(s.errors),
  ];
  const load = (l: number[]) => l.map((x) => x.toFixed(2)).join(" ");
  return [
    `Mixed traffic: ${r.connections} visitors ` +
      (r.thinkMs ? `(${fmt(r.thinkMs)} ms between an answer and the next click, on average)` : "(no pause between requests: a closed loop)") +
      ` for ${r.seconds} s on ${r.cpus} CPUs; ` +
      `${fmt(r.visits)} visits, ${fmt(r.memberVisits)} of them members' (sign in, signed-in page, buy, full video), ${fmt(r.purchases)} licences bought`,
    `Machine load (1, 5, 15 min) before ${load(r.loadBefore)}, after ${load(r.loadAfter)}; the load generator runs on the same cores`,
    ...(r.serverCpuMs === null
      ? []
      : [
          `Server CPU: ${fmt(r.serverCpuMs / r.seconds / 10)} % of one core on average, ${fmt(r.serverCpuMs / Math.max(1, r.total.requests), 2)} ms per request`,
        ]),
    ...r.serverSettings.map((s) => `  ${s}`),
    "",
    table(["step", "requests", "req/s", "p50 ms", "p95 ms", "p99 ms", "max ms", "unexpected", "errors"], [...r.steps.map(row), row(r.total)]),
    "",
    r.verdict,
  ].join("\n");
}
