import { UNSAFE_decodeViaTurboStream as decodeViaTurboStream } from "react-router";
import { beforeAll, describe, expect, it } from "vitest";
import { createRouteTable, samplePath } from "~/lib/route-table.server.ts";
import { ROUTE_RULES } from "~/route-rules.ts";
import { sendToApp, testApp } from "../helpers/app.ts";
import { accessTokenFor, createUser, sessionCookieFor } from "../helpers/factories.ts";

// Every path of app/routes.ts, asked once through the app's front door as an admin (so no guard
// stands in the way), must be answered by its own route, never by a catch-all (`api/*` answers
// 404 { message: "Not found" }, `*` the not-found page). Three admin calls with custom route ids
// once fell out of the /api part of the split build and answered 404 in production while every
// test that called their modules directly passed.

const CATCH_ALLS = new Set(["routes/api/not-found", "routes/public/not-found"]);
let headers: Headers;

beforeAll(async () => {
  const admin = await createUser({ role: "admin" });
  headers = new Headers({ Cookie: await sessionCookieFor(admin.id), Authorization: `Bearer ${await accessTokenFor(admin.id)}` });
});

/** The ids of the routes a page's data request matched (React Router answers each by its id). */
async function matchedRoutes(path: string) {
  const dataPath = path === "/" ? "/_root.data" : `${path}.data`;
  const response = await sendToApp(dataPath, { headers });
  const decoded = await decodeViaTurboStream(new Blob([new Uint8Array(response.body)]).stream(), globalThis);
  return Object.keys(decoded.value as object);
}

describe("every route of app/routes.ts is reachable", async () => {
  const { build } = await testApp();
  const table = createRouteTable(build, ROUTE_RULES);
  const notFoundApi = await sendToApp("/api/no/such/call/anywhere", {});

  it("the catch-alls are what this test tells apart", () => {
    expect(notFoundApi.status).toBe(404);
    expect(JSON.parse(notFoundApi.body.toString())).toEqual({ message: "Not found" });
  });

  for (const route of table.routes.filter((r) => !CATCH_ALLS.has(r.id))) {
    const path = samplePath(route.pattern);
    it(`${route.pattern} (${route.id}) answers from its own route`, async () => {
      const module = build.routes[route.id]!.module as { default?: unknown };
      if (route.part === "api") {
        const response = await sendToApp(path, { headers });
        const body = response.body.toString();
        expect(response.status === 404 && body === notFoundApi.body.toString(), `${path}: ${response.status} ${body.slice(0, 80)}`).toBe(false);
      } else if (module.default && route.part !== "embed") {
        const matched = await matchedRoutes(path);
        for (const id of CATCH_ALLS) expect(matched, path).not.toContain(id);
      } else {
        // A resource route outside /api (PDFs), or the embed's part (no data requests): not the not-found page.
        const response = await sendToApp(path, { headers });
        expect(response.body.toString(), path).not.toContain("Page Not Found");
      }
    });
  }
});
