import fs from "node:fs";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import pino from "pino";
import { matchRoutes, type RouteObject } from "react-router";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { getDb, prisma } from "~/lib/db.server.ts";
import { getEnv } from "~/lib/env.server.ts";
import { logger } from "~/lib/logger.server.ts";
import { dropAllCaches } from "~/lib/cache-registry.server.ts";
import { startMetricsServer } from "~/lib/operations.server.ts";
import { type Phase, servingPhase, setServingPhase } from "~/lib/readiness.server.ts";
import { createRouteTable, samplePath } from "~/lib/route-table.server.ts";
import { ROUTE_RULES } from "~/route-rules.ts";
import * as contactApi from "~/routes/api/contact.ts";
import * as decideApi from "~/routes/api/admin/refund-requests.decide.ts";
import * as testPage from "~/routes/checkout/test.tsx";
import * as premium from "~/routes/public/premium.tsx";
import { sendJob } from "~/lib/jobs.server.ts";
import { startJobWorkers } from "~/services/job-workers.server.ts";
import { seedEmailTemplates } from "../../prisma/seed-data/email-templates.ts";
import { sendToApp, testApp } from "../helpers/app.ts";
import { accessTokenFor, createPaidSubscription, createUser, sessionCookieFor } from "../helpers/factories.ts";
import { sample } from "../helpers/prometheus-text.ts";
import { callRoute } from "../helpers/route.ts";
import { createApp } from "~/server/app.ts";

// Operating the app (decision 020, "Metrics and health"), through its front door
// (tests/helpers/app.ts): /metrics behind a token or on its own port, the series an operator
// alerts on with route patterns as labels, /healthz and /readyz, and the request id in
// responses and in the log lines written while serving them.

const TOKEN = "metrics-test-token-0123456789";
const env = getEnv() as { METRICS_TOKEN?: string; METRICS_PORT?: number; CATALOGUE_CACHE_MS: number; DATA_DIR: string };
let base: string;

beforeAll(async () => {
  base = (await testApp()).origin;
  await seedEmailTemplates(prisma);
});

afterEach(() => {
  env.METRICS_TOKEN = undefined;
  env.METRICS_PORT = undefined;
});

const scrape = (headers: Record<string, string> = { Authorization: `Bearer ${TOKEN}` }) => fetch(`${base}/metrics`, { headers });

async function metricsText() {
  env.METRICS_TOKEN = TOKEN;
  const res = await scrape();
  expect(res.status).toBe(200);
  return res.text();
}

describe("GET /metrics on the public port", () => {
  it("answers 401 while no token is configured, saying how to turn metrics on", async () => {
    const res = await scrape();
    expect(res.status).toBe(401);
    expect(res.headers.get("www-authenticate")).toMatch(/^Bearer/);
    expect((await res.json()).message).toMatch(/METRICS_TOKEN.*METRICS_PORT/);
  });

  it("answers 401 without the bearer token or with a wrong one, and the metrics with the right one", async () => {
    env.METRICS_TOKEN = TOKEN;
    const attempts: Array<Record<string, string>> = [
      {},
      { Authorization: "Bearer wrong-token-0123456789" },
      { Authorization: `Bearer ${TOKEN}x` },
      { Authorization: TOKEN },
    ];
    for (const headers of attempts) {
      const res = await scrape(headers);
      expect(res.status, JSON.stringify(headers)).toBe(401);
      expect(await res.json()).toEqual({ message: "A valid bearer token is required: Authorization: Bearer <METRICS_TOKEN>" });
    }
    const res = await scrape();
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(res.headers.get("cache-control")).toBe("no-store");
    const text = await res.text();
    // The process's own (prom-client's defaults) beside the app's.
    expect(sample(text, "process_cpu_user_seconds_total")).toBeGreaterThan(0);
    expect(text).toContain("# TYPE medanim_http_requests_total counter");
  });

  it("labels requests with the route table's pattern, never the path: a page, an /api call, a 404, media", async () => {
    const slug = `no-such-animation-${Date.now()}`;
    expect((await fetch(`${base}/`)).status).toBe(200);
    expect((await fetch(`${base}/api/animations`)).status).toBe(200);
    expect((await fetch(`${base}/animations/${slug}`)).status).toBe(404);
    expect((await fetch(`${base}/no/such/page-${slug}`)).status).toBe(404);
    expect((await fetch(`${base}/api/no-such-call-${slug}`)).status).toBe(404);
    await fetch(`${base}/media/00000000-0000-4000-8000-000000000000/${slug}.m3u8`);
    // A response is counted when the server sees it finish, which may be a moment after the client has it all.
    await expect
      .poll(async () => sample(await metricsText(), "medanim_http_requests_total", { method: "GET", route: "/media/*" }) ?? 0)
      .toBeGreaterThanOrEqual(1);
    const text = await metricsText();
    expect(sample(text, "medanim_http_requests_total", { method: "GET", route: "/", status: "200" })).toBeGreaterThanOrEqual(1);
    expect(sample(text, "medanim_http_requests_total", { method: "GET", route: "/api/animations", status: "200" })).toBeGreaterThanOrEqual(1);
    expect(sample(text, "medanim_http_requests_total", { method: "GET", route: "/animations/:slug", status: "404" })).toBeGreaterThanOrEqual(1);
    expect(sample(text, "medanim_http_requests_total", { method: "GET", route: "unmatched", status: "404" })).toBeGreaterThanOrEqual(2);
    expect(sample(text, "medanim_http_request_duration_seconds_count", { method: "GET", route: "/api/animations", status: "200" })).toBeGreaterThanOrEqual(1);
    expect(text).toMatch(/medanim_http_requests_total\{method="GET",route="\/media\/\*",status="\d+"\}/);
    // No path a client chose became a label.
    expect(text).not.toContain(slug);
  });

  it("has the database's statement times, the pool on PostgreSQL, and each queue's depth", async () => {
    await prisma.user.count();
    const text = await metricsText();
    expect(sample(text, "medanim_db_query_duration_seconds_count", { source: "app", statement: "SELECT" })).toBeGreaterThan(0);
    if (getDb().kind === "postgres") expect(sample(text, "medanim_db_pool_clients", { state: "total" })).toBeGreaterThan(0);
    else expect(text).not.toMatch(/^medanim_db_pool_clients\{/m);
    for (const queue of ["email-campaign", "billing-sweep", "purge", "media-transcode", "media-scan"]) {
      expect(sample(text, "medanim_job_queue_depth", { queue }), queue).toBeGreaterThanOrEqual(0);
    }
    expect(sample(text, "medanim_db_query_duration_seconds_count", { source: "jobs", statement: "SELECT" })).toBeGreaterThan(0);
  });

  it("counts mail sent, and a payment applied by outcome", async () => {
    const before = await metricsText();
    const contact = await callRoute(contactApi, "/api/contact", {
      json: { name: "Ada Lovelace", email: "ada@example.com", subject: "Metrics", category: "technical", message: "Counting the mail this sends." },
    });
    expect(contact.status).toBe(201);

    const buyer = await createUser();
    const cookie = await sessionCookieFor(buyer.id);
    const started = await callRoute(premium, "/premium", { form: { intent: "checkout" }, cookie });
    const checkoutId = /\/checkout\/test\/([0-9a-f-]{36})$/.exec(started.location ?? "")![1]!;
    expect((await callRoute(testPage, `/checkout/test/${checkoutId}`, { form: { intent: "pay" }, params: { checkoutId }, cookie })).status).toBe(303);

    const after = await metricsText();
    const sent = (text: string) => sample(text, "medanim_mail_messages_total", { outcome: "sent" }) ?? 0;
    const paid = (text: string) => sample(text, "medanim_payment_events_total", { kind: "payment.succeeded", outcome: "applied" }) ?? 0;
    // The contact message to support, the receipt to the buyer.
    expect(sent(after) - sent(before)).toBeGreaterThanOrEqual(2);
    expect(paid(after) - paid(before)).toBe(1);
  });

  it("counts the shared cache's hits and misses by key prefix", async () => {
    const cacheMs = env.CATALOGUE_CACHE_MS;
    env.CATALOGUE_CACHE_MS = 5000;
    try {
      dropAllCaches();
      await fetch(`${base}/`);
      await fetch(`${base}/`);
      const text = await metricsText();
      expect(sample(text, "medanim_cache_lookups_total", { prefix: "catalogue", result: "miss" })).toBeGreaterThanOrEqual(1);
      expect(sample(text, "medanim_cache_lookups_total", { prefix: "catalogue", result: "hit" })).toBeGreaterThanOrEqual(1);
    } finally {
      env.CATALOGUE_CACHE_MS = cacheMs;
      dropAllCaches();
    }
  });

  it("counts refund decisions by outcome", async () => {
    const admin = await createUser({ role: "admin" });
    const token = await accessTokenFor(admin.id);
    const pending = async () => {
      const member = await createUser();
      const { payment } = await createPaidSubscription(member.id, { type: "global", description: "Premium yearly subscription" });
      return prisma.refundRequest.create({
        data: { userId: member.id, paymentId: payment.id, reason: "not-satisfied", description: "Not what I needed.", contactEmail: member.email },
      });
    };
    const decide = async (decision: "approve" | "reject") => {
      const request = await pending();
      const answer = await callRoute(decideApi, `/api/admin/refund-requests/${request.id}/${decision}`, {
        method: "PUT",
        json: { adminNotes: "Decided." },
        params: { id: request.id },
        token,
      });
      expect(answer.status).toBe(200);
    };
    const counted = (text: string, outcome: string) => sample(text, "medanim_refund_decisions_total", { outcome }) ?? 0;

    const before = await metricsText();
    await decide("approve");
    await decide("reject");
    const after = await metricsText();
    expect(counted(after, "approved") - counted(before, "approved")).toBe(1);
    expect(counted(after, "rejected") - counted(before, "rejected")).toBe(1);
  });

  it("counts a job that fails, per queue", async () => {
    const workers = await startJobWorkers({ pollingIntervalSeconds: 0.5 });
    try {
      const failures = async () => sample(await metricsText(), "medanim_job_failures_total", { queue: "email-campaign" }) ?? 0;
      const before = await failures();
      // A malformed job (not a campaign's id): the database refuses the lookup, the run throws.
      await sendJob("campaign", { campaignId: "not-a-campaign-id" }, { singletonKey: "not-a-campaign-id" });
      await expect.poll(failures, { timeout: 25_000, interval: 500 }).toBeGreaterThan(before);
      expect(sample(await metricsText(), "medanim_job_duration_seconds_count", { queue: "email-campaign", outcome: "failed" })).toBeGreaterThanOrEqual(1);
    } finally {
      await workers.stop();
    }
  }, 40_000);

  it("times the jobs the workers run, per queue", async () => {
    // The workers queue a purge, a billing sweep and a media scan as they start.
    const workers = await startJobWorkers({ pollingIntervalSeconds: 0.5 });
    try {
      await expect
        .poll(async () => sample(await metricsText(), "medanim_job_duration_seconds_count", { queue: "purge", outcome: "completed" }) ?? 0, {
          timeout: 25_000,
          interval: 500,
        })
        .toBeGreaterThanOrEqual(1);
      const text = await metricsText();
      expect(sample(text, "medanim_job_failures_total", { queue: "purge" }) ?? 0).toBe(0);
    } finally {
      await workers.stop();
    }
  }, 40_000);
});

describe("the route pattern of a request", () => {
  // patternFor ranks and compiles the routes once instead of calling matchRoutes per request:
  // it must name the route React Router answers with, for every route of app/routes.ts.
  it("is the route React Router picks, for every route's sample path and a few more", async () => {
    const { build } = await testApp();
    const table = createRouteTable(build, ROUTE_RULES);
    const tree = (parentId: string | undefined): RouteObject[] =>
      Object.values(build.routes)
        .filter((route) => route!.parentId === parentId)
        .map(
          (route) => ({ id: route!.id, path: route!.path, index: route!.index, caseSensitive: route!.caseSensitive, children: tree(route!.id) }) as RouteObject,
        );
    const routes = tree(undefined);
    const byId = new Map(table.routes.map((leaf) => [leaf.id, leaf.pattern]));
    const paths = [
      ...table.routes.map((leaf) => samplePath(leaf.pattern)),
      "/api/categories/path/main",
      "/api/categories/path/main/sub",
      "/animations/RHINOPLASTY",
      "/admin/users/x/email/",
      "/caf%C3%A9",
      "/a/b/c/d",
    ];
    for (const pathname of paths) {
      const id = matchRoutes(routes, pathname)?.at(-1)?.route.id;
      const expected = id === undefined || byId.get(id)?.endsWith("*") ? "unmatched" : byId.get(id);
      expect(table.patternFor(pathname), pathname).toBe(expected);
    }
  });
});

describe("METRICS_PORT", () => {
  let server: Server | undefined;
  afterAll(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));

  it("serves /metrics on its own port only: the public port answers 404", async () => {
    env.METRICS_PORT = 3411;
    // The metrics port's own server (startServer starts it when METRICS_PORT is set).
    server = await startMetricsServer({ port: 0, host: "127.0.0.1" });
    const own = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const pub = await scrape();
    expect(pub.status).toBe(404);
    expect(await pub.json()).toEqual({ message: "Not found" });
    const res = await fetch(`${own}/metrics`);
    expect(res.status).toBe(200);
    expect(await res.text()).toContain("medanim_http_requests_total");
    expect((await fetch(`${own}/`)).status).toBe(404);
    // A token, when one is set, is asked for on that port too.
    env.METRICS_TOKEN = TOKEN;
    expect((await fetch(`${own}/metrics`)).status).toBe(401);
    expect((await fetch(`${own}/metrics`, { headers: { Authorization: `Bearer ${TOKEN}` } })).status).toBe(200);
  });
});

describe("health", () => {
  let phase: Phase;
  beforeAll(() => {
    phase = servingPhase();
  });
  afterEach(() => setServingPhase(phase));

  it("/healthz answers without asking the database", async () => {
    const res = await fetch(`${base}/healthz`);
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect(await res.json()).toEqual({ status: "ok" });
  });

  // The state startServer sets (starting → serving → draining at SIGTERM), flipped here.
  it("/readyz is 503 while starting and while draining, 200 with each check named while serving", async () => {
    setServingPhase("starting");
    const starting = await fetch(`${base}/readyz`);
    expect(starting.status).toBe(503);
    expect(await starting.json()).toEqual({ status: "starting", checks: { database: "skipped", storage: "skipped", queue: "skipped" } });

    setServingPhase("serving");
    const started = Date.now();
    const serving = await fetch(`${base}/readyz`);
    expect(await serving.json()).toEqual({ status: "ready", checks: { database: "ok", storage: "ok", queue: "ok" } });
    expect(serving.status).toBe(200);
    expect(serving.headers.get("cache-control")).toBe("no-store");
    expect(Date.now() - started).toBeLessThan(2000);

    setServingPhase("draining");
    const draining = await fetch(`${base}/readyz`);
    expect(draining.status).toBe(503);
    expect((await draining.json()).status).toBe("draining");
  });

  it("/readyz is 503 naming the storage when objects cannot be written", async () => {
    const dataDir = env.DATA_DIR;
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "medanim-ready-")), "not-a-directory");
    fs.writeFileSync(file, "");
    env.DATA_DIR = file;
    try {
      setServingPhase("serving");
      const res = await fetch(`${base}/readyz`);
      expect(res.status).toBe(503);
      expect(await res.json()).toEqual({ status: "unavailable", checks: { database: "ok", storage: "failed", queue: "ok" } });
    } finally {
      env.DATA_DIR = dataDir;
      fs.rmSync(path.dirname(file), { recursive: true, force: true });
    }
  });
});

describe("a server started as `npm run serve` starts it", () => {
  // A child process (tsx server.ts), so startServer's own wiring is what answers: readiness
  // after the workers are up, METRICS_PORT, and the drain after SIGTERM.
  it("is ready once started, serves metrics on METRICS_PORT only, and answers /readyz 503 while draining", async () => {
    const { spawn } = await import("node:child_process");
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "medanim-drain-"));
    const [port, metricsPort] = [3412, 3413];
    const child = spawn(path.resolve("node_modules/.bin/tsx"), ["server.ts"], {
      env: {
        ...process.env,
        PORT: String(port),
        METRICS_PORT: String(metricsPort),
        METRICS_TOKEN: "",
        DRAIN_DELAY_MS: "3000",
        DATA_DIR: dataDir,
        DATABASE_URL: "",
        LOG_LEVEL: "silent",
        NODE_ENV: "development",
      },
      stdio: "ignore",
    });
    const exited = new Promise<number | null>((resolve) => child.once("exit", resolve));
    const status = (url: string) =>
      fetch(url).then(
        (res) => res.status,
        () => 0,
      );
    try {
      await expect.poll(() => status(`http://127.0.0.1:${port}/readyz`), { timeout: 60_000, interval: 250 }).toBe(200);
      expect(await status(`http://127.0.0.1:${port}/metrics`)).toBe(404);
      const scraped = await fetch(`http://127.0.0.1:${metricsPort}/metrics`);
      expect(scraped.status).toBe(200);
      expect(await scraped.text()).toMatch(/^medanim_http_requests_total\{method="GET",route="\/readyz",status="200"\} \d+$/m);

      child.kill("SIGTERM");
      // A new connection during the drain: the port is still open, readiness says go elsewhere.
      await expect.poll(() => status(`http://127.0.0.1:${port}/readyz`), { timeout: 2_000, interval: 100 }).toBe(503);
      expect(await (await fetch(`http://127.0.0.1:${port}/readyz`)).json()).toMatchObject({ status: "draining" });
      expect(await status(`http://127.0.0.1:${port}/healthz`)).toBe(200);
      expect(await exited).toBe(0);
    } finally {
      if (child.exitCode === null) child.kill("SIGKILL");
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  }, 90_000);
});

describe("X-Request-Id", () => {
  const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

  it("is made here for every response, refusals included", async () => {
    const [a, b] = await Promise.all([fetch(`${base}/`), fetch(`${base}/api/animations`)]);
    expect(a.headers.get("x-request-id")).toMatch(UUID);
    expect(b.headers.get("x-request-id")).toMatch(UUID);
    expect(a.headers.get("x-request-id")).not.toBe(b.headers.get("x-request-id"));
    const refused = await sendToApp("/", { method: "TRACE" });
    expect(refused.status).toBe(405);
    expect(refused.headers.get("x-request-id")).toMatch(UUID);
  });

  it("is the trusted proxy's when well-formed, and made here when it is not", async () => {
    const id = "lb-1:7f3a.9c_22-x";
    expect((await fetch(`${base}/`, { headers: { "X-Request-Id": id } })).headers.get("x-request-id")).toBe(id);
    for (const bad of ["a".repeat(129), "has space", "semi;colon", "<script>"]) {
      expect((await fetch(`${base}/healthz`, { headers: { "X-Request-Id": bad } })).headers.get("x-request-id"), bad).toMatch(UUID);
    }
  });

  it("ignores the header from a client that is not a trusted proxy", async () => {
    const app = await createApp({ mode: "production", build: (await testApp()).build, trustProxy: false });
    const server = app.listen(0, "127.0.0.1");
    await new Promise((resolve) => server.once("listening", resolve));
    try {
      const res = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/healthz`, { headers: { "X-Request-Id": "chosen-by-the-client" } });
      expect(res.headers.get("x-request-id")).toMatch(UUID);
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it("is in every log line written while the request is served, a service's lines included", async () => {
    const lines: Array<Record<string, unknown>> = [];
    const target = logger as unknown as Record<symbol, unknown>;
    const stream = target[pino.symbols.streamSym];
    const level = logger.level;
    target[pino.symbols.streamSym] = { write: (line: string) => void lines.push(JSON.parse(line)) };
    logger.level = "info";
    const smtp = getEnv().SMTP_URL;
    // Without SMTP the mail service writes the outbox and logs each message it writes there.
    (getEnv() as { SMTP_URL?: string }).SMTP_URL = undefined;
    try {
      const id = `trace-${Date.now()}`;
      const res = await sendToApp("/api/contact", {
        method: "POST",
        headers: new Headers({ "Content-Type": "application/json", "X-Request-Id": id }),
        body: JSON.stringify({
          name: "Grace Hopper",
          email: "grace@example.com",
          subject: "Logs",
          category: "technical",
          message: "Which request wrote this line?",
        }),
      });
      expect(res.status).toBe(201);
      const mine = lines.filter((line) => line.reqId === id);
      expect(mine.map((line) => line.msg)).toEqual(expect.arrayContaining(["mail written to outbox", "request completed"]));
      expect(lines.filter((line) => line.msg === "mail written to outbox" && line.reqId !== id)).toEqual([]);
    } finally {
      target[pino.symbols.streamSym] = stream;
      logger.level = level;
      (getEnv() as { SMTP_URL?: string }).SMTP_URL = smtp;
    }
  });
});
