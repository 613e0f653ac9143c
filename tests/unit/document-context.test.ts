import fs from "node:fs";
import path from "node:path";
import { createRequire } from "node:module";
import type { EntryContext } from "react-router";
import { describe, expect, it } from "vitest";
import { documentContext } from "~/lib/document-routes.server.ts";

// documentContext in isolation, on purpose: what it saves (React Router flattening the loader data
// of a page that does not hydrate) leaves no trace in the document, whose missing loader data
// tests/integration/static-page.test.ts checks through the app's door.

/** An entry context as React Router's patched renderHtml makes it: the handoff stream encoded when first read. */
function entryContext() {
  let encodings = 0;
  const context = {
    manifest: { routes: { root: { id: "root", path: "", hasLoader: true } }, entry: { module: "/entry.js", imports: [] }, url: "/manifest.js", version: "1" },
    branches: [],
    routeModules: {},
    staticHandlerContext: { location: { pathname: "/" }, matches: [{ route: { id: "root" } }], loaderData: { root: {} } },
    get serverHandoffStream() {
      encodings++;
      return new ReadableStream();
    },
  } as unknown as EntryContext;
  return { context, encodings: () => encodings };
}

describe("documentContext", () => {
  it("drops the loader data of a document that does not hydrate without encoding it", () => {
    const { context, encodings } = entryContext();
    const document = documentContext(context, false);
    expect(document.serverHandoffStream).toBeUndefined();
    expect(Object.keys(document.manifest.routes)).toEqual(["root"]);
    expect(encodings()).toBe(0);
  });

  it("keeps it for a document that hydrates, still encoded only when React Router reads it", () => {
    const { context, encodings } = entryContext();
    const document = documentContext(context, true);
    expect(encodings()).toBe(0);
    expect(document.serverHandoffStream).toBeInstanceOf(ReadableStream);
    expect(encodings()).toBe(1);
  });

  it("has React Router's server runtime patched to encode the handoff lazily (patches/)", () => {
    // The package's exports name dist/development, which the server loads; dist/production is
    // patched alike, so a package that names it keeps the lazy stream.
    const dist = path.join(path.dirname(createRequire(import.meta.url).resolve("react-router")), "..");
    for (const build of ["development", "production"]) {
      const runtimes = fs
        .readdirSync(path.join(dist, build))
        .filter((name) => /\.m?js$/.test(name))
        .map((name) => fs.readFileSync(path.join(dist, build, name), "utf8"))
        .filter((text) => text.includes("async function renderHtml("));
      expect(runtimes.length, build).toBeGreaterThan(0);
      for (const text of runtimes) expect(text, build).toContain("get serverHandoffStream()");
    }
  });

  it("is still needed: the installed React Router is the one whose shipped code encodes eagerly", () => {
    // The patch's removed lines are upstream's code as shipped, and patch-package replaces only
    // lines that match them (a mismatch fails `npm install`). So the patched form above, on the
    // version the patch names, proves this version builds the stream eagerly. An upgrade fails
    // here: read the new handleDocumentRequest, and if it no longer calls encodeViaTurboStream
    // before the entry runs, take the patch out (decision 027, "Removal").
    const [patch] = fs.readdirSync("patches").filter((name) => name.startsWith("react-router+"));
    const patched = /^react-router\+(.+)\.patch$/.exec(patch ?? "")?.[1];
    const installed = createRequire(import.meta.url)("react-router/package.json") as { version: string };
    expect(installed.version).toBe(patched);
    const removed = fs
      .readFileSync(path.join("patches", patch!), "utf8")
      .split("\n")
      .filter((line) => line.startsWith("-") && !line.startsWith("---"));
    expect(removed).toContain("-      serverHandoffStream: encodeViaTurboStream(");
  });
});
