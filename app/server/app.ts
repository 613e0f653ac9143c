// The Express app, built into the server build (vite.config.ts makes this module the SSR build's
// entry): production's server.ts imports build/server/index.js and development loads this file
// through Vite, so the app and the routes it serves share one copy of every module (the database,
// env, logger, caches). server.ts only listens, drains and stops, through what this module exports.
import crypto from "node:crypto";
import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import compression from "compression";
import express, { type NextFunction, type Request, type Response } from "express";
import { pinoHttp } from "pino-http";
import type { ServerBuild } from "react-router";
import type { ViteDevServer } from "vite";
import { getDb, setDb } from "~/lib/db.server.ts";
import { getEnv } from "~/lib/env.server.ts";
import { isStripeConfigured } from "~/lib/payments/index.server.ts";
import { logger } from "~/lib/logger.server.ts";
import { csrfGuard } from "~/lib/csrf.server.ts";
import { createRouterHandler, edgeGuard, refuse } from "~/lib/http-edge.server.ts";
import { mediaRouter } from "~/media-router.server.ts";
import { precompressedAssets } from "~/lib/precompressed.server.ts";
import { type BuildPart, createRouteTable, type RequestRule, type RouteRuleOverride } from "~/lib/route-table.server.ts";
import { ROUTE_RULES, SHARED_ANSWERS } from "~/route-rules.ts";
import { keepRendered, pageCache } from "~/lib/page-cache.server.ts";
import { requestContext } from "~/lib/request-context.server.ts";
import { healthz, httpMetrics, readyz, requestIds, serveMetrics, startMetricsServer } from "~/lib/operations.server.ts";
import { setServingPhase } from "~/lib/readiness.server.ts";
import { storageOrigin } from "~/lib/storage.server.ts";
import { flushViewCounts, recordView } from "~/services/catalogue/views.server.ts";
import { startJobWorkers } from "~/services/job-workers.server.ts";

// What server.ts (and `npm start`, `npm run dev`) use around the app: the process's settings and
// log, readiness, and the database (a bench hands it one of its own).
export { getDb, getEnv, logger, setDb, setServingPhase };

/**
 * The Content-Security-Policy of this app's responses, but for its script sources: a fresh
 * nonce per rendered response, or the hashes of a kept document's inline scripts (the page
 * cache, lib/page-cache.server.ts).
 */
function contentSecurityPolicy(mode: "production" | "development") {
  // With S3, browsers upload to and play from the bucket's origin directly.
  const storage = storageOrigin() ? ` ${storageOrigin()}` : "";
  // Stripe.js, its iframes and Stripe Checkout's form target are allowed only when Stripe is
  // configured: in test mode every payment screen is our own. Our own frames: the embed
  // preview on /my-animations.
  const stripe = isStripeConfigured();
  const stripeScripts = stripe ? " https://js.stripe.com" : "";
  const stripeFrames = stripe ? " https://js.stripe.com https://hooks.stripe.com" : "";
  const stripeApi = stripe ? " https://api.stripe.com" : "";
  const stripeCheckout = stripe ? " https://checkout.stripe.com" : "";
  const mediaBase = getEnv().MEDIA_BASE_URL ? ` ${new URL(getEnv().MEDIA_BASE_URL!).origin}` : "";
  const dev = mode === "development";
  return (scriptSources: string) =>
    [
      "default-src 'self'",
      `script-src 'self' ${scriptSources}${stripeScripts}${dev ? " 'unsafe-eval'" : ""}`,
      "style-src 'self' 'unsafe-inline'",
      // MEDIA_BASE_URL (a CDN) serves the players' files: the progressive MP4 and previews
      // (media-src), the storyboard's sprite (img-src), and what hls.js and the storyboard fetch
      // (connect-src; blob: in media-src is hls.js's MediaSource). Named even though https:
      // covers it, so an http origin (a local CDN, a test) works too.
      `img-src 'self' data: blob: https:${storage}${mediaBase}`,
      `media-src 'self' blob: https:${storage}${mediaBase}`,
      `connect-src 'self'${dev ? " ws: wss:" : ""}${stripeApi}${storage}${mediaBase}`,
      `frame-src 'self'${stripeFrames}`,
      "font-src 'self' data:",
      `form-action 'self'${stripeCheckout}`,
      "object-src 'none'",
      "base-uri 'none'",
      "frame-ancestors 'none'",
    ].join("; ");
}

/** Headers every response carries; the CSP is enforced, with a fresh nonce per response. */
function securityHeaders(mode: "production" | "development", policyFor: (scriptSources: string) => string) {
  const dev = mode === "development";
  return (_req: Request, res: Response, next: NextFunction) => {
    const nonce = crypto.randomBytes(16).toString("base64");
    res.locals.cspNonce = nonce;
    res.setHeader("Content-Security-Policy", policyFor(`'nonce-${nonce}' 'strict-dynamic'`));
    res.setHeader("X-Content-Type-Options", "nosniff");
    res.setHeader("X-Frame-Options", "DENY");
    res.setHeader("Referrer-Policy", "strict-origin-when-cross-origin");
    res.setHeader("Cross-Origin-Opener-Policy", "same-origin");
    res.setHeader("Permissions-Policy", 'camera=(), microphone=(), geolocation=(), payment=(self "https://js.stripe.com")');
    if (!dev) res.setHeader("Strict-Transport-Security", "max-age=31536000; includeSubDomains");
    next();
  };
}

/** What every loader and action gets beside the request: the CSP nonce and the client's address. */
export function loadContext(req: Request, res: Response) {
  return requestContext({ cspNonce: res.locals.cspNonce as string, clientIp: req.ip });
}

/** build/client: hashed assets for a year, the few top-level files (favicon) for an hour. */
function serveClientFiles(app: express.Express, clientDir: string) {
  // Scripts and styles go out as compressed at build time when the browser takes brotli or gzip.
  app.use("/assets", precompressedAssets(path.join(clientDir, "assets")));
  app.use("/assets", express.static(path.join(clientDir, "assets"), { immutable: true, maxAge: "1y", index: false }));
  // Listed once: a page request then costs no file-system lookup that can only fail.
  const topFiles = new Set(
    fs
      .readdirSync(clientDir, { withFileTypes: true })
      .filter((e) => e.isFile())
      .map((e) => `/${e.name}`),
  );
  const serveTopFile = express.static(clientDir, { maxAge: "1h", index: false });
  app.use((req, res, next) => (topFiles.has(req.path) ? serveTopFile(req, res, next) : next()));
}

export type AppOptions = {
  mode: "production" | "development";
  /**
   * The server build to serve. Production serves the build this module is bundled into (and
   * BUILD_DIR's client files); development loads it through Vite; the tests pass one assembled from app/routes.ts and the
   * same route modules (tests/helpers/app.ts).
   */
  build?: ServerBuild;
  /** Development: the Vite server that loaded this module (server.ts), for HMR and fresh route modules. */
  vite?: ViteDevServer;
  /** Express's `trust proxy`; TRUST_PROXY by default. */
  trustProxy?: ReturnType<typeof getEnv>["TRUST_PROXY"];
  /** The rules beside the route table (app/route-rules.ts); a test with a build of its own names its own. */
  routeRules?: Record<string, RouteRuleOverride>;
  /** The routes whose anonymous answers the page cache may keep (app/route-rules.ts's with its rules). */
  sharedAnswers?: readonly string[];
};

/** A page view served from the page cache still counts (the animation page names its animation). */
function countView(animationId: string) {
  recordView(animationId).catch((error) => logger.error({ err: error }, "counting a view failed"));
}

/**
 * The Express app, the one door every request enters by: `npm start`, the bench and the tests.
 * Logging, compression, security headers, the edge guard (with the route table's rule for the
 * request), health, CSRF, the media router, then the part of the split build that serves the
 * path. Throws when a route of the build would be unreachable.
 */
export async function createApp({
  mode,
  build,
  trustProxy = getEnv().TRUST_PROXY,
  routeRules = ROUTE_RULES,
  // A test with rules of its own (a build of its own) shares nothing unless it says so.
  sharedAnswers = routeRules === ROUTE_RULES ? SHARED_ANSWERS : [],
  vite,
}: AppOptions) {
  const app = express();
  app.disable("x-powered-by");
  // Whose X-Forwarded-For/-Proto/-Host to believe (TRUST_PROXY): nobody unless configured, or
  // any client could rotate the header and get a fresh sign-in allowance per guess.
  app.set("trust proxy", trustProxy);

  const loadDevBuild = () => vite!.ssrLoadModule("virtual:react-router/server-build") as Promise<ServerBuild>;
  const servesClientFiles = !build && mode === "production";
  // Production: the build this module is part of (vite.config.ts makes it the server build's
  // entry), so the app and the routes share one copy of every module.
  const serverBuild = build ?? (vite ? await loadDevBuild() : ((await import("virtual:react-router/server-build")) as ServerBuild));
  // In development the table is read from the build at start: restart after adding a route.
  const table = createRouteTable(serverBuild, routeRules, sharedAnswers);
  // First: every response, a refusal included, has an id, and is counted.
  app.use(requestIds());
  app.use(httpMetrics(table.patternFor));
  app.use(
    pinoHttp({
      logger,
      genReqId: (_req, res) => (res as unknown as Response).locals.requestId as string,
      // Probes and scrapes come every few seconds; they are counted in the metrics instead.
      autoLogging: { ignore: (req) => QUIET_PATHS.has(req.url ?? "") || req.url?.startsWith("/assets/") === true },
      // A client's mistake is one warning line; only the server's own failures are errors.
      customLogLevel: (_req, res, err) => (err || res.statusCode >= 500 ? "error" : res.statusCode >= 400 ? "warn" : "info"),
      // One short line per request; headers (cookies, tokens) stay out of the logs.
      serializers: {
        req: (req: { id: unknown; method: string; url: string }) => ({ id: req.id, method: req.method, url: req.url }),
        res: (res: { statusCode: number }) => ({ status: res.statusCode }),
      },
    }),
  );
  // Media is streamed as is (the route table says which paths): compressing video breaks byte
  // ranges and gains nothing. The filter runs when the answer starts, after the edge's rule.
  app.use(compression({ filter: (req, res) => (res.locals.route as RequestRule | undefined)?.compress !== false && compression.filter(req, res) }));
  const policyFor = contentSecurityPolicy(mode);
  app.use(securityHeaders(mode, policyFor));
  // Before /healthz, the media router and React Router: hostile requests stop here with a 4xx.
  app.use(edgeGuard(table));
  // An anonymous visitor's page or public call, kept from an earlier render (decision 021).
  // Vite's development server renders every request: a code change must show at the next reload.
  if (!vite) app.use(pageCache({ patternFor: table.patternFor, shared: table.shared, policyFor, onView: countView }));

  app.get("/healthz", healthz());
  app.get("/readyz", readyz);
  app.get("/metrics", serveMetrics("public"));

  // The API reference's renderer (GET /api/docs): Swagger UI's script and stylesheet, served
  // from the installed package, never a CDN; a day in caches (the version is pinned).
  const swaggerUiDir = path.dirname(createRequire(import.meta.url).resolve("swagger-ui-dist/package.json"));
  const docAssets = new Set(["/swagger-ui-bundle.js", "/swagger-ui.css"]);
  const serveDocAsset = express.static(swaggerUiDir, { maxAge: "1d", index: false });
  app.use("/api/docs/assets", (req, res, next) => (docAssets.has(req.path) ? serveDocAsset(req, res, next) : next()));

  app.use(csrfGuard);
  app.use(mediaRouter());
  if (vite) app.use(vite.middlewares);
  if (servesClientFiles) serveClientFiles(app, path.join(path.resolve(process.env.BUILD_DIR ?? "build"), "client"));

  const handlerFor = (part: ServerBuild | (() => Promise<ServerBuild>)) =>
    createRouterHandler({ build: part, mode, getLoadContext: loadContext, keep: keepRendered });
  const parts = table.split();
  const handlers: Record<BuildPart | "all", ReturnType<typeof handlerFor>> = vite
    ? { api: handlerFor(loadDevBuild), pages: handlerFor(loadDevBuild), embed: handlerFor(loadDevBuild), all: handlerFor(loadDevBuild) }
    : { api: handlerFor(parts.api), pages: handlerFor(parts.pages), embed: handlerFor(parts.embed), all: handlerFor(parts.all) };
  app.all("/{*splat}", (req, res, next) => {
    const part = (res.locals.route as RequestRule).part;
    return handlers[part === "server" ? "pages" : part](req, res, next);
  });
  // Express's own handler prints every error's stack, a client's 400 included.
  app.use((error: { status?: number; statusCode?: number }, req: Request, res: Response, _next: NextFunction) => {
    const declared = error.status ?? error.statusCode;
    const status = declared !== undefined && declared >= 400 && declared < 600 ? declared : 500;
    if (status >= 500) logger.error({ err: error, method: req.method, url: req.originalUrl }, "request failed");
    if (res.headersSent) return void res.destroy();
    refuse(res, status, status >= 500 ? "Something went wrong" : "Bad request");
  });
  return app;
}

/** Paths left out of the request log: load balancers' probes and Prometheus's scrapes. */
const QUIET_PATHS = new Set(["/healthz", "/readyz", "/metrics"]);

/** A worker-only process's HTTP side: its health and its metrics, for the orchestrator and Prometheus. */
export function workerApp() {
  const app = express();
  app.disable("x-powered-by");
  app.set("trust proxy", getEnv().TRUST_PROXY);
  app.use(requestIds());
  app.use(httpMetrics((pathname) => (QUIET_PATHS.has(pathname) ? pathname : "unmatched")));
  app.get("/healthz", healthz({ role: "worker" }));
  app.get("/readyz", readyz);
  app.get("/metrics", serveMetrics("public"));
  app.use((_req, res) => void res.status(404).json({ message: "This instance runs jobs only" }));
  return app;
}

/**
 * What runs beside the HTTP server: the job workers (none on APP_ROLE=web) and the metrics port
 * (METRICS_PORT). Resolves once both are up; `stop` aborts the workers (a transcode in progress
 * goes back to the queue), `closeMetrics` closes the metrics port.
 */
export async function startBackground(role: ReturnType<typeof getEnv>["APP_ROLE"]) {
  // Campaigns, transcodes, the hourly billing sweep and purge: durable jobs on the app's
  // database (pg-boss); a transcode or a campaign slice in progress is stopped at shutdown and
  // retried by the next start (or another instance).
  const jobWorkers = role === "web" ? { stop: async () => undefined } : await startJobWorkers();
  const metricsServer = getEnv().METRICS_PORT ? await startMetricsServer() : undefined;
  return {
    stop: () => jobWorkers.stop(),
    closeMetrics() {
      metricsServer?.closeAllConnections();
      metricsServer?.close();
    },
  };
}

/** The last writes, then the database: views are written in batches, the last batch goes in first. */
export async function closeResources() {
  await flushViewCounts().catch((error) => logger.error({ err: error }, "storing view counts failed"));
  await getDb()
    .close()
    .catch((error) => logger.error({ err: error }, "closing the database failed"));
}
