import { Validator } from "@seriousme/openapi-schema-validator";
import { describe, expect, it } from "vitest";
import { METHODS } from "~/lib/api-route.server.ts";
import * as docsRoute from "~/routes/api/docs.ts";
import * as openapiRoute from "~/routes/api/openapi.ts";
import { getApiDocument, listApiRoutes, loadEndpoints, openApiPaths } from "~/routes/api/openapi.server.ts";
import { apiDocumentMismatch } from "../helpers/api-document.ts";
import { callRoute } from "../helpers/route.ts";
import { requestContext } from "~/lib/request-context.server.ts";

// The OpenAPI document (GET /api/openapi.json) against the code: it is valid OpenAPI 3.1, it
// lists exactly the operations app/routes.ts serves, and the answers the suite receives match
// it (tests/helpers/api-document.ts, run on every callRoute of every integration test).

type Operation = {
  summary?: string;
  description?: string;
  tags?: string[];
  security?: unknown[];
  parameters?: unknown[];
  requestBody?: unknown;
  responses: Record<string, unknown>;
  "x-required-role"?: string;
};
type Doc = {
  openapi: string;
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, unknown> };
};

const doc = (await getApiDocument()) as unknown as Doc;

describe("the OpenAPI document", () => {
  it("validates as OpenAPI 3.1", async () => {
    const result = await new Validator().validate(doc as never);
    expect(result.errors ?? [], JSON.stringify(result.errors, null, 1)?.slice(0, 2000)).toEqual([]);
    expect(result.valid).toBe(true);
    expect(doc.openapi).toBe("3.1.0");
  });

  it("lists every operation app/routes.ts serves, and nothing else", async () => {
    const served = new Set<string>();
    for (const route of listApiRoutes()) {
      const table = await loadEndpoints(route);
      for (const path of openApiPaths(route.path)) for (const method of METHODS) if (table[method]) served.add(`${method.toLowerCase()} ${path}`);
    }
    const documented = new Set(Object.entries(doc.paths).flatMap(([path, item]) => Object.keys(item).map((method) => `${method} ${path}`)));
    expect(
      [...served].filter((op) => !documented.has(op)),
      "served but not documented",
    ).toEqual([]);
    expect(
      [...documented].filter((op) => !served.has(op)),
      "documented but not served",
    ).toEqual([]);
    expect(documented.size).toBeGreaterThan(70);
  });

  it("gives every operation a summary, a description, its answers, and the error shape", () => {
    for (const [path, item] of Object.entries(doc.paths)) {
      for (const [method, operation] of Object.entries(item)) {
        expect(operation.summary, `${method} ${path}`).toBeTruthy();
        expect(operation.description, `${method} ${path}`).toMatch(/^\*\*Who may call it:\*\* .+\n\n.{40,}/);
        expect(operation.tags, `${method} ${path}`).not.toEqual(["Other"]);
        expect(
          Object.keys(operation.responses).some((code) => code.startsWith("4")),
          `${method} ${path}`,
        ).toBe(true);
        expect(operation.responses.default, `${method} ${path}`).toEqual({
          description: expect.any(String),
          content: { "application/json": { schema: { $ref: "#/components/schemas/Error" } } },
        });
      }
    }
  });

  it("says who may call each operation: anyone, anyone with an optional sign-in, a user, or an admin", () => {
    const anyone: unknown[] = [];
    const optional = [{}, { bearer: [] }, { session: [] }];
    const user = [{ bearer: [] }, { session: [] }];
    const admin = [{ bearer: ["admin"] }, { session: ["admin"] }];
    for (const [path, item] of Object.entries(doc.paths)) {
      for (const [method, operation] of Object.entries(item)) expect([anyone, optional, user, admin], `${method} ${path}`).toContainEqual(operation.security);
    }
    expect(doc.paths["/api/categories"]!.get!.security).toEqual(anyone);
    // The catalogue's answers change with the caller's licences (hasAccess): an optional sign-in.
    expect(doc.paths["/api/animations"]!.get!.security).toEqual(optional);
    expect(doc.paths["/api/animations/{slugOrId}"]!.get!.security).toEqual(optional);
    expect(doc.paths["/api/contact"]!.post!.security).toEqual(optional);
    expect(doc.paths["/api/auth/me"]!.get!.security).toEqual(user);
    expect(doc.paths["/api/auth/me"]!.get!.responses).toHaveProperty("401");
    expect(doc.paths["/api/auth/me"]!.get!["x-required-role"]).toBeUndefined();
    // Admin by the guard layout of app/routes.ts, and by requireAdmin on a shared path.
    for (const [path, method] of [
      ["/api/admin/users", "get"],
      ["/api/animations", "post"],
      ["/api/settings/{key}", "put"],
    ] as const) {
      const operation = doc.paths[path]![method]!;
      expect(operation.security, `${method} ${path}`).toEqual(admin);
      expect(operation["x-required-role"], `${method} ${path}`).toBe("admin");
      expect(Object.keys(operation.responses), `${method} ${path}`).toEqual(expect.arrayContaining(["401", "403"]));
    }
  });

  it("describes Stripe's webhook once, as the path this server serves, with all its answers", () => {
    expect(doc).not.toHaveProperty("webhooks");
    const webhook = doc.paths["/api/webhooks/stripe"]!.post!;
    expect(webhook.security).toEqual([]);
    expect(Object.keys(webhook.responses).sort()).toEqual(["200", "400", "500", "default"]);
    expect(JSON.stringify(webhook.responses["400"])).toMatch(/test mode/);
    expect(webhook.parameters).toEqual([expect.objectContaining({ name: "Stripe-Signature", in: "header", required: true })]);
    expect(webhook.requestBody).toMatchObject({ required: true, content: { "application/json": expect.anything() } });
  });

  it("expands an optional path segment into both paths", () => {
    expect(doc.paths).toHaveProperty(["/api/categories/path/{mainSlug}"]);
    expect(doc.paths).toHaveProperty(["/api/categories/path/{mainSlug}/{subSlug}"]);
  });
});

describe("the response check every integration test runs", () => {
  it("refuses an answer with a missing, extra or mistyped field, or an undocumented status", async () => {
    const user = {
      id: "u",
      email: "a@b.co",
      username: "abc",
      firstName: "A",
      lastName: "B",
      role: "user",
      accountType: "free",
      isEmailVerified: true,
      isActive: true,
      createdAt: "2026-11-25T00:00:00.000Z",
    };
    expect(await apiDocumentMismatch("GET", "/api/auth/me", 200, { user })).toBeNull();
    expect(await apiDocumentMismatch("GET", "/api/auth/me", 200, { user: { ...user, password: "hash" } })).toMatch(/additional properties 'password'/);
    expect(await apiDocumentMismatch("GET", "/api/auth/me", 200, { user: { ...user, role: "owner" } })).toMatch(
      /role must be equal to one of the allowed values/,
    );
    const { email: _, ...withoutEmail } = user;
    expect(await apiDocumentMismatch("GET", "/api/auth/me", 200, { user: withoutEmail })).toMatch(/must have required property 'email'/);
    expect(await apiDocumentMismatch("GET", "/api/auth/me", 201, { user })).toMatch(/status 201 is not documented/);
    expect(await apiDocumentMismatch("GET", "/api/auth/me", 401, { message: "Authentication required" })).toBeNull();
    expect(await apiDocumentMismatch("GET", "/api/auth/me", 401, { error: "no" })).toMatch(/does not match/);
    expect(await apiDocumentMismatch("GET", "/api/no-such-call", 200, {})).toMatch(/no such operation/);
  });
});

describe("GET /api/openapi.json and /api/docs", () => {
  it("serve the document, cacheable by anyone", async () => {
    const res = await callRoute(openapiRoute, "/api/openapi.json");
    expect(res.status).toBe(200);
    expect(res.body).toEqual(JSON.parse(JSON.stringify(doc)));
    expect(res.headers.get("Cache-Control")).toBe("public, max-age=3600");
  });

  it("render the reference from our own assets, its scripts carrying the response's nonce", async () => {
    const request = new Request("http://localhost/api/docs");
    const res = (await docsRoute.loader({ request, params: {}, context: requestContext({ cspNonce: "n0nce" }) })) as Response;
    expect(res.status).toBe(200);
    expect(res.headers.get("Content-Type")).toBe("text/html; charset=utf-8");
    const html = await res.text();
    const scripts = [...html.matchAll(/<script\b[^>]*>/g)].map(([tag]) => tag);
    expect(scripts.length).toBe(2);
    for (const tag of scripts) expect(tag).toContain('nonce="n0nce"');
    expect(html).toContain('src="/api/docs/assets/swagger-ui-bundle.js"');
    expect(html).toContain('href="/api/openapi.json"');
    expect(html).not.toMatch(/https?:\/\/(?!medanim)/);
    expect(html).toContain("Getting started");
  });
});
