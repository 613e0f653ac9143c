import { z } from "zod";
import { type Access, type Endpoint, type EndpointTable, METHODS } from "~/lib/api-route.server.ts";
import routes from "~/routes.ts";
import { apiSchemas } from "~/validation/api-responses.ts";
import "~/validation/api-responses-admin.ts";

// The OpenAPI 3.1 document of /api, read from the route table and the endpoint tables the
// routes are written with (lib/api-route.server.ts): the paths from app/routes.ts, the
// parameters and bodies from the zod schemas the routes validate with, the answers from each
// endpoint's `response` schema. Nothing is written twice, so the document cannot drift from
// the code; tests/integration/api-document.test.ts holds the two together and validates
// every answer of the integration suite against it.

type RouteEntry = { id?: string; path?: string; file: string; children?: RouteEntry[] };
type RouteModule = { loader?: { endpoints?: EndpointTable } };
type JsonSchema = Record<string, unknown>;

// Every /api route module, loaded on demand (the document is built once per process).
const modules = import.meta.glob<RouteModule>("./**/*.ts");

const ADMIN_GUARD_LAYOUT = "routes/api/admin/guard.ts";

export type ApiRoute = { path: string; file: string; adminGuard: boolean };

/** Every /api route of app/routes.ts (not the catch-all), with whether the admin guard wraps it. */
export function listApiRoutes(): ApiRoute[] {
  const found: ApiRoute[] = [];
  const walk = (entries: RouteEntry[], adminGuard: boolean) => {
    for (const entry of entries) {
      const guarded = adminGuard || entry.file === ADMIN_GUARD_LAYOUT;
      if (entry.path?.startsWith("api/") && entry.path !== "api/*") found.push({ path: entry.path, file: entry.file, adminGuard: guarded });
      if (entry.children) walk(entry.children, guarded);
    }
  };
  walk(routes as RouteEntry[], false);
  return found;
}

/** `api/categories/path/:mainSlug/:subSlug?` → the OpenAPI paths it stands for. */
export function openApiPaths(pattern: string): string[] {
  const segments = pattern.split("/");
  const required = segments.filter((s) => !s.endsWith("?"));
  const paths = [required];
  if (required.length !== segments.length) paths.push(segments.map((s) => s.replace(/\?$/, "")));
  return paths.map((segs) => `/${segs.map((s) => (s.startsWith(":") ? `{${s.slice(1)}}` : s)).join("/")}`);
}

export async function loadEndpoints(route: ApiRoute): Promise<EndpointTable> {
  const load = modules[`./${route.file.replace(/^routes\/api\//, "")}`];
  if (!load) throw new Error(`${route.file}: not an /api route module`);
  const table = (await load()).loader?.endpoints;
  if (!table) throw new Error(`${route.file}: not written with apiRoute(), so it cannot be documented`);
  return table;
}

/**
 * Who may call the endpoint: its guard's access (lib/api-route.server.ts). Under the admin guard
 * layout of app/routes.ts every call is admin whatever it names, so it must name requireAdmin:
 * a table that says otherwise would document a call open to members that the layout refuses.
 */
function accessOf(endpoint: Endpoint<any, any, any>, route: ApiRoute, method: string): Access {
  const access = endpoint.auth.access;
  if (route.adminGuard && access !== "admin") {
    throw new Error(`${method} /${route.path}: under ${ADMIN_GUARD_LAYOUT} (admins only), but its auth says ${access}: use requireAdmin`);
  }
  return access;
}

// OpenAPI 3.1: an empty list is "no authentication"; an empty object among others makes it
// optional; for schemes other than OAuth the lists name the roles required.
const SECURITY: Record<Access, Record<string, string[]>[]> = {
  none: [],
  optional: [{}, { bearer: [] }, { session: [] }],
  user: [{ bearer: [] }, { session: [] }],
  admin: [{ bearer: ["admin"] }, { session: ["admin"] }],
};

const WHO_MAY_CALL: Record<Access, string> = {
  none: "**Who may call it:** anyone; no sign-in is read.",
  optional: "**Who may call it:** anyone. A signed-in caller (bearer token or session cookie) is recognised and may get a different answer.",
  user: "**Who may call it:** a signed-in user (bearer token or session cookie); 401 without one.",
  admin:
    "**Who may call it:** an admin: a signed-in user with the role `admin` who has set up a second factor and confirmed it in this sign-in; 401 without a sign-in, 403 for any other role, 403 with `secondFactorRequired: true` for an admin without a second factor, and 403 with `stepUpRequired: true` for a token family that never confirmed one.",
};

const ERROR_TEXT: Record<number, string> = {
  400: "Bad input: the message, and the messages per field (or a malformed URL)",
  401: "Authentication required",
  402: "The payment provider refused the payment",
  403: "Admin access required: the caller's role is not admin, an admin has not set up a second factor (`secondFactorRequired: true`), or this sign-in never confirmed it (`stepUpRequired: true`)",
  404: "Not found",
  409: "Conflicts with the current state",
  413: "Body too large",
  415: "The body is neither JSON nor a form",
  429: "Too many attempts: wait for the Retry-After seconds",
  500: "Something went wrong on our side",
  502: "A provider (mail, payments) failed",
  503: "The service is temporarily unavailable",
};

function toJsonSchema(schema: z.ZodType, io: "input" | "output"): JsonSchema {
  const { $schema: _, ...rest } = z.toJSONSchema(schema, { target: "draft-2020-12", io, unrepresentable: "any" }) as JsonSchema;
  return rest;
}

const errorRef = { $ref: "#/components/schemas/Error" };

function operationId(method: string, path: string) {
  const words = `${method.toLowerCase()} ${path.replace(/[{}]/g, "").replace(/^\/api\//, "")}`.split(/[^A-Za-z0-9]+/).filter(Boolean);
  return words.map((w, i) => (i === 0 ? w : w[0]!.toUpperCase() + w.slice(1))).join("");
}

type Operation = Record<string, unknown>;

/** One operation of the document, from an endpoint and where it is mounted. */
function toOperation(method: string, path: string, endpoint: Endpoint<any, any, any>, access: Access, responses: Map<z.ZodType, string>): Operation {
  const pathParams = [...path.matchAll(/\{(\w+)\}/g)].map(([, name]) => name!);
  const parameters: Operation[] = pathParams.map((name) => ({ name, in: "path", required: true, schema: { type: "string" } }));
  if (endpoint.query) {
    const query = toJsonSchema(endpoint.query, "input") as { properties?: Record<string, JsonSchema>; required?: string[] };
    for (const [name, schema] of Object.entries(query.properties ?? {})) {
      parameters.push({
        name,
        in: "query",
        required: query.required?.includes(name) ?? false,
        schema,
        ...(schema.description ? { description: schema.description } : {}),
      });
    }
  }
  for (const [name, header] of Object.entries(endpoint.headers ?? {})) {
    parameters.push({ name, in: "header", required: header.required ?? false, description: header.description, schema: { type: "string" } });
  }
  const status = String(endpoint.status ?? 200);
  const success: Operation = { description: endpoint.response?.description ?? (status === "204" ? "No content" : "Success") };
  if (endpoint.response) {
    const id = responses.get(endpoint.response);
    success.content = { "application/json": { schema: id ? { $ref: `#/components/schemas/${id}` } : toJsonSchema(endpoint.response, "output") } };
  } else if (endpoint.produces) {
    success.content = { [endpoint.produces]: { schema: { type: "string" } } };
  } else if (status !== "204") {
    throw new Error(`${method} ${path}: an endpoint answering ${status} needs a response schema`);
  }
  const declared: Record<number, string | undefined> = Array.isArray(endpoint.errors)
    ? Object.fromEntries(endpoint.errors.map((code) => [code, undefined]))
    : { ...endpoint.errors };
  const errorText = new Map<number, string>(Object.entries(declared).map(([code, text]) => [Number(code), text ?? ERROR_TEXT[Number(code)] ?? "Failure"]));
  // Every call may answer 400: a malformed URL is refused before any route (lib/http-edge.server.ts).
  if (!errorText.has(400)) errorText.set(400, endpoint.body || endpoint.query ? ERROR_TEXT[400]! : "A malformed URL, refused before the call runs");
  if (endpoint.body && !errorText.has(415)) errorText.set(415, ERROR_TEXT[415]!);
  if ((access === "user" || access === "admin") && !errorText.has(401)) errorText.set(401, ERROR_TEXT[401]!);
  if (endpoint.stepUp && !errorText.has(403)) errorText.set(403, endpoint.stepUp.refusal);
  if (access === "admin" && !errorText.has(403)) errorText.set(403, ERROR_TEXT[403]!);
  if (pathParams.length && !errorText.has(404)) errorText.set(404, ERROR_TEXT[404]!);
  const errorContent = { "application/json": { schema: errorRef } };
  const responseMap: Record<string, Operation> = { [status]: success };
  for (const [code, schema] of Object.entries(endpoint.otherResponses ?? {})) {
    responseMap[code] = {
      description: schema.description ?? ERROR_TEXT[Number(code)] ?? "Success",
      content: { "application/json": { schema: { $ref: `#/components/schemas/${responses.get(schema)}` } } },
    };
  }
  // JSON answers carry an ETag: a client that sends it back as If-None-Match gets a bodiless 304.
  if (method === "GET" && endpoint.response) responseMap["304"] = { description: "Not modified: the ETag sent in If-None-Match still matches" };
  for (const code of [...errorText.keys()].sort()) responseMap[String(code)] ??= { description: errorText.get(code)!, content: errorContent };
  responseMap.default = { description: "Any other failure, in the same shape", content: errorContent };

  const operation: Operation = {
    operationId: operationId(method, path),
    summary: endpoint.summary,
    description: `${WHO_MAY_CALL[access]}\n\n${endpoint.description}`,
    tags: [tagOf(path)],
    security: SECURITY[access],
    ...(access === "admin" ? { "x-required-role": "admin" } : {}),
    ...(parameters.length ? { parameters } : {}),
  };
  if (endpoint.body) {
    const schema = toJsonSchema(endpoint.body, "input");
    operation.requestBody = {
      required: true,
      content: { "application/json": { schema }, "application/x-www-form-urlencoded": { schema } },
    };
  } else if (endpoint.rawBody) {
    const schema = endpoint.rawBody.schema ? toJsonSchema(endpoint.rawBody.schema, "input") : {};
    operation.requestBody = { required: true, description: endpoint.rawBody.description, content: { [endpoint.rawBody.mediaType]: { schema } } };
  }
  operation.responses = responseMap;
  return operation;
}

function tagOf(path: string) {
  const [, , area = "api", next] = path.split("/");
  if (area === "admin") return "Admin";
  const tags: Record<string, string> = {
    auth: "Auth",
    animations: "Catalogue",
    categories: "Catalogue",
    doctors: "Catalogue",
    pages: "Content",
    faqs: "Content",
    "faq-categories": "Content",
    settings: "Content",
    contact: "Content",
    "report-misuse": "Content",
    performance: "Content",
    subscriptions: "Payments",
    payments: "Payments",
    checkout: "Payments",
    webhooks: "Payments",
    invoices: "Payments",
    "billing-details": "Payments",
    practices: "Practices",
    refunds: "Account",
    dashboard: "Account",
    downloads: "Account",
    notifications: "Account",
    "email-templates": "Admin",
    emails: "Admin",
    objects: "Admin",
    oembed: "Embeds",
    "playback-events": "Embeds",
    licences: "Embeds",
    openapi: "Reference",
    "openapi.json": "Reference",
    docs: "Reference",
  };
  return tags[area] ?? tags[next ?? ""] ?? "Other";
}

const INTRO = `The JSON contract of Medanim, generated from the code that answers it.

Sign in with \`POST /api/auth/login\` (email, password): the answer carries an \`accessToken\`
(a JWT, valid 15 minutes) and a \`refreshToken\` (valid 30 days, usable once). Send the access
token as \`Authorization: Bearer <token>\`. When a call answers 401, exchange the refresh token at
\`POST /api/auth/refresh\` for a new pair and repeat the call once; a refresh token used twice
revokes its whole family. Bodies are JSON (\`Content-Type: application/json\`) or an HTML form.

Each operation says who may call it, in its description and its \`security\`: anyone (\`security: []\`,
no sign-in is read); anyone, with a signed-in caller recognised (\`{}\` listed first: the token is
optional and may change the answer, as \`hasAccess\` in the catalogue); a signed-in user (401
without one); or an admin (the role \`admin\` named in the schemes and in \`x-required-role\`; 403
for any other role). An admin needs a second factor set up: without one, admin calls answer 403 with
\`secondFactorRequired: true\`. A token family signed in with the password alone (before the factor
existed) answers 403 with \`stepUpRequired: true\` until it confirms the factor at \`POST /api/auth/step-up\`;
setting up a factor ends such families of the account but the caller's own. The most dangerous calls (roles, blocking, refunds, prices, settings,
campaigns, deleting an animation) also need a second factor confirmed in the last 10 minutes:
otherwise 403 with \`stepUpRequired: true\`; confirm one at \`POST /api/auth/step-up\` and repeat the call.

Every failure answers \`{ message, errors? }\` with a 4xx status: \`message\` is a sentence for
the user, \`errors\` the messages per field for bad input (400). Unauthenticated writes are
limited per client address and answer 429 with \`Retry-After\` (seconds).`;

const TAGS: Record<string, string> = {
  Auth: "Accounts and sign-in: registration, tokens, e-mail verification, password reset, the profile",
  Catalogue: "Animations, categories and doctors: read by anyone, written by admins",
  Content: "Pages, FAQs, public settings, the contact form, misuse and performance reports",
  Account: "The signed-in user's library, totals, e-mail preferences and refund requests",
  Payments: "Checkout, payment confirmation, the caller's subscriptions and payments, Stripe's webhook",
  Embeds: "Licensed embeds for other sites (oEmbed), their players' analytics events, and what a licence's plays add up to",
  Admin: "The back office: users, subscriptions, refunds, e-mail, settings, uploads (admins only)",
  Reference: "This reference: the OpenAPI document and its readable page",
};

let built: Promise<JsonSchema> | undefined;

/** The document (built once per process: the code it reads does not change while it runs). */
export function getApiDocument(): Promise<JsonSchema> {
  return (built ??= buildApiDocument());
}

async function buildApiDocument(): Promise<JsonSchema> {
  const paths: Record<string, Record<string, Operation>> = {};
  const operations: { method: string; path: string; endpoint: Endpoint<any, any, any>; access: Access }[] = [];
  for (const route of listApiRoutes()) {
    const table = await loadEndpoints(route);
    for (const path of openApiPaths(route.path)) {
      for (const method of METHODS) {
        const endpoint = table[method];
        if (endpoint) operations.push({ method, path, endpoint, access: accessOf(endpoint, route, method) });
      }
    }
  }
  // Answers without a name of their own get one from their first operation, so each schema is
  // written once in components and referenced from every operation that answers it.
  const responses = new Map(apiSchemas);
  for (const { method, path, endpoint } of operations) {
    const name = operationId(method, path).replace(/^./, (c) => c.toUpperCase());
    if (endpoint.response && !responses.has(endpoint.response)) responses.set(endpoint.response, `${name}Response`);
    for (const [code, schema] of Object.entries(endpoint.otherResponses ?? {})) if (!responses.has(schema)) responses.set(schema, `${name}${code}Response`);
  }
  const local = z.registry<{ id: string }>();
  for (const [schema, id] of responses) local.add(schema, { id });
  const { schemas } = z.toJSONSchema(local, {
    target: "draft-2020-12",
    io: "output",
    unrepresentable: "any",
    uri: (id) => `#/components/schemas/${id}`,
  }) as { schemas: Record<string, JsonSchema> };
  for (const schema of Object.values(schemas)) {
    delete schema.$schema;
    delete schema.$id;
  }
  for (const { method, path, endpoint, access } of operations) {
    (paths[path] ??= {})[method.toLowerCase()] = toOperation(method, path, endpoint, access, responses);
  }
  return {
    openapi: "3.1.0",
    info: { title: "Medanim API", version: "1.0.0", description: INTRO },
    servers: [{ url: "/" }],
    tags: Object.entries(TAGS).map(([name, description]) => ({ name, description })),
    paths,
    components: {
      schemas,
      securitySchemes: {
        bearer: { type: "http", scheme: "bearer", bearerFormat: "JWT", description: "The accessToken of /api/auth/login, /register or /refresh" },
        session: { type: "apiKey", in: "cookie", name: "medanim_session", description: "The web app's signed session cookie (same-origin callers)" },
      },
    },
  };
}
