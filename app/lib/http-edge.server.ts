import { writeReadableStreamToWritable } from "@react-router/node";
import type { NextFunction, Request as ExpressRequest, Response as ExpressResponse } from "express";
import { createRequestHandler, type RouterContextProvider, type ServerBuild } from "react-router";
import type { RequestRule, RouteTable } from "./route-table.server.ts";

// The HTTP edge: what a request must look like before any route sees it, and the adapter that
// hands it to React Router. Why: a fuzzer's hostile requests (TRACE, NUL bytes, broken
// percent-encoding, dot segments, no Host, unbounded bodies) each became a 500 with a stack
// trace somewhere deeper. Each is refused here, once, with a 4xx and `{ message }`.

const MB = 1024 * 1024;

/**
 * What is left of a body nobody will read (refused, or answered without reading it) is read and
 * dropped, up to this much more or this long, before the connection is closed. RFC 9112 section 9.6:
 * closing with the body still arriving resets the connection under a client that is still sending,
 * which then reports the reset, not the answer (Node's fetch lost a 413 for 5 MB 13 times in 30).
 * Bounded so nobody can make the server read gigabytes; past either bound the connection closes.
 */
const LINGER_BYTES = 16 * MB;
const LINGER_MS = 5_000;

function tooLargeMessage(bytes: number) {
  return `Request body must be at most ${Math.round((bytes / MB) * 10) / 10} MB`;
}

const NUL_MESSAGE = "Request contains a NUL character";

// The web `Request` throws on these (fetch spec "forbidden methods"), so they could never
// reach a route: answered 405 on every path, /api included.
const REFUSED_METHODS = new Set(["CONNECT", "TRACE", "TRACK"]);
const ANY_METHOD = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"];
const FORM_TYPES = new Set(["application/x-www-form-urlencoded", "multipart/form-data"]);

/** host, IPv4 or [IPv6], with an optional port. */
const HOST = /^(?:\[[0-9a-f:.]+\]|[a-z0-9._~-]+)(?::(\d{1,5}))?$/i;
// ".", "..", or either with its dots percent-encoded, as a whole segment. The WHATWG URL that
// React Router matches on resolves them (and treats "\" as "/"), while the split build picks
// its part by the raw path: the two would disagree about which route answers.
const DOT_SEGMENT = /(?:^|[/\\])(?:\.|%2e){1,2}(?:[/\\]|$)/i;

function mediaType(header: string | undefined) {
  return (header ?? "").split(";", 1)[0]!.trim().toLowerCase();
}

/**
 * The request target as origin-form (path and query), or null if it is neither origin-form
 * nor absolute-form. RFC 9112 section 3.2.2 says an origin server must accept the absolute-form
 * (`GET http://host/path`): its path and query are served, but the authority in it is ignored
 * and the Host header kept, so a client cannot make the app build its links and redirects on
 * another host than the one every other request (and any cache in front) sees.
 */
export function originForm(target: string) {
  if (target.startsWith("/")) return target;
  const absolute = /^https?:\/\/[^/?#]*/i.exec(target);
  if (!absolute) return null;
  const rest = target.slice(absolute[0].length);
  return rest.startsWith("/") ? rest : `/${rest}`;
}

function decodes(pathname: string) {
  try {
    decodeURIComponent(pathname);
    return true;
  } catch {
    return false;
  }
}

const REFUSAL_TITLES: Record<number, string> = {
  400: "Bad request",
  403: "Forbidden",
  405: "Method not allowed",
  413: "Request too large",
  415: "Unsupported form encoding",
};

function escapeText(text: string) {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/**
 * A refusal from the edge, never a stack, never a route: `{ message }` for the /api contract
 * and media, a small HTML page for a browser's page request (a form posted without
 * JavaScript must not land on a raw JSON body).
 */
export function refuse(res: ExpressResponse, status: number, message: string, headers: Record<string, string> = {}) {
  res.status(status).set("Cache-Control", "no-store").set(headers);
  const rule = res.locals.route as RequestRule | undefined;
  if (rule?.errors !== "html") return void res.json({ message });
  const title = REFUSAL_TITLES[status] ?? "Request refused";
  res
    .type("html")
    .send(
      `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">` +
        `<title>${title} | Medanim</title></head><body style="font-family:system-ui,sans-serif;max-width:40rem;margin:4rem auto;padding:0 1rem">` +
        `<main><h1>${title}</h1><p>${escapeText(message)}</p><p><a href="/">Go to the home page</a></p></main></body></html>`,
    );
}

/**
 * Checks every request before any route or body reader: method, Host, the URL's bytes, a
 * page's method and form encoding, and a declared body length over the route's cap. Only
 * string checks: nothing is read or copied on a GET. Leaves the request's rule from the route
 * table in `res.locals.route` for the CSRF guard, compression, the body reader and the dispatch.
 */
export function edgeGuard(table: Pick<RouteTable, "ruleFor">) {
  return (req: ExpressRequest, res: ExpressResponse, next: NextFunction) => {
    const target = originForm(req.originalUrl);
    const query = target?.indexOf("?") ?? -1;
    const pathname = target === null ? "" : query === -1 ? target : target.slice(0, query);
    const rule = table.ruleFor(pathname, req.method);
    res.locals.route = rule;
    if (REFUSED_METHODS.has(req.method)) {
      return refuse(res, 405, "Method not allowed", { Allow: (rule.methods ?? ANY_METHOD).join(", ") });
    }
    // RFC 9112 section 3.2: a request with more than one Host header is answered 400 (Node keeps
    // only the first in req.headers; proxies and caches might pick another).
    if (hostHeaderCount(req.rawHeaders) > 1) return refuse(res, 400, "A request must have exactly one Host header");
    // Express 5's req.host reads X-Forwarded-Host only from a trusted proxy (TRUST_PROXY).
    const host = req.host;
    const hostMatch = host ? HOST.exec(host) : null;
    if (!hostMatch || (hostMatch[1] !== undefined && Number(hostMatch[1]) > 65535)) {
      return refuse(res, 400, "A valid Host header is required");
    }
    if (target === null) return refuse(res, 400, "Malformed URL");
    // PostgreSQL refuses NUL in text: stopped here rather than as a failed query.
    if (target.includes("\0") || target.includes("%00")) return refuse(res, 400, NUL_MESSAGE);
    if (pathname.includes("%") && !decodes(pathname)) return refuse(res, 400, "Malformed URL");
    if (DOT_SEGMENT.test(pathname)) return refuse(res, 400, "Malformed URL");
    if (rule.methods && !rule.methods.includes(req.method)) {
      return refuse(res, 405, "Method not allowed", { Allow: rule.methods.join(", ") });
    }
    if (rule.body.kind === "form" || rule.body.kind === "multipart") {
      if (req.method === "POST" && !FORM_TYPES.has(mediaType(req.headers["content-type"]))) {
        return refuse(res, 415, "Forms must be sent as application/x-www-form-urlencoded or multipart/form-data");
      }
    }
    const declared = req.headers["content-length"];
    const limit = rule.body.limit;
    if (declared !== undefined && limit !== null && Number(declared) > limit) {
      refuse(res, 413, tooLargeMessage(limit));
      return dropRest(req);
    }
    next();
  };
}

function hostHeaderCount(rawHeaders: string[]) {
  let count = 0;
  for (let i = 0; i < rawHeaders.length; i += 2) if (rawHeaders[i]!.length === 4 && rawHeaders[i]!.toLowerCase() === "host") count++;
  return count;
}

type LoadContext = (req: ExpressRequest, res: ExpressResponse) => RouterContextProvider | Promise<RouterContextProvider>;

/**
 * Express → React Router, in place of @react-router/express: the same streaming response and
 * abort on a closed connection, plus a URL built only from what edgeGuard checked and a body
 * stream that enforces the path's cap (and refuses NUL in form bodies) as the bytes arrive.
 */
export function createRouterHandler({
  build,
  mode,
  getLoadContext,
  keep,
}: {
  build: ServerBuild | (() => Promise<ServerBuild>);
  mode: string;
  getLoadContext: LoadContext;
  /** The page cache's (lib/page-cache.server.ts): sends a rendered answer it keeps and returns null, or returns what to send. */
  keep?: (req: ExpressRequest, res: ExpressResponse, response: Response) => Promise<Response | null>;
}) {
  const handleRequest = createRequestHandler(build, mode);
  return async (req: ExpressRequest, res: ExpressResponse, next: NextFunction) => {
    try {
      let url: URL;
      try {
        url = new URL(`${req.protocol}://${req.host}${originForm(req.originalUrl) ?? "/"}`);
      } catch {
        return refuse(res, 400, "Malformed URL");
      }
      const controller = new AbortController();
      let finished = false;
      res.on("finish", () => (finished = true));
      res.on("close", () => finished || controller.abort());
      const headers = new Headers();
      for (const [name, value] of Object.entries(req.headers)) {
        if (Array.isArray(value)) for (const one of value) headers.append(name, one);
        else if (value !== undefined) headers.set(name, value);
      }
      const init: RequestInit & { duplex?: "half" } = { method: req.method, headers, signal: controller.signal };
      if (req.method !== "GET" && req.method !== "HEAD") {
        init.body = boundedBody(req, res, controller, {
          limit: (res.locals.route as RequestRule | undefined)?.body.limit ?? MB,
          refuseNul: mediaType(req.headers["content-type"]) === "application/x-www-form-urlencoded",
        });
        init.duplex = "half";
      }
      const rendered = await handleRequest(new Request(url, init), await getLoadContext(req, res));
      const response = keep ? await keep(req, res, rendered) : rendered;
      if (response) await sendResponse(res, response);
    } catch (error) {
      next(error);
    }
  };
}

/**
 * The request body as a web stream, with backpressure. Past the cap (or at a NUL in a form
 * body) the client gets its 4xx at once, the route's request is aborted (so React Router
 * neither answers nor logs it), and what is left is dropped (dropRest): nothing beyond the cap
 * is buffered.
 */
function boundedBody(
  req: ExpressRequest,
  res: ExpressResponse,
  controller: AbortController,
  { limit, refuseNul }: { limit: number | null; refuseNul: boolean },
) {
  let received = 0;
  // The last two bytes of the previous chunk: "%00" may be split across chunks.
  let carry = "";
  let done = false;
  return new ReadableStream<Uint8Array>({
    start(stream) {
      const stop = (status: number, message: string) => {
        done = true;
        controller.abort();
        stream.error(new Error(message));
        if (res.headersSent) return void res.destroy();
        refuse(res, status, message);
        dropRest(req);
      };
      req.on("data", (chunk: Buffer) => {
        if (done) return;
        received += chunk.length;
        if (limit !== null && received > limit) return stop(413, tooLargeMessage(limit));
        if (refuseNul) {
          if (chunk.includes(0) || chunk.includes("%00") || `${carry}${chunk.toString("latin1", 0, 2)}`.includes("%00")) {
            return stop(400, NUL_MESSAGE);
          }
          carry = `${carry}${chunk.toString("latin1", Math.max(0, chunk.length - 2))}`.slice(-2);
        }
        stream.enqueue(chunk);
        if ((stream.desiredSize ?? 1) <= 0) req.pause();
      });
      // Answered without reading the whole body (a route with no action, a guard's redirect
      // before an upload form's action): the rest is dropped, so the connection can be reused.
      res.once("finish", () => {
        if (done) return;
        done = true;
        dropRest(req);
      });
      req.once("end", () => {
        if (done) return;
        done = true;
        stream.close();
      });
      req.once("close", () => {
        if (done || req.complete) return;
        done = true;
        stream.error(new Error("The client closed the connection before the body ended"));
      });
      req.once("error", (error) => {
        if (done) return;
        done = true;
        stream.error(error);
      });
    },
    pull() {
      req.resume();
    },
    cancel() {
      // The route did not want the rest.
      done = true;
      dropRest(req);
    },
  });
}

/**
 * Reads and drops what is left of the request's body (LINGER_BYTES, LINGER_MS), so that a client
 * still sending it reads the answer; past either bound the connection is closed. A body dropped
 * to its end leaves the connection usable for the client's next request.
 */
function dropRest(req: ExpressRequest) {
  if (req.complete || req.destroyed) return;
  let dropped = 0;
  const close = () => req.destroy();
  const timer = setTimeout(close, LINGER_MS).unref();
  req.on("data", (chunk: Buffer) => {
    dropped += chunk.length;
    if (dropped > LINGER_BYTES) close();
  });
  req.once("close", () => clearTimeout(timer));
  req.resume();
}

/** Headers set for every response in server.ts that a route's own value replaces. */
const ROUTE_OWNED_HEADERS = new Set(["content-security-policy", "x-frame-options", "cross-origin-opener-policy"]);

async function sendResponse(res: ExpressResponse, response: Response) {
  if (res.destroyed || res.writableEnded) {
    await response.body?.cancel();
    return;
  }
  res.statusMessage = response.statusText;
  res.status(response.status);
  // A route that sends its own security policy (the licensed embed, framed by the licence's
  // sites) replaces the one server.ts set for every response, rather than adding a second
  // policy that browsers would enforce as well; its frame-ancestors then decide framing alone,
  // so the global X-Frame-Options: DENY goes too unless the route sends one.
  if (response.headers.has("Content-Security-Policy") && !response.headers.has("X-Frame-Options")) res.removeHeader("X-Frame-Options");
  for (const [name, value] of response.headers.entries()) {
    if (ROUTE_OWNED_HEADERS.has(name)) res.setHeader(name, value);
    else res.append(name, value);
  }
  if (/text\/event-stream/i.test(response.headers.get("Content-Type") ?? "")) res.flushHeaders();
  if (!response.body) {
    res.end();
    return;
  }
  try {
    await writeReadableStreamToWritable(response.body, res);
  } catch (error) {
    if (res.destroyed || res.writableEnded) return;
    throw error;
  }
}
