import { isRouteErrorResponse } from "react-router";
import { requestContext } from "~/lib/request-context.server.ts";
import { apiDocumentMismatch } from "./api-document.ts";

type RouteModule = {
  loader?: (args: any) => unknown;
  action?: (args: any) => unknown;
};

export type RouteResult = {
  status: number;
  headers: Headers;
  body: any;
  /** Where a redirect points, if it is one. */
  location: string | null;
};

export type CallOptions = {
  method?: string;
  params?: Record<string, string>;
  headers?: Record<string, string>;
  json?: unknown;
  form?: Record<string, string | string[]>;
  body?: BodyInit;
  cookie?: string;
  token?: string;
  /** The client address the server saw (rate limits key on it). */
  clientIp?: string;
};

/** The method, headers and body `options` describe, as they go on the wire. */
export function requestParts(options: CallOptions) {
  const method = options.method ?? (options.json !== undefined || options.form ? "POST" : "GET");
  const headers = new Headers(options.headers);
  let body = options.body;
  if (options.json !== undefined) {
    headers.set("Content-Type", "application/json");
    body = JSON.stringify(options.json);
  } else if (options.form) {
    const form = new URLSearchParams();
    for (const [k, v] of Object.entries(options.form)) for (const one of [v].flat()) form.append(k, one);
    headers.set("Content-Type", "application/x-www-form-urlencoded");
    body = form.toString();
  }
  if (options.cookie) headers.set("Cookie", options.cookie);
  if (options.token) headers.set("Authorization", `Bearer ${options.token}`);
  return { method, headers, body };
}

/**
 * Calls a route module's loader (GET/HEAD) or action (anything else) with a real Request, and
 * normalises whatever it returns or throws (Response, data(), redirect) into one shape.
 */
export async function callRoute(mod: RouteModule, url: string, options: CallOptions = {}): Promise<RouteResult> {
  const { method, headers, body } = requestParts(options);
  const request = new Request(new URL(url, "http://localhost:3000"), { method, headers, body });
  const fn = method === "GET" || method === "HEAD" ? mod.loader : mod.action;
  if (!fn) throw new Error(`route has no ${method === "GET" ? "loader" : "action"}`);
  let outcome: unknown;
  try {
    // As React Router calls them: the request as it came, and the page's URL beside it.
    outcome = await fn({ request, url: new URL(request.url), params: options.params ?? {}, context: requestContext({ cspNonce: "", clientIp: options.clientIp }) });
  } catch (thrown) {
    outcome = thrown;
    if (!(thrown instanceof Response) && !isDataWithInit(thrown) && !isRouteErrorResponse(thrown)) throw thrown;
  }
  const result = await normalise(outcome);
  // Every /api answer is held to the OpenAPI document (tests/helpers/api-document.ts).
  if (new URL(request.url).pathname.startsWith("/api/")) {
    const mismatch = await apiDocumentMismatch(method, request.url, result.status, result.body);
    if (mismatch) throw new Error(mismatch);
  }
  return result;
}

function isDataWithInit(value: unknown): value is { type: "DataWithResponseInit"; data: unknown; init: ResponseInit | null } {
  return typeof value === "object" && value !== null && (value as { type?: string }).type === "DataWithResponseInit";
}

async function normalise(outcome: unknown): Promise<RouteResult> {
  if (outcome instanceof Response) {
    const text = await outcome.text();
    let body: unknown = text;
    try {
      body = text ? JSON.parse(text) : null;
    } catch {
      // not JSON: keep the text
    }
    return { status: outcome.status, headers: outcome.headers, body, location: outcome.headers.get("Location") };
  }
  if (isDataWithInit(outcome)) {
    const headers = new Headers(outcome.init?.headers);
    return { status: outcome.init?.status ?? 200, headers, body: outcome.data, location: headers.get("Location") };
  }
  if (isRouteErrorResponse(outcome)) {
    return { status: outcome.status, headers: new Headers(), body: outcome.data, location: null };
  }
  // A plain object from a loader: serialised as JSON by the framework, status 200.
  return { status: 200, headers: new Headers(), body: JSON.parse(JSON.stringify(outcome ?? null)), location: null };
}

/** The cookie pairs a response sets, as a Cookie request header. */
export function cookiesFrom(result: RouteResult, previous = ""): string {
  const jar = new Map(
    previous
      .split(/;\s*/)
      .filter(Boolean)
      .map((pair) => [pair.split("=")[0], pair] as const),
  );
  for (const line of result.headers.getSetCookie()) {
    const pair = line.split(";")[0]!;
    const name = pair.split("=")[0]!;
    if (/max-age=0/i.test(line) || /expires=Thu, 01 Jan 1970/i.test(line)) jar.delete(name);
    else jar.set(name, pair);
  }
  return [...jar.values()].join("; ");
}
