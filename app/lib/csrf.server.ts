import type { NextFunction, Request, Response } from "express";
import { getEnv } from "./env.server.ts";

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * Refuses state-changing browser requests from other sites (403): `Sec-Fetch-Site: cross-site`,
 * or an Origin that is not the app's. Payment webhooks come from the provider by design,
 * bearer-token /api calls carry no ambient cookie credentials, and an unsubscribe link is
 * authorised by its own signature, not a cookie (RFC 8058: the mail provider POSTs it), so
 * all three are exempt.
 */
export function csrfGuard(req: Request, res: Response, next: NextFunction) {
  if (SAFE_METHODS.has(req.method)) return next();
  if (req.path.startsWith("/api/webhooks/") || req.path === "/unsubscribe") return next();
  if (req.path.startsWith("/api/") && /^Bearer\s/i.test(req.headers.authorization ?? "") && !req.headers.cookie) {
    return next();
  }
  if (req.headers["sec-fetch-site"] === "cross-site") return refuse(res);
  const origin = req.headers.origin;
  if (origin && origin !== "null" && !allowedOrigins(req).includes(origin)) return refuse(res);
  if (origin === "null") return refuse(res);
  next();
}

function allowedOrigins(req: Request) {
  const env = getEnv();
  const origins = [`${req.protocol}://${req.get("host")}`];
  if (env.APP_URL) origins.push(new URL(env.APP_URL).origin);
  return origins;
}

function refuse(res: Response) {
  res.status(403).json({ message: "Cross-site request refused" });
}
