import { data } from "react-router";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { apiRoute, defineGuard, endpoint, type Guard } from "~/lib/api-route.server.ts";
import { conflict, ServiceError, tooManyRequests } from "~/lib/errors.server.ts";
import { requestContext } from "~/lib/request-context.server.ts";
import { publicFor } from "~/lib/http-cache.server.ts";
import { anyone, getUser } from "~/services/auth/guards.server.ts";

const Body = z.object({ name: z.string({ error: "Name is required" }).min(1, "Name is required") });

const handler = apiRoute({
  GET: endpoint({
    summary: "A page number",
    description: "Echoes the page asked for.",
    auth: defineGuard("none", async () => undefined),
    query: z.object({ page: z.coerce.number({ error: "Page must be a number" }).int().positive("Page must be positive").default(1) }),
    cache: publicFor(60),
    run: ({ query }) => ({ page: query.page }),
  }),
  POST: endpoint({
    summary: "Create a name",
    description: "Creates a name for the caller.",
    auth: defineGuard("user", async (request) => {
      if (!request.headers.get("Authorization")) throw data({ message: "Authentication required" }, { status: 401 });
      return { id: "u1" };
    }),
    body: Body,
    status: 201,
    run: ({ user, body }) => {
      if (body.name === "taken") throw conflict("This name is already taken", "name");
      if (body.name === "slow") throw tooManyRequests("Too many attempts. Please try again in 1 minute.", 42);
      if (body.name === "boom") throw new Error("database down");
      return { id: user.id, name: body.name };
    },
  }),
});

async function call(
  method: string,
  {
    url = "/api/thing",
    body,
    type = "application/json",
    auth = true,
    headers = {},
  }: { url?: string; body?: string; type?: string; auth?: boolean; headers?: Record<string, string> } = {},
) {
  const request = new Request(new URL(url, "http://localhost"), {
    method,
    body,
    headers: { ...(body !== undefined ? { "Content-Type": type } : {}), ...(auth ? { Authorization: "Bearer x" } : {}), ...headers },
  });
  const response = await handler({ request, params: {}, context: requestContext({ cspNonce: "" }) });
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: text ? JSON.parse(text) : null };
}

describe("apiRoute", () => {
  it("answers 405 with Allow for methods the table lacks, HEAD served by GET", async () => {
    for (const method of ["PUT", "PATCH", "DELETE"]) {
      const res = await call(method);
      expect(res.status).toBe(405);
      expect(res.headers.get("Allow")).toBe("GET, HEAD, POST");
      expect(res.body).toEqual({ message: "Method not allowed" });
    }
    expect((await call("HEAD")).status).toBe(200);
  });

  it("parses the query and applies the cache policy with an ETag and 304", async () => {
    const res = await call("GET", { url: "/api/thing?page=3" });
    expect(res.body).toEqual({ page: 3 });
    expect(res.headers.get("Cache-Control")).toBe("public, max-age=60");
    const again = await call("GET", { url: "/api/thing?page=3", headers: { "If-None-Match": res.headers.get("ETag")! } });
    expect(again.status).toBe(304);
    const bad = await call("GET", { url: "/api/thing?page=-2" });
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({ message: "Page must be positive" });
  });

  it("runs the guard before reading the body, and passes its user on", async () => {
    expect(await call("POST", { body: "{bad", auth: false })).toMatchObject({ status: 401, body: { message: "Authentication required" } });
    expect(await call("POST", { body: JSON.stringify({ name: "Ada" }) })).toMatchObject({ status: 201, body: { id: "u1", name: "Ada" } });
  });

  it("answers bad JSON, a null body, NUL characters and other media types with 4xx and the one shape", async () => {
    expect(await call("POST", { body: "{bad" })).toMatchObject({ status: 400, body: { message: "Request body must be valid JSON" } });
    expect(await call("POST", { body: "null" })).toMatchObject({ status: 400, body: { message: "Name is required", errors: { name: ["Name is required"] } } });
    expect(await call("POST", { body: JSON.stringify({ name: "a\u0000b" }) })).toMatchObject({
      status: 400,
      body: { message: "Request contains a NUL character" },
    });
    expect(await call("POST", { body: "<x/>", type: "application/xml" })).toMatchObject({
      status: 415,
      body: { message: "Request body must be JSON (application/json)" },
    });
    // A type that merely contains "application/json" is not JSON.
    expect((await call("POST", { body: "{}", type: "text/plain; x=application/json" })).status).toBe(415);
    expect(await call("POST", { body: "name=Form", type: "application/x-www-form-urlencoded" })).toMatchObject({ status: 201, body: { name: "Form" } });
  });

  it("maps ServiceError to { message, errors? } with its status and Retry-After", async () => {
    const taken = await call("POST", { body: JSON.stringify({ name: "taken" }) });
    expect(taken).toMatchObject({ status: 409, body: { message: "This name is already taken", errors: { name: ["This name is already taken"] } } });
    const slow = await call("POST", { body: JSON.stringify({ name: "slow" }) });
    expect(slow.status).toBe(429);
    expect(slow.headers.get("Retry-After")).toBe("42");
    expect(slow.body).toEqual({ message: "Too many attempts. Please try again in 1 minute." });
  });

  it("answers an unexpected failure 500 { message } without its details", async () => {
    const res = await call("POST", { body: JSON.stringify({ name: "boom" }) });
    expect(res.status).toBe(500);
    expect(res.body).toEqual({ message: "Something went wrong. Please try again later." });
    expect(new ServiceError("x").status).toBe(400);
  });

  it("hands run the body's text with lone surrogates replaced by U+FFFD (PostgreSQL refuses them)", async () => {
    expect(await call("POST", { body: '{"name":"Ada\\ud800"}' })).toMatchObject({ status: 201, body: { name: "Ada\ufffd" } });
    // A form cannot carry one: the UTF-8 bytes of a surrogate are malformed, and the decoder
    // already replaces each of them.
    expect(await call("POST", { body: "name=Ada%ED%A0%80", type: "application/x-www-form-urlencoded" })).toMatchObject({
      status: 201,
      body: { name: "Ada\ufffd\ufffd\ufffd" },
    });
  });

  it("fails a call whose auth is anyone but which reads the caller: the reference would say it ignores sign-in", async () => {
    const reads = (auth: Guard<unknown>) =>
      apiRoute({
        GET: {
          summary: "Reads the caller",
          description: "Greets the caller.",
          auth,
          run: async ({ request }) => ({ signedIn: (await getUser(request)) !== null }),
        },
      });
    const request = () => new Request("http://localhost/api/greeting", { headers: { Authorization: "Bearer not-a-token" } });
    const refused = await reads(anyone)({ request: request(), params: {} });
    expect(refused.status).toBe(500);
    const optional = await reads(getUser)({ request: request(), params: {} });
    expect(await optional.json()).toEqual({ signedIn: false });
  });
});
