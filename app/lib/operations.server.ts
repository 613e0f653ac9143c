import crypto from "node:crypto";
import http from "node:http";
import express, { type NextFunction, type Request, type Response } from "express";
import client from "prom-client";
import { getDb } from "./db.server.ts";
import { getEnv } from "./env.server.ts";
import { originForm, refuse } from "./http-edge.server.ts";
import { jobQueue, QUEUES } from "./jobs.server.ts";
import { logContext, logger } from "./logger.server.ts";
import { metrics } from "./metrics.server.ts";
import { servingPhase } from "./readiness.server.ts";
import { checkStorage } from "./storage.server.ts";

// What an operator and a load balancer ask of every instance (decision 020, "Metrics and
// health"): a request id on every response and log line, request metrics by route pattern,
// /metrics for Prometheus, /healthz (the process answers) and /readyz (it can do its work).

// ---- request ids ----

/** What a proxy's X-Request-Id may look like to be kept: short, and safe in a log line and a header. */
const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/**
 * Gives every request an id, sent back as X-Request-Id and carried by every log line written
 * while it is served (logger.server.ts reads logContext). A proxy's id is kept only when the
 * proxy is trusted (TRUST_PROXY, Express's `trust proxy`): anyone else could put a chosen or
 * colliding id into our logs.
 */
export function requestIds() {
  return (req: Request, res: Response, next: NextFunction) => {
    const incoming = req.headers["x-request-id"];
    const id = typeof incoming === "string" && REQUEST_ID.test(incoming) && fromTrustedProxy(req) ? incoming : crypto.randomUUID();
    res.locals.requestId = id;
    res.setHeader("X-Request-Id", id);
    logContext.run({ reqId: id }, next);
  };
}

function fromTrustedProxy(req: Request) {
  const trust = req.app.get("trust proxy fn") as ((address: string, hop: number) => boolean) | undefined;
  const peer = req.socket.remoteAddress;
  return Boolean(trust && peer && trust(peer, 0));
}

// ---- request metrics ----

const METHODS = new Set(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]);

/**
 * Counts and times every response by method, route pattern and status. The pattern comes from
 * `patternFor` (the route table's): "/animations/:slug", never the path a client sent, so the
 * series stay a fixed set however many paths are requested. A response the client abandoned
 * before it ended has the status "aborted".
 */
export function httpMetrics(patternFor: (pathname: string) => string) {
  return (req: Request, res: Response, next: NextFunction) => {
    const start = process.hrtime.bigint();
    let counted = false;
    const count = (status: string) => {
      if (counted) return;
      counted = true;
      const target = originForm(req.originalUrl);
      const route = target === null ? "unmatched" : patternFor(target.split("?", 1)[0]!);
      const labels = { method: METHODS.has(req.method) ? req.method : "OTHER", route, status };
      metrics().httpRequests.inc(labels);
      metrics().httpDuration.observe(labels, Number(process.hrtime.bigint() - start) / 1e9);
    };
    res.once("finish", () => count(String(res.statusCode)));
    res.once("close", () => count("aborted"));
    next();
  };
}

// ---- /metrics ----

const TOKEN_REQUIRED = "A valid bearer token is required: Authorization: Bearer <METRICS_TOKEN>";
const METRICS_OFF =
  "Metrics are not served on this port until they are turned on: set METRICS_TOKEN and send it as Authorization: Bearer <token>, or set METRICS_PORT to serve them on a port of their own";

function bearerMatches(header: string | undefined, token: string) {
  const presented = /^Bearer\s+(\S+)\s*$/i.exec(header ?? "")?.[1];
  if (!presented) return false;
  // Hashed first: timingSafeEqual needs equal lengths, and comparing lengths would leak the token's.
  const digest = (text: string) => crypto.createHash("sha256").update(text).digest();
  return crypto.timingSafeEqual(digest(presented), digest(token));
}

/**
 * GET /metrics in Prometheus's text format. On the public door (the app's port): 404 when
 * METRICS_PORT serves them elsewhere, else only to `Authorization: Bearer $METRICS_TOKEN`, and
 * 401 while no token is configured. On METRICS_PORT's own door the token is asked for only if
 * one is set (that port is bound to loopback unless METRICS_HOST opens it).
 */
export function serveMetrics(door: "public" | "metrics-port") {
  return async (req: Request, res: Response) => {
    const env = getEnv();
    if (door === "public" && env.METRICS_PORT) return refuse(res, 404, "Not found");
    const challenge = { "WWW-Authenticate": 'Bearer realm="metrics"' };
    if (door === "public" && !env.METRICS_TOKEN) return refuse(res, 401, METRICS_OFF, challenge);
    if (env.METRICS_TOKEN && !bearerMatches(req.headers.authorization, env.METRICS_TOKEN)) return refuse(res, 401, TOKEN_REQUIRED, challenge);
    const { registry } = metrics();
    registerScrapeGauges(registry);
    const body = await registry.metrics();
    res.status(200).set("Cache-Control", "no-store").type(registry.contentType).send(body);
  };
}

/** A scrape waits at most this long for the queue's depth: Prometheus's own timeout is 10 s by default. */
const SCRAPE_QUERY_MS = 1000;

/**
 * The values read when Prometheus scrapes rather than counted as they happen: the PostgreSQL
 * pool's clients and the job queues' depth. Registered once per registry (the server entry and
 * the server build each load this module). A failed or slow read leaves its series empty and
 * counts medanim_metrics_collect_errors_total: it never fails the scrape.
 */
function registerScrapeGauges(registry: client.Registry) {
  if (registry.getSingleMetric("medanim_job_queue_depth")) return;
  const registers = [registry];
  const collectErrors = new client.Counter({
    name: "medanim_metrics_collect_errors_total",
    help: "Values /metrics could not read at scrape time (the series is left out of that scrape), by source",
    labelNames: ["source"] as const,
    registers,
  });
  new client.Gauge({
    name: "medanim_db_pool_clients",
    help: "The PostgreSQL pool's clients: total open, idle, and requests waiting for one (no samples on embedded PGlite)",
    labelNames: ["state"] as const,
    registers,
    collect() {
      this.reset();
      const stats = getDb().poolStats();
      if (!stats) return;
      this.set({ state: "total" }, stats.total);
      this.set({ state: "idle" }, stats.idle);
      this.set({ state: "waiting" }, stats.waiting);
    },
  });
  new client.Gauge({
    name: "medanim_job_queue_depth",
    help: "Jobs waiting to run (created or waiting to retry), by queue; shared by every instance on the database",
    labelNames: ["queue"] as const,
    registers,
    async collect() {
      this.reset();
      // A draining process has stopped its queue: asking would start it again.
      if (servingPhase() === "draining") return;
      try {
        const sizes = await withTimeout(
          jobQueue().then((boss) => Promise.all(Object.values(QUEUES).map(async (queue) => [queue, await boss.getQueueSize(queue)] as const))),
          SCRAPE_QUERY_MS,
        );
        for (const [queue, size] of sizes) this.set({ queue }, size ?? 0);
      } catch (error) {
        collectErrors.inc({ source: "job_queue_depth" });
        logger.warn({ err: error }, "job queue depth unavailable for /metrics");
      }
    },
  });
}

// ---- health ----

class Timeout extends Error {}

function withTimeout<T>(promise: Promise<T>, ms: number, onTimeout?: () => void): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      onTimeout?.();
      reject(new Timeout(`no answer in ${ms} ms`));
    }, ms);
    timer.unref();
  });
  return Promise.race([promise, expired]).finally(() => clearTimeout(timer));
}

/** Each readiness check answers within this, so /readyz does too (they run at once). */
export const READY_CHECK_MS = 2000;

type CheckResult = "ok" | "failed" | "timeout" | "skipped";

const READY_CHECKS: Record<string, (signal: AbortSignal) => Promise<unknown>> = {
  database: () => getDb().ping(),
  // Local: DATA_DIR/objects exists and is writable; S3: HeadBucket.
  storage: (signal) => checkStorage(signal),
  // The queue's own tables through its own connection: what sending a job needs.
  queue: () => jobQueue().then((boss) => boss.getQueue(QUEUES.purge)),
};

async function runCheck(name: string, check: (signal: AbortSignal) => Promise<unknown>): Promise<CheckResult> {
  const controller = new AbortController();
  try {
    await withTimeout(check(controller.signal), READY_CHECK_MS, () => controller.abort());
    return "ok";
  } catch (error) {
    logger.warn({ err: error, check: name }, "readiness check failed");
    return error instanceof Timeout ? "timeout" : "failed";
  }
}

/** /healthz: the process answers. No database call, so a slow database never gets a live process killed. */
export function healthz(extra: Record<string, string> = {}) {
  return (_req: Request, res: Response) => void res.set("Cache-Control", "no-store").json({ status: "ok", ...extra });
}

/**
 * /readyz: 200 when this instance can serve — started, not draining, and its database, object
 * storage and job queue each answered within READY_CHECK_MS — else 503. The body names each
 * check's result; why one failed goes to the log, not to whoever asked.
 */
export async function readyz(_req: Request, res: Response) {
  res.set("Cache-Control", "no-store");
  const phase = servingPhase();
  const names = Object.keys(READY_CHECKS);
  if (phase !== "serving") {
    return void res.status(503).json({ status: phase, checks: Object.fromEntries(names.map((name) => [name, "skipped"])) });
  }
  const results = await Promise.all(names.map(async (name) => [name, await runCheck(name, READY_CHECKS[name]!)] as const));
  const ok = results.every(([, result]) => result === "ok");
  res.status(ok ? 200 : 503).json({ status: ok ? "ready" : "unavailable", checks: Object.fromEntries(results) });
}

// ---- the metrics port ----

/** METRICS_PORT's own server: /metrics and nothing else, bound to METRICS_HOST (loopback by default). */
export async function startMetricsServer({ port = getEnv().METRICS_PORT, host = getEnv().METRICS_HOST }: { port?: number; host?: string } = {}) {
  const app = express();
  app.disable("x-powered-by");
  app.use(requestIds());
  app.get("/metrics", serveMetrics("metrics-port"));
  app.use((_req, res) => void res.status(404).json({ message: "Only /metrics is served on this port" }));
  const server = http.createServer(app);
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  return server;
}
