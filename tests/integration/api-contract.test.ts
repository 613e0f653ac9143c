import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import routes from "~/routes.ts";
import { accessTokenFor, createUser } from "../helpers/factories.ts";
import { callRoute, type RouteResult } from "../helpers/route.ts";

// The /api contract as a whole, generated from app/routes.ts so a new route is covered the day
// it is added: every method a route does not serve answers 405 with Allow (unknown paths 404),
// every failure is `{ message, errors? }`, and nothing answers 5xx to a caller's mistake.
// (NUL bytes in URLs are refused before any route, at the HTTP edge: tests/integration/http-edge.test.ts.)

type RouteEntry = { path?: string; file: string; children?: RouteEntry[] };
const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;

function flatten(entries: RouteEntry[]): RouteEntry[] {
  return entries.flatMap((entry) => [entry, ...flatten(entry.children ?? [])]);
}

const apiRoutes = flatten(routes as RouteEntry[]).filter((entry) => entry.path?.startsWith("api/"));
const knownRoutes = apiRoutes.filter((entry) => entry.path !== "api/*");

/** A URL for the pattern: every dynamic segment filled with a value no row has. */
function urlFor(pattern: string) {
  return `/${pattern.replace(/:(\w+)\??/g, (_, name: string) => (name === "kind" ? "log" : `no-such-${name.toLowerCase()}`))}`;
}

function paramsFor(pattern: string) {
  const params: Record<string, string> = {};
  for (const [, name] of pattern.matchAll(/:(\w+)\??/g)) params[name!] = name === "kind" ? "log" : `no-such-${name!.toLowerCase()}`;
  return params;
}

async function load(entry: RouteEntry) {
  return import(/* @vite-ignore */ path.resolve("app", entry.file));
}

function expectErrorShape(result: RouteResult, where: string) {
  expect(result.status, where).toBeGreaterThanOrEqual(400);
  expect(result.status, where).toBeLessThan(500);
  expect(typeof result.body, where).toBe("object");
  expect(typeof result.body?.message, where).toBe("string");
  expect(result.body.message.length, where).toBeGreaterThan(0);
  const extra = Object.keys(result.body).filter((key) => key !== "message" && key !== "errors");
  expect(extra, where).toEqual([]);
  if (result.body.errors !== undefined) {
    for (const [field, messages] of Object.entries(result.body.errors)) {
      expect(Array.isArray(messages), `${where} errors.${field}`).toBe(true);
      for (const message of messages as unknown[]) expect(typeof message, `${where} errors.${field}`).toBe("string");
    }
  }
}

let token: string;
beforeAll(async () => {
  // An admin: the admin guard (a layout above every /api/admin call) answers a member 403 before
  // any route could answer 405.
  const user = await createUser({ role: "admin" });
  token = await accessTokenFor(user.id);
});

describe("every /api route of app/routes.ts", () => {
  it("finds the routes it walks", () => {
    expect(knownRoutes.length).toBeGreaterThan(30);
  });

  for (const entry of knownRoutes) {
    it(`${entry.path}: unsupported methods answer 405 with Allow and { message }`, async () => {
      const mod = await load(entry);
      const url = urlFor(entry.path!);
      const results = await Promise.all(
        METHODS.map(async (method) => [method, await callRoute(mod, url, { method, params: paramsFor(entry.path!), token })] as const),
      );
      const refused = results.filter(([, result]) => result.status === 405);
      expect(refused.length, `${entry.path} serves every method?`).toBeGreaterThan(0);
      const allow = refused[0]![1].headers.get("Allow");
      expect(allow, entry.path).toBeTruthy();
      const allowed = allow!.split(/\s*,\s*/);
      for (const [method, result] of results) {
        expect(result.status, `${method} ${url}`).toBeLessThan(500);
        if (result.status === 405) {
          expect(allowed, `${method} ${url}`).not.toContain(method);
          expect(result.headers.get("Allow"), `${method} ${url}`).toBe(allow);
          expect(result.body, `${method} ${url}`).toEqual({ message: "Method not allowed" });
        } else {
          expect(allowed, `${method} ${url} answered ${result.status}`).toContain(method);
        }
      }
    });
  }

  it("answers unknown /api paths 404 JSON for every method", async () => {
    const entry = apiRoutes.find((route) => route.path === "api/*")!;
    const mod = await load(entry);
    for (const method of METHODS) {
      const result = await callRoute(mod, "/api/no/such/path", { method, params: { "*": "no/such/path" } });
      expect(result.status, method).toBe(404);
      expect(result.body, method).toEqual({ message: "Not found" });
    }
  });
});

describe("every /api error has one shape", () => {
  for (const entry of knownRoutes) {
    it(`${entry.path}: bad input, anonymous and broken bodies answer 4xx { message, errors? }`, async () => {
      const mod = await load(entry);
      const url = urlFor(entry.path!);
      const params = paramsFor(entry.path!);
      for (const method of METHODS) {
        const probes: RouteResult[] = [
          await callRoute(mod, url, { method, params }),
          await callRoute(mod, `${url}?page=-1&limit=abc&search=${"x".repeat(300)}&q=%2525&category=%27`, { method, params, token }),
        ];
        if (method !== "GET") {
          probes.push(
            await callRoute(mod, url, { method, params, token, json: null }),
            await callRoute(mod, url, { method, params, token, body: "{not json", headers: { "Content-Type": "application/json" } }),
            await callRoute(mod, url, { method, params, token, json: { email: "a\u0000b@example.com", name: "\u0000", message: "\u0000" } }),
            await callRoute(mod, url, { method, params, token, body: "<xml/>", headers: { "Content-Type": "application/xml" } }),
          );
        }
        for (const result of probes) {
          expect(result.status, `${method} ${url}`).toBeLessThan(500);
          if (result.status >= 400) expectErrorShape(result, `${method} ${url} → ${result.status}`);
        }
      }
    });
  }
});
