import type { NextFunction, Request, Response } from "express";
import { getEnv } from "./env.server.ts";
import { refuse as refuseAtEdge } from "./http-edge.server.ts";
import type { RequestRule } from "./route-table.server.ts";

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * Refuses state-changing browser requests from other sites (403): `Sec-Fetch-Site: cross-site`,
 * or an Origin that is not the app's. Bearer-token /api calls carry no ambient cookie
 * credentials; routes the route table marks exempt (app/route-rules.ts: the payment webhook,
 * the signed unsubscribe link) say why there.
 */
export function csrfGuard(req: Request, res: Response, next: NextFunction) {
  if (SAFE_METHODS.has(req.method)) return next();
  const rule = res.locals.route as RequestRule | undefined;
  if (rule?.csrfExempt) return next();
  if (rule?.part === "api" && /^Bearer\s/i.test(req.headers.authorization ?? "") && !req.headers.cookie) {
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
  refuseAtEdge(res, 403, "Cross-site request refused");
}
