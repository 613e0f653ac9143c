import type { ServerBuild } from "react-router";
import { describe, expect, it } from "vitest";
import { createRouteTable, partOf, samplePath } from "~/lib/route-table.server.ts";

type Route = { id: string; parentId?: string; path?: string; index?: boolean };
const buildOf = (...routes: Route[]) => {
  const all = [{ id: "root", path: "" }, ...routes].map((r) => [r.id, { parentId: r.id === "root" ? undefined : "root", ...r }] as const);
  return {
    routes: Object.fromEntries(all.map(([id, r]) => [id, { ...r, module: {} }])),
    assets: { routes: Object.fromEntries(all) },
  } as unknown as ServerBuild;
};

const MB = 1024 * 1024;

describe("the route table", () => {
  it("puts a route in the part its path falls in, custom ids and layouts included", () => {
    const table = createRouteTable(
      buildOf(
        { id: "routes/public/home", index: true },
        { id: "routes/api/admin/guard" },
        { id: "api-admin-users-unblock", parentId: "routes/api/admin/guard", path: "api/admin/users/:id/unblock" },
        { id: "routes/public/embed", path: "embed/:animationId" },
        { id: "routes/api/not-found", path: "api/*" },
        { id: "routes/public/not-found", path: "*" },
      ),
    );
    const parts = table.split();
    expect(Object.keys(parts.api.routes).sort()).toEqual(["api-admin-users-unblock", "root", "routes/api/admin/guard", "routes/api/not-found"]);
    expect(Object.keys(parts.pages.routes).sort()).toEqual(["root", "routes/public/home", "routes/public/not-found"]);
    expect(Object.keys(parts.embed.routes).sort()).toEqual(["root", "routes/public/embed"]);
    // The embed's documents name only the routes its part has the modules of.
    expect(Object.keys(parts.embed.assets.routes).sort()).toEqual(["root", "routes/public/embed"]);
  });

  it("refuses to start when a route would be unreachable, or a rule names no route", () => {
    expect(() => createRouteTable(buildOf({ id: "splat", path: "*" }, { id: "shadowed", path: ":a/:b/:c" }))).toThrow(/shadowed/);
    expect(() => createRouteTable(buildOf({ id: "home", index: true }), { "admin/nowhere": {} })).toThrow(/admin\/nowhere/);
  });

  it("decides a request's rule from its path and method", () => {
    const table = createRouteTable(
      buildOf({ id: "form", path: "admin/doctors/new" }, { id: "hook", path: "api/hook" }, { id: "page", path: "help" }, { id: "robots", path: "robots.txt" }),
      {
        "admin/doctors/new": { body: () => ({ kind: "multipart", limit: 70 * MB }) },
        "api/hook": { csrfExempt: "signed by the provider" },
        "robots.txt": { methods: ["GET", "HEAD"], body: () => ({ kind: "none", limit: 0 }) },
      },
    );
    // A read-only resource of the pages part: a write is refused by its methods, GET passes.
    expect(table.ruleFor("/robots.txt", "POST")).toMatchObject({ part: "pages", methods: ["GET", "HEAD"], body: { kind: "none", limit: 0 }, errors: "html" });
    expect(table.ruleFor("/robots.txt", "GET").methods).toContain("GET");
    expect(table.ruleFor("/help", "POST")).toMatchObject({
      part: "pages",
      methods: ["GET", "HEAD", "POST"],
      body: { kind: "form", limit: MB },
      errors: "html",
    });
    expect(table.ruleFor("/admin/doctors/new", "POST").body).toEqual({ kind: "multipart", limit: 70 * MB });
    // The browser router posts a form to the page's data URL.
    expect(table.ruleFor("/admin/doctors/new.data", "POST").body.limit).toBe(70 * MB);
    expect(table.ruleFor("/api/hook", "POST")).toMatchObject({ part: "api", methods: null, csrfExempt: "signed by the provider", errors: "json" });
    expect(table.ruleFor("/objects/uploads/x", "PUT")).toMatchObject({ part: "server", body: { limit: null }, compress: false });
    expect(table.ruleFor("/healthzx", "GET").part).toBe("pages");
    expect(table.ruleFor("/__manifest", "GET").part).toBe("all");
  });

  it("names a request's route pattern for the metrics: never the path, one label for what only a catch-all answers", () => {
    const table = createRouteTable(
      buildOf(
        { id: "home", index: true },
        { id: "animation", path: "animations/:slug" },
        { id: "api-animation", path: "api/animations/:id" },
        { id: "routes/api/not-found", path: "api/*" },
        { id: "routes/public/not-found", path: "*" },
      ),
    );
    expect(table.patternFor("/")).toBe("/");
    expect(table.patternFor("/_root.data")).toBe("/");
    expect(table.patternFor("/animations/rhinoplasty")).toBe("/animations/:slug");
    expect(table.patternFor("/animations/rhinoplasty.data")).toBe("/animations/:slug");
    expect(table.patternFor("/api/animations/0396b608-9e04-427e-840c-34f18efc28a1")).toBe("/api/animations/:id");
    expect(table.patternFor("/api/nothing/here")).toBe("unmatched");
    expect(table.patternFor("/no/such/page")).toBe("unmatched");
    expect(table.patternFor("/media/0396b608-9e04-427e-840c-34f18efc28a1/720p/seg-1.ts")).toBe("/media/*");
    expect(table.patternFor("/assets/entry-abc123.js")).toBe("/assets/*");
    expect(table.patternFor("/healthz")).toBe("/healthz");
    expect(table.patternFor("/metrics")).toBe("/metrics");
    expect(table.patternFor("/__manifest")).toBe("/__manifest");
  });

  it("reads the part from the path alone", () => {
    expect(partOf("/api/animations")).toBe("api");
    expect(partOf("/api")).toBe("pages");
    expect(partOf("/embed/0396b608-9e04-427e-840c-34f18efc28a1")).toBe("embed");
    expect(partOf("/embed/x.data")).toBe("pages");
    expect(samplePath("/api/categories/path/:mainSlug/:subSlug?")).toBe(
      "/api/categories/path/00000000-0000-4000-8000-000000000000/00000000-0000-4000-8000-000000000000",
    );
  });
});
