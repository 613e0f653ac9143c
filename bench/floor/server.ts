// The floor's server: the same Express middleware shape as the app's server.ts (request
// logging, compression, security headers with a CSP nonce per response, static assets, the
// React Router handler), without anything of the app. Started by bench/run.ts.
import crypto from "node:crypto";
import http from "node:http";
import path from "node:path";
import { createRequestHandler } from "@react-router/express";
import compression from "compression";
import express, { type NextFunction, type Request, type Response } from "express";
import pino from "pino";
import { pinoHttp } from "pino-http";
import { requestContext } from "../../app/lib/request-context.server.ts";
import type { ServerBuild } from "react-router";

const here = path.dirname(new URL(import.meta.url).pathname);
const buildDir = path.join(here, "build");
const logger = pino({ level: process.env.LOG_LEVEL ?? "warn" });

function securityHeaders(_req: Request, res: Response, next: NextFunction) {
  const nonce = crypto.randomBytes(16).toString("base64");
  res.locals.cspNonce = nonce;
  res.setHeader(
    "Content-Security-Policy",
    [
      "default-src 'self'",
      `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'`,
      "style-src 'self' 'unsafe-inline'",
      "img-src 'self' data: blob: https:",
      "media-src 'self' blob: https:",
      "connect-src 'self' https://api.stripe.com",
      "frame-src https://js.stripe.com https://hooks.stripe.com",
      "font-src 'self' data:",
      "form-action 'self' https://checkout.stripe.com",
      "object-src 'none'",
      "base-uri 'none'",
      "frame-ancestors 'none'",
    ].join("; "),
  );
  res.setHeader("X-Content-Type-Options", "nosniff");
  res.setHeader("X-Frame-Options", "DENY");
  res.setHeader("Referrer-Policy", "strict-origin-when-cross-origin");
  res.setHeader("Cross-Origin-Opener-Policy", "same-origin");
  res.setHeader("Strict-Transport-Security", "max-age=31536000; includeSubDomains");
  next();
}

const build = (await import(path.join(buildDir, "server/index.js"))) as ServerBuild;
const app = express();
app.disable("x-powered-by");
app.set("trust proxy", 1);
app.use(
  pinoHttp({
    logger,
    autoLogging: { ignore: (req) => req.url?.startsWith("/assets/") === true },
    serializers: {
      req: (req: { id: unknown; method: string; url: string }) => ({ id: req.id, method: req.method, url: req.url }),
      res: (res: { statusCode: number }) => ({ status: res.statusCode }),
    },
  }),
);
app.use(compression());
app.use(securityHeaders);
app.use("/assets", express.static(path.join(buildDir, "client/assets"), { immutable: true, maxAge: "1y", index: false }));
app.use(express.static(path.join(buildDir, "client"), { maxAge: "1h", index: false }));
app.all("/{*splat}", createRequestHandler({ build, mode: "production", getLoadContext: (_req, res) => requestContext({ cspNonce: res.locals.cspNonce }) }));

const port = Number(process.env.PORT ?? 3299);
const server = http.createServer(app);
server.keepAliveTimeout = 65_000;
server.listen(port, () => console.log(`floor listening on ${port}`));
process.on("SIGTERM", () => server.close(() => process.exit(0)));
