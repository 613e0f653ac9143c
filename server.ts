// The process around the app: load it, listen, drain and stop. The app itself (middleware, the
// routes, the database) is app/server/app.ts, bundled into the server build: production imports
// build/server/index.js, development loads the same module through Vite. Nothing here imports
// app/, so the process holds one copy of every app module, the one the routes use.
import http from "node:http";
import path from "node:path";
import type { ViteDevServer } from "vite";

type AppServer = typeof import("./app/server/app.ts");
type Mode = "production" | "development";

/** The production server build in BUILD_DIR (`npm run build`): app/server/app.ts and everything it serves. */
export async function loadProductionBuild(buildDir = path.resolve(process.env.BUILD_DIR ?? "build")) {
  return (await import(path.join(buildDir, "server/index.js"))) as AppServer;
}

/** Development: Vite in middleware mode, and the app module loaded through it. */
async function loadDevelopmentApp() {
  const before = new Set(process.listeners("SIGTERM"));
  const { createServer } = await import("vite");
  const vite: ViteDevServer = await createServer({ server: { middlewareMode: true }, appType: "custom" });
  // React Router's dev server installs a SIGTERM handler that exits at once: ours drains and
  // closes the DB. Only the handlers it added go: tsx's own (it tells the tsx parent that this
  // process took the signal) must stay, or tsx kills this process 60 ms into its drain.
  for (const listener of process.listeners("SIGTERM")) if (!before.has(listener)) process.off("SIGTERM", listener);
  const appServer = (await vite.ssrLoadModule("/app/server/app.ts")) as AppServer;
  return { appServer, vite };
}

/**
 * The app module for this process: the production build, or the source through Vite. The
 * environment decides which (NODE_ENV=production), unless `mode` says.
 */
export async function loadAppServer(mode: Mode = process.env.NODE_ENV === "production" ? "production" : "development") {
  return mode === "production" ? { appServer: await loadProductionBuild(), vite: undefined } : await loadDevelopmentApp();
}

/** Starts listening; SIGTERM/SIGINT stop accepting, finish in-flight requests, close the DB. */
export async function startServer({
  loaded,
  port,
  role,
}: { loaded?: Awaited<ReturnType<typeof loadAppServer>>; port?: number; role?: "web" | "worker" | "all" } = {}) {
  const { appServer, vite } = loaded ?? (await loadAppServer());
  const { createApp, getEnv, logger, setServingPhase, workerApp } = appServer;
  port ??= getEnv().PORT;
  role ??= getEnv().APP_ROLE;
  const mode: Mode = vite ? "development" : "production";
  // /readyz answers 503 until the job workers are up too.
  setServingPhase("starting");
  // APP_ROLE=worker runs the jobs (transcodes above all) and answers only /healthz, so web
  // instances (APP_ROLE=web) on the same PostgreSQL stay responsive while a 4K master encodes.
  const app = role === "worker" ? workerApp() : await createApp({ mode, vite });
  const server = http.createServer(app);
  // Above common load balancers' 60 s idle timeout, so they never reuse a closed connection.
  server.keepAliveTimeout = 65_000;
  server.headersTimeout = 66_000;
  await new Promise<void>((resolve) => server.listen(port, resolve));

  const background = await appServer.startBackground(role);
  setServingPhase("serving");

  // Answers under way when a stop begins. A keep-alive connection (a load balancer's, a
  // client's pool) would otherwise stay open after its last answer until the client drops it,
  // holding the stop until the 25 s deadline: while stopping, every answer closes its connection.
  const inFlight = new Set<http.ServerResponse>();
  let stopping = false;
  server.on("request", (_req: http.IncomingMessage, res: http.ServerResponse) => {
    if (stopping) res.shouldKeepAlive = false;
    inFlight.add(res);
    res.once("close", () => inFlight.delete(res));
  });
  function closeAfterAnswer(res: http.ServerResponse) {
    if (!res.headersSent) res.shouldKeepAlive = false;
    // Headers already out (a stream): its connection is idle once the answer ends.
    else res.once("finish", () => setImmediate(() => server.closeIdleConnections()));
  }

  async function shutdown(signal: string) {
    if (stopping) return;
    stopping = true;
    // /readyz answers 503 from here on. For DRAIN_DELAY_MS the instance keeps serving everything
    // else, so a load balancer polling /readyz takes it out of rotation before its port closes;
    // then what was accepted finishes.
    setServingPhase("draining");
    const delayMs = getEnv().DRAIN_DELAY_MS;
    if (delayMs > 0) {
      logger.info({ signal, delayMs }, "draining: /readyz answers 503 before the port closes");
      await new Promise((resolve) => setTimeout(resolve, delayMs));
    }
    for (const res of inFlight) closeAfterAnswer(res);
    // A transcode in progress is aborted and put back in the queue for the next start.
    const workerStopped = background.stop().catch((error) => logger.error({ err: error }, "stopping the job workers failed"));
    logger.info({ signal }, "shutting down");
    const force = setTimeout(() => {
      logger.error("in-flight requests did not finish in 25 s; closing anyway");
      server.closeAllConnections();
    }, 25_000);
    force.unref();
    server.close(async () => {
      clearTimeout(force);
      // Open until here: the last scrape can see the drain.
      background.closeMetrics();
      await workerStopped;
      await appServer.closeResources();
      logger.info("stopped");
      process.exit(0);
    });
    server.closeIdleConnections();
  }
  process.on("SIGTERM", () => void shutdown("SIGTERM"));
  process.on("SIGINT", () => void shutdown("SIGINT"));
  return server;
}

// `npm run serve` (or `tsx server.ts`): migrate (and add missing system mail templates), then serve.
// `npm start` adds the build and the first run's demo seed.
if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) {
  try {
    const loaded = await loadAppServer();
    const { getDb, getEnv, logger } = loaded.appServer;
    const { prepareDatabase } = await import("./scripts/prepare-database.ts");
    await prepareDatabase(getDb(), { seedOnFirstRun: false });
    await startServer({ loaded });
    logger.info(`Medanim listening on http://localhost:${getEnv().PORT}`);
  } catch (error) {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  }
}
