import type { ServerBuild } from "react-router";
import { describe, expect, it } from "vitest";
import { buildPartFor, splitServerBuild } from "~/lib/split-build.server.ts";

const route = (id: string, parentId?: string) => ({ id, parentId, path: id, module: {} });
const build = {
  routes: {
    root: route("root"),
    "routes/public/home": route("routes/public/home", "root"),
    "routes/api/animations": route("routes/api/animations", "root"),
    "routes/api/not-found": route("routes/api/not-found", "root"),
    "routes/public/embed": route("routes/public/embed", "root"),
  },
} as unknown as ServerBuild;

describe("splitServerBuild", () => {
  it("gives /api/ calls the root and the API routes, pages the root and the rest, /__manifest everything", () => {
    const parts = splitServerBuild(build);
    expect(Object.keys(parts.api.routes)).toEqual(["root", "routes/api/animations", "routes/api/not-found"]);
    expect(Object.keys(parts.pages.routes)).toEqual(["root", "routes/public/home", "routes/public/embed"]);
    expect(Object.keys(parts.embed.routes)).toEqual(["root", "routes/public/embed"]);
    expect(parts.all).toBe(build);
  });

  it("sends each path to its part", () => {
    expect(buildPartFor("/api/animations")).toBe("api");
    expect(buildPartFor("/api/")).toBe("api");
    expect(buildPartFor("/api")).toBe("pages");
    expect(buildPartFor("/animations/x.data")).toBe("pages");
    expect(buildPartFor("/__manifest")).toBe("all");
    expect(buildPartFor("/embed/0396b608-9e04-427e-840c-34f18efc28a1")).toBe("embed");
    expect(buildPartFor("/embed/x.data")).toBe("pages");
    expect(buildPartFor("/embed/a/b")).toBe("pages");
    expect(buildPartFor("/custom-manifest", "/custom-manifest")).toBe("all");
  });
});
