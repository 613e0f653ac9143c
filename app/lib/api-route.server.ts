import { isRouteErrorResponse, type RouterContextProvider } from "react-router";
import type { z } from "zod";
import { ServiceError } from "./errors.server.ts";
import { cachedJson, type CachePolicy, NO_STORE } from "./http-cache.server.ts";
import { logger } from "./logger.server.ts";
import { toWellFormedInput } from "./well-formed.server.ts";

// The one way to write an /api route (docs/architecture.md, "Rules of the house"): a table of the
// methods it serves, each parse → authorise → one service call → respond. Everything else an
// /api call needs is here once: 405 with Allow, JSON body parsing, the error shape
// `{ message, errors? }`, and the cache policy.

export type Method = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
export const METHODS: Method[] = ["GET", "POST", "PUT", "PATCH", "DELETE"];

type Params = Record<string, string | undefined>;

/**
 * Who may call an endpoint, as the reference says it (routes/api/openapi.server.ts): anyone
 * without the caller being read (`none`); anyone, the answer shaped for a signed-in caller
 * (`optional`); a signed-in user (`user`, else 401); an admin (`admin`, else 401 or 403).
 */
export type Access = "none" | "optional" | "user" | "admin";

/**
 * A guard: reads the caller from the request (or throws the 401/403 answer), and says which
 * access it grants. An endpoint's access is its guard's, so the two cannot disagree.
 */
export type Guard<User> = ((request: Request) => Promise<User>) & { readonly access: Access };

/** Marks a guard function with the access it grants (services/auth/guards.server.ts). */
export function defineGuard<User>(access: Access, check: (request: Request) => Promise<User>): Guard<User> {
  return Object.assign(check, { access });
}

/**
 * A second factor confirmed recently, asked of the back office's most dangerous calls (decision
 * 019). `check` throws the 403 with `stepUpRequired` (services/auth/step-up.server.ts) and
 * `refusal` is that 403 as the reference documents it. Checked once the input is read, just
 * before `run`; or, `inRun`, by `run` through `stepUp()` where the service decides (only a price
 * change needs it, or only after the input's own checks), so the reference and the behaviour
 * come from one declaration.
 */
export type StepUp = { check: (request: Request) => Promise<unknown>; refusal: string; inRun: boolean };

export type EndpointArgs<User, Body, Query> = {
  request: Request;
  params: Params;
  url: URL;
  context: Readonly<RouterContextProvider> | undefined;
  /** What `auth` returned: the caller (null when optional and anonymous; undefined for `anyone`). */
  user: User;
  /** The parsed `body` schema's value. */
  body: Body;
  /** The parsed `query` schema's value (empty parameters left out). */
  query: Query;
  /** The declared step-up's check, for a `run` whose step-up is `inRun`. */
  stepUp: () => Promise<void>;
};

export type Endpoint<User = undefined, Body = undefined, Query = undefined> = {
  /** One line for the API reference (GET /api/openapi.json, /api/docs). */
  summary: string;
  /**
   * For the reference: what the call does and what it changes, for whom. The reference puts who
   * may call it (from `auth`) in front of it.
   */
  description: string;
  /**
   * Who may call it: `anyone` (the caller is not read), `getUser` (optional: the caller, or
   * null), `requireUser`, `requireAdmin` (services/auth/guards.server.ts). An endpoint whose
   * answer depends on the caller must say so with getUser: reading the caller under `anyone`
   * fails the call (assertCallerMayBeRead).
   */
  auth: Guard<User>;
  /** A recent second factor on top of `auth` (STEP_UP, stepUpInRun in services/auth/step-up.server.ts). */
  stepUp?: StepUp;
  /** The request body's schema: JSON (or a form, for simple clients); 400 with its messages. */
  body?: z.ZodType<Body>;
  /** A body `run` reads itself (a signed payload): documented, not parsed. */
  rawBody?: { mediaType: string; description: string; schema?: z.ZodType };
  /** Request headers `run` reads, for the reference. */
  headers?: Record<string, { description: string; required?: boolean }>;
  /** The query string's schema; 400 with its first message. */
  query?: z.ZodType<Query>;
  /** Status of a successful answer (201 for creations, 204 for none). */
  status?: number;
  /**
   * The successful answer's JSON body, for the reference; tests validate every answer against
   * it. Only a 204 (or an endpoint whose answer is not JSON, which says so in `produces`) has none.
   */
  response?: z.ZodType;
  /** Answers of other statuses whose body is not the error shape (a 202 beside the 200). */
  otherResponses?: Record<number, z.ZodType>;
  /** The media type of a non-JSON answer (a PDF, HTML). */
  produces?: string;
  /**
   * Failure statuses beyond the ones the reference derives (400 for a body or query, 401/403 for
   * a guard, 404 for a path id), each with the reference's usual text, or with this call's own.
   */
  errors?: number[] | Record<number, string>;
  /** Cache-Control of a successful answer; every other answer is no-store. */
  cache?: CachePolicy | ((request: Request) => CachePolicy);
  /** The work: returns the JSON body, or a Response when it needs headers of its own. */
  run: (args: EndpointArgs<User, Body, Query>) => unknown;
};

/** One method's endpoint, typed from its guard and schema. */
export function endpoint<User = undefined, Body = undefined, Query = undefined>(definition: Endpoint<User, Body, Query>) {
  return definition;
}

type RouteArgs = { request: Request; params: Params; context?: Readonly<RouterContextProvider>; url?: URL };

/**
 * The handler for every method of an /api route: export it as both `loader` and `action`.
 * Methods the table lacks answer 405 with `Allow`; HEAD is served by GET.
 */
export function apiRoute(endpoints: EndpointTable) {
  const served = METHODS.filter((method) => endpoints[method]);
  const allow = (endpoints.GET ? ["GET", "HEAD", ...served.filter((m) => m !== "GET")] : served).join(", ");
  const handler = async ({ request, params, context, url }: RouteArgs): Promise<Response> => {
    const method = request.method === "HEAD" ? "GET" : request.method;
    const definition = endpoints[method as Method];
    if (!definition) return errorResponse(new ServiceError("Method not allowed", 405), { Allow: allow });
    try {
      if (definition.auth.access === "none") callerNotRead.add(request);
      const user = await definition.auth(request);
      const requestUrl = url ?? new URL(request.url);
      const query = definition.query ? readQuery(requestUrl, definition.query) : undefined;
      const body = definition.body ? await readBody(request, definition.body) : undefined;
      const declared = definition.stepUp;
      if (declared && !declared.inRun) await declared.check(request);
      const stepUp = async () => {
        if (!declared) throw new Error(`${method} ${requestUrl.pathname} asks for a step-up it does not declare`);
        await declared.check(request);
      };
      const result = await definition.run({ request, params, url: requestUrl, context, user, body, query, stepUp });
      if (result instanceof Response) return result;
      const policy = typeof definition.cache === "function" ? definition.cache(request) : (definition.cache ?? NO_STORE);
      return cachedJson(request, result ?? {}, policy, definition.status ?? 200);
    } catch (error) {
      return apiErrorResponse(error);
    }
  };
  // The table travels with the handler: the OpenAPI document is read from it (routes/api/openapi.server.ts).
  return Object.assign(handler, { endpoints });
}

export type EndpointTable = Partial<Record<Method, Endpoint<any, any, any>>>;

// Requests served by an endpoint documented as not reading its caller.
const callerNotRead = new WeakSet<Request>();

/**
 * Called by getUser before it reads the caller: an endpoint whose auth is `anyone` that reads
 * the caller anyway (its answer would change with a token the reference says it ignores) fails
 * with this error, and every /api route is called with a token by the contract tests.
 */
export function assertCallerMayBeRead(request: Request) {
  if (callerNotRead.has(request)) {
    throw new Error(`${request.method} ${new URL(request.url).pathname} reads the caller but its auth is anyone: make it getUser (optional)`);
  }
}

/** Any failure as the one /api error shape; unexpected ones are logged and answer 500. */
export function apiErrorResponse(error: unknown): Response {
  if (error instanceof ServiceError) {
    return errorResponse(error, error.retryAfterSeconds ? { "Retry-After": String(error.retryAfterSeconds) } : undefined);
  }
  if (error instanceof ApiBodyError) return errorResponse(new ServiceError(error.message, 400), undefined, error.errors);
  // Guards throw React Router's `data({ message }, { status })` or a redirect.
  if (error instanceof Response) return error;
  if (isDataWithResponseInit(error)) {
    const init = error.init ?? {};
    const message = typeof error.data?.message === "string" ? error.data.message : "Request failed";
    return errorResponse(new ServiceError(message, init.status ?? 500), init.headers, undefined, refusalFlags(error.data));
  }
  if (isRouteErrorResponse(error)) return errorResponse(new ServiceError(String(error.data?.message ?? error.statusText), error.status));
  logger.error({ err: error }, "unexpected error in an /api call");
  return errorResponse(new ServiceError("Something went wrong. Please try again later.", 500));
}

/**
 * The documented flags a guard's refusal carries beside its message, so a client knows what to
 * do next: `stepUpRequired` (confirm a second factor), `secondFactorRequired` (set one up).
 */
const REFUSAL_FLAGS = ["stepUpRequired", "secondFactorRequired"] as const;
function refusalFlags(data: Record<string, unknown> | null) {
  const flags: Record<string, true> = Object.fromEntries(REFUSAL_FLAGS.filter((flag) => data?.[flag] === true).map((flag) => [flag, true as const]));
  return Object.keys(flags).length ? flags : undefined;
}

function errorResponse(error: ServiceError, headers?: HeadersInit, errors?: Record<string, string[]>, flags?: Record<string, true>) {
  const fieldErrors = errors ?? (error.field ? { [error.field]: [error.message] } : undefined);
  const body = { ...(fieldErrors ? { message: error.message, errors: fieldErrors } : { message: error.message }), ...flags };
  const response = Response.json(body, { status: error.status, headers });
  response.headers.set("Cache-Control", "no-store");
  return response;
}

type DataWithResponseInit = { type: "DataWithResponseInit"; data: ({ message?: unknown } & Record<string, unknown>) | null; init: ResponseInit | null };
function isDataWithResponseInit(value: unknown): value is DataWithResponseInit {
  return typeof value === "object" && value !== null && (value as { type?: unknown }).type === "DataWithResponseInit";
}

/** Bad input found while reading the request: 400 with the messages per field. */
class ApiBodyError extends Error {
  constructor(
    message: string,
    public readonly errors?: Record<string, string[]>,
  ) {
    super(message);
  }
}

const INVALID_JSON = "Request body must be valid JSON";
const UNSUPPORTED_BODY = "Request body must be JSON (application/json)";
const NUL_CHARACTER = "Request contains a NUL character";

/**
 * The body as the schema's value. JSON by its media type (`application/json`, `…+json`), or
 * a form for simple clients; no body reads as `{}`. A body that is not an object (`null`, a
 * list) is read as `{}` too, so the caller gets the schema's own "… is required" messages.
 */
async function readBody<S extends z.ZodType>(request: Request, schema: S): Promise<z.infer<S>> {
  const mediaType = (request.headers.get("content-type") ?? "").split(";")[0]!.trim().toLowerCase();
  let body: unknown;
  if (mediaType === "application/x-www-form-urlencoded" || mediaType === "multipart/form-data") {
    try {
      body = Object.fromEntries(await request.formData());
    } catch {
      throw new ApiBodyError("Request body is not a valid form");
    }
  } else if (mediaType === "" || mediaType === "application/json" || mediaType.endsWith("+json")) {
    const text = await request.text();
    try {
      body = text.trim() ? JSON.parse(text) : {};
    } catch {
      throw new ApiBodyError(INVALID_JSON);
    }
  } else {
    throw new ServiceError(UNSUPPORTED_BODY, 415);
  }
  if (typeof body !== "object" || body === null || Array.isArray(body)) body = {};
  // PostgreSQL text cannot hold NUL: refused here, for every /api body, instead of a 500 later.
  if (containsNul(body)) throw new ApiBodyError(NUL_CHARACTER);
  // Nor a lone surrogate (JSON's "\ud800"): replaced by U+FFFD, as a form's already is
  // (lib/well-formed.server.ts).
  const result = schema.safeParse(toWellFormedInput(body));
  if (!result.success) {
    throw new ApiBodyError(result.error.issues[0]?.message ?? "Invalid input", issuesByField(result.error.issues));
  }
  return result.data;
}

function readQuery<S extends z.ZodType>(url: URL, schema: S): z.infer<S> {
  // URLSearchParams holds well-formed text already (lib/well-formed.server.ts).
  const result = schema.safeParse(Object.fromEntries([...url.searchParams].filter(([, value]) => value !== "")));
  // A query has no form to show field errors beside: its first message is the answer.
  if (!result.success) throw new ApiBodyError(result.error.issues[0]?.message ?? "Invalid query");
  return result.data;
}

function issuesByField(issues: z.core.$ZodIssue[]) {
  const errors: Record<string, string[]> = {};
  for (const issue of issues) (errors[issue.path.join(".") || "form"] ??= []).push(issue.message);
  return errors;
}

function containsNul(value: unknown): boolean {
  if (typeof value === "string") return value.includes("\0");
  if (typeof value === "object" && value !== null) {
    for (const [key, entry] of Object.entries(value)) if (key.includes("\0") || containsNul(entry)) return true;
  }
  return false;
}
