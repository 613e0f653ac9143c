import { expect, test } from "@playwright/test";
import { adminApiToken } from "./helpers.ts";

// The production build (npm run build, served as npm start serves it): every call the OpenAPI
// document lists is answered by its own route, never by the /api catch-all's
// 404 { message: "Not found" }. Three admin calls (unblock, reactivate, reject) once answered
// exactly that in production while every integration test passed. HTTP only: run once.

// The js project leaves this file out (playwright.config.ts): no page, so no second run.
test("every documented /api call reaches its route in the production build", async ({ request }) => {
  const accessToken = await adminApiToken(request);
  const document = (await (await request.get("/api/openapi.json")).json()) as { paths: Record<string, Record<string, unknown>> };
  const paths = Object.entries(document.paths);
  expect(paths.length).toBeGreaterThan(50);
  const caughtByCatchAll: string[] = [];
  for (const [template, operations] of paths) {
    // An id no row has; a path parameter with a fixed set of values gets a real one (an unknown
    // performance kind is a 404 of its route, worded like the catch-all's).
    const path = template.replace(/\{([^}]+)\}/g, (_, name: string) => (name === "kind" ? "log" : "00000000-0000-4000-8000-000000000000"));
    for (const method of Object.keys(operations).filter((m) => ["get", "post", "put", "patch", "delete"].includes(m))) {
      // An empty body: the route refuses it (400) or answers; the catch-all would say "Not found".
      const response = await request.fetch(path, { method, headers: { Authorization: `Bearer ${accessToken}` }, data: method === "get" ? undefined : {} });
      const body = await response.text();
      if (response.status() === 404 && body === '{"message":"Not found"}') caughtByCatchAll.push(`${method.toUpperCase()} ${template}`);
    }
  }
  expect(caughtByCatchAll).toEqual([]);
});
