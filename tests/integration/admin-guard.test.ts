import { beforeAll, describe, expect, it } from "vitest";
import { type Access, type Method, METHODS } from "~/lib/api-route.server.ts";
import { listApiRoutes, loadEndpoints } from "~/routes/api/openapi.server.ts";
import routes from "~/routes.ts";
import { sendToApp } from "../helpers/app.ts";
import { accessTokenFor, createUser, sessionCookieFor } from "../helpers/factories.ts";

// The admin role matrix, generated from app/routes.ts and sent over HTTP through the app's front
// door (createApp: every middleware, the route table, the split build), so a route added later
// without the guard fails
// here: every /admin page and every admin call, as anonymous, member and admin, for loaders
// and actions alike.

type RouteEntry = { path?: string; file: string; children?: RouteEntry[] };
const PAGE_GUARD = "routes/admin/layout.tsx";
const API_GUARD = "routes/api/admin/guard.ts";

function flatten(entries: RouteEntry[], parents: string[] = []): Array<RouteEntry & { parents: string[] }> {
  return entries.flatMap((entry) => [{ ...entry, parents }, ...flatten(entry.children ?? [], [...parents, entry.file])]);
}

const all = flatten(routes as RouteEntry[]);
const adminPages = all.filter((entry) => entry.path === "admin" || entry.path?.startsWith("admin/"));
const adminCalls = all.filter((entry) => entry.path?.startsWith("api/admin/"));

// Every other /api call, with the access its endpoint table declares (the same the OpenAPI
// document says): admin writes on paths the public also reads (decision 008) and the e-mail
// manager's calls outside /api/admin are guarded per method with requireAdmin.
const OTHER_CALLS: Array<{ method: Method; pattern: string; access: Access }> = [];
for (const route of listApiRoutes().filter((r) => !r.adminGuard)) {
  const table = await loadEndpoints(route);
  for (const method of METHODS) {
    const access = table[method]?.auth.access;
    if (access) OTHER_CALLS.push({ method, pattern: route.path, access });
  }
}
const SHARED_ADMIN_CALLS = OTHER_CALLS.filter((call) => call.access === "admin");

const NO_SUCH_ID = "00000000-0000-4000-8000-000000000000";
function urlFor(pattern: string) {
  return `http://localhost:3000/${pattern.replace(/:(\w+)\??/g, (_, name: string) => (name === "key" ? "platform_name" : NO_SUCH_ID))}`;
}

const as: Record<"anonymous" | "member" | "admin", { cookie?: string; token?: string }> = { anonymous: {}, member: {}, admin: {} };

beforeAll(async () => {
  const member = await createUser();
  const admin = await createUser({ role: "admin" });
  as.member = { cookie: await sessionCookieFor(member.id), token: await accessTokenFor(member.id) };
  as.admin = { cookie: await sessionCookieFor(admin.id), token: await accessTokenFor(admin.id) };
}, 120_000);

/** Over HTTP through the app's front door (tests/helpers/app.ts): every middleware, the split build. */
async function handle(request: Request) {
  const url = new URL(request.url);
  const body = request.body ? new Uint8Array(await request.arrayBuffer()) : undefined;
  const res = await sendToApp(`${url.pathname}${url.search}`, { method: request.method, headers: request.headers, body });
  const empty = res.status === 204 || res.status === 304 || request.method === "HEAD";
  return new Response(empty ? null : new Uint8Array(res.body), { status: res.status, headers: res.headers });
}

function pageRequest(url: string, method: string, who: keyof typeof as) {
  const headers = new Headers();
  if (as[who].cookie) headers.set("Cookie", as[who].cookie!);
  const init: RequestInit = { method, headers, redirect: "manual" };
  if (method !== "GET") {
    headers.set("Content-Type", "application/x-www-form-urlencoded");
    init.body = "intent=delete&id=" + NO_SUCH_ID;
  }
  return handle(new Request(url, init));
}

function apiRequest(url: string, method: string, who: keyof typeof as) {
  const headers = new Headers({ "Content-Type": "application/json" });
  if (as[who].token) headers.set("Authorization", `Bearer ${as[who].token}`);
  return handle(new Request(url, { method, headers, body: method === "GET" ? undefined : "{}" }));
}

describe("the admin guard, generated from app/routes.ts", () => {
  it("finds the admin routes, and every one sits under its guard", () => {
    expect(adminPages.length).toBeGreaterThan(1);
    expect(adminCalls.length).toBeGreaterThan(0);
    for (const entry of adminPages) expect(entry.parents, entry.path).toContain(PAGE_GUARD);
    for (const entry of adminCalls) expect(entry.parents, entry.path).toContain(API_GUARD);
  });

  for (const entry of adminPages) {
    for (const method of ["GET", "POST"]) {
      it(`${method} /${entry.path}: anonymous → /auth, member → /, admin let in`, async () => {
        const url = urlFor(entry.path!);
        const anonymous = await pageRequest(url, method, "anonymous");
        expect(anonymous.status, "anonymous").toBe(302);
        expect(anonymous.headers.get("Location"), "anonymous").toMatch(/^\/auth\?redirectTo=%2Fadmin/);
        const member = await pageRequest(url, method, "member");
        expect(member.status, "member").toBe(302);
        expect(member.headers.get("Location"), "member").toBe("/");
        const admin = await pageRequest(url, method, "admin");
        expect(admin.headers.get("Location") ?? "", "admin").not.toMatch(/^\/(auth|$)/);
        expect(admin.status, "admin").toBeLessThan(500);
      });
    }
    it(`GET /${entry.path}.data (a client-side navigation): a member gets the redirect, not the data`, async () => {
      const member = await pageRequest(`${urlFor(entry.path!)}.data`, "GET", "member");
      const body = await member.text();
      expect(member.headers.get("X-Remix-Redirect") ?? body, "member").toMatch(/redirect|"\/"/i);
      expect(body).not.toMatch(/stats|rows|entries/);
    });
  }

  for (const entry of adminCalls) {
    for (const method of METHODS) {
      it(`${method} /${entry.path}: 401 without a token, 403 for a member, admin let in`, async () => {
        const url = urlFor(entry.path!);
        const anonymous = await apiRequest(url, method, "anonymous");
        expect(anonymous.status).toBe(401);
        expect(await anonymous.json()).toEqual({ message: "Authentication required" });
        const member = await apiRequest(url, method, "member");
        expect(member.status).toBe(403);
        expect(await member.json()).toEqual({ message: "Admin access required" });
        const admin = await apiRequest(url, method, "admin");
        expect([401, 403]).not.toContain(admin.status);
        expect(admin.status).toBeLessThan(500);
      });
    }
  }

  it("reads the admin calls outside /api/admin from the endpoint tables", () => {
    expect(SHARED_ADMIN_CALLS.map(({ method, pattern }) => `${method} ${pattern}`)).toEqual(
      expect.arrayContaining(["POST api/animations", "DELETE api/categories/:slugOrId", "GET api/pages", "PUT api/settings/:key", "POST api/emails/bulk"]),
    );
  });

  for (const { method, pattern } of SHARED_ADMIN_CALLS) {
    it(`${method} /${pattern}: 401 without a token, 403 for a member, admin let in`, async () => {
      const url = urlFor(pattern);
      expect((await apiRequest(url, method, "anonymous")).status).toBe(401);
      expect((await apiRequest(url, method, "member")).status).toBe(403);
      const admin = await apiRequest(url, method, "admin");
      expect([401, 403, 405]).not.toContain(admin.status);
      expect(admin.status).toBeLessThan(500);
    });
  }

  // The other kinds, as documented: a user call refuses only the anonymous caller; a call open
  // to anyone (optional sign-in or none) refuses no one for who they are.
  for (const { method, pattern, access } of OTHER_CALLS.filter((call) => call.access !== "admin")) {
    it(`${method} /${pattern} (${access}): ${access === "user" ? "401 without a token, a member let in" : "no 401 or 403 for anyone"}`, async () => {
      const url = urlFor(pattern);
      const anonymous = await apiRequest(url, method, "anonymous");
      const member = await apiRequest(url, method, "member");
      if (access === "user") expect(anonymous.status).toBe(401);
      else expect([401, 403]).not.toContain(anonymous.status);
      expect([401, 403]).not.toContain(member.status);
      expect(anonymous.status).toBeLessThan(500);
      expect(member.status).toBeLessThan(500);
    });
  }
});
