import crypto from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import {
  type ServerBuild,
  UNSAFE_withComponentProps as withComponentProps,
  UNSAFE_withErrorBoundaryProps as withErrorBoundaryProps,
  UNSAFE_withHydrateFallbackProps as withHydrateFallbackProps,
} from "react-router";
import * as entry from "~/entry.server.tsx";
import * as root from "~/root.tsx";
import routeConfig from "~/routes.ts";
import { createApp } from "~/server/app.ts";
import { onFileEnd } from "../setup/file-state.ts";

// The app as `npm start` builds it (app/server/app.ts createApp: logging, compression, security headers,
// the edge guard and route table, CSRF, the media router, the split build), listening on a port
// of this test process. Its server build is assembled from app/routes.ts and the route modules
// this process imports, so the test's database and mocks apply and no `npm run build` is
// needed. What differs from production on purpose: the modules are not bundled, and the client
// assets manifest names files that do not exist (no test loads them).

type RouteEntry = { id?: string; file: string; path?: string; index?: boolean; caseSensitive?: boolean; children?: RouteEntry[] };
type BuildRoute = NonNullable<ServerBuild["routes"][string]>;

const modules = import.meta.glob(["/app/routes/**/*.ts", "/app/routes/**/*.tsx", "!/app/routes/**/*.server.ts"]);

/** React Router's default route id: the file's path under app/ without its extension. */
function routeId(entry: RouteEntry) {
  return entry.id ?? entry.file.replace(/\.[jt]sx?$/, "");
}

type Module = Record<string, unknown>;

/**
 * A route module as the React Router Vite plugin compiles it: its components get `loaderData`,
 * `actionData`, `params` and `matches` as props.
 */
function compiled(mod: Module): Module {
  const out: Module = { ...mod };
  if (typeof mod.default === "function") out.default = withComponentProps(mod.default as never);
  if (typeof mod.ErrorBoundary === "function") out.ErrorBoundary = withErrorBoundaryProps(mod.ErrorBoundary as never);
  if (typeof mod.HydrateFallback === "function") out.HydrateFallback = withHydrateFallbackProps(mod.HydrateFallback as never);
  return out;
}

/** Route id → the module as this process imported it (what a test names in callRoute). */
const sources = new Map<string, unknown>();

async function assembleBuild(): Promise<ServerBuild> {
  sources.set("root", root);
  const routes: Record<string, BuildRoute> = { root: { id: "root", path: "", module: compiled(root) } as unknown as BuildRoute };
  const add = async (entries: RouteEntry[], parentId: string) => {
    for (const entry of entries) {
      const load = modules[`/app/${entry.file}`];
      if (!load) throw new Error(`app/routes.ts names ${entry.file}, which tests/helpers/app.ts cannot import`);
      const id = routeId(entry);
      const source = (await load()) as Module;
      sources.set(id, source);
      routes[id] = {
        id,
        parentId,
        path: entry.path,
        index: entry.index,
        caseSensitive: entry.caseSensitive,
        module: compiled(source),
      } as unknown as BuildRoute;
      await add(entry.children ?? [], id);
    }
  };
  await add(routeConfig as RouteEntry[], "root");
  const manifestRoutes = Object.fromEntries(
    Object.values(routes).map((route) => {
      const mod = route.module as unknown as Record<string, unknown>;
      return [
        route.id,
        {
          id: route.id,
          parentId: route.parentId,
          path: route.path,
          index: route.index,
          caseSensitive: route.caseSensitive,
          hasAction: Boolean(mod.action),
          hasLoader: Boolean(mod.loader),
          hasClientAction: Boolean(mod.clientAction),
          hasClientLoader: Boolean(mod.clientLoader),
          hasClientMiddleware: Boolean(mod.clientMiddleware),
          hasDefaultExport: Boolean(mod.default),
          hasErrorBoundary: Boolean(mod.ErrorBoundary),
          module: `/assets/${route.id.replaceAll("/", "-")}.js`,
          imports: [],
          css: [],
        },
      ];
    }),
  );
  return {
    entry: { module: entry },
    routes,
    assets: { entry: { module: "/assets/entry.client.js", imports: [], css: [] }, routes: manifestRoutes, url: "/assets/manifest.js", version: "test" },
    basename: "/",
    publicPath: "/",
    assetsBuildDirectory: "build/client",
    future: { v8_middleware: true, v8_passThroughRequests: true },
    ssr: true,
    isSpaMode: false,
    prerender: [],
    routeDiscovery: { mode: "lazy", manifestPath: "/__manifest" },
    allowedActionOrigins: false,
  } as unknown as ServerBuild;
}

type TestApp = { build: ServerBuild; origin: string; port: number; sourceOf: (routeId: string) => unknown };
let started: Promise<TestApp> | undefined;

/**
 * The app, started once per test file and closed at its end: the next file of the worker builds
 * it again from the modules already loaded (its settings read anew, e.g. Stripe's in the CSP).
 */
export function testApp(): Promise<TestApp> {
  started ??= (async () => {
    const build = await assembleBuild();
    // The client address comes from X-Forwarded-For, as behind a proxy: tests name it per call.
    const app = await createApp({ mode: "production", build, trustProxy: ["loopback"] });
    const server = http.createServer(app);
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    server.unref();
    onFileEnd(() => {
      started = undefined;
      server.closeAllConnections();
      return new Promise((resolve) => server.close(resolve));
    });
    const { port } = server.address() as AddressInfo;
    return { build, origin: `http://127.0.0.1:${port}`, port, sourceOf: (routeId: string) => sources.get(routeId) };
  })();
  return started;
}

export type WireResponse = { status: number; headers: Headers; body: Buffer };

/**
 * One HTTP request to the test app, as a client sends it: any Host header (the app's own by
 * default: APP_URL's host), no redirect followed, the body read whole.
 */
export async function sendToApp(
  target: string,
  { method = "GET", headers = new Headers(), body }: { method?: string; headers?: Headers; body?: string | Uint8Array | null },
): Promise<WireResponse> {
  const { port } = await testApp();
  const outgoing: http.OutgoingHttpHeaders = {};
  headers.forEach((value, name) => {
    if (name !== "set-cookie") outgoing[name] = value;
  });
  outgoing.host ??= new URL(process.env.APP_URL ?? "http://localhost:3000").host;
  if (body !== undefined && body !== null) outgoing["content-length"] = String(Buffer.byteLength(body));
  return new Promise((resolve, reject) => {
    const request = http.request({ host: "127.0.0.1", port, method, path: target, headers: outgoing }, (response) => {
      const chunks: Buffer[] = [];
      response.on("data", (chunk: Buffer) => chunks.push(chunk));
      response.on("end", () => {
        const responseHeaders = new Headers();
        for (const [name, value] of Object.entries(response.headers)) {
          if (Array.isArray(value)) for (const one of value) responseHeaders.append(name, one);
          else if (value !== undefined) responseHeaders.set(name, String(value));
        }
        resolve({ status: response.statusCode ?? 0, headers: responseHeaders, body: Buffer.concat(chunks) });
      });
      response.on("error", reject);
    });
    request.on("error", reject);
    request.end(body ?? undefined);
  });
}

/** A page's text as a reader sees it: React's comment separators gone, the usual entities decoded. */
export function pageText(response: { body: Buffer }) {
  return response.body
    .toString("utf8")
    .replace(/<!-- -->/g, "")
    .replace(/&#x27;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, "&");
}

export const jsonBody = (response: { body: Buffer }) => JSON.parse(response.body.toString("utf8"));

/** A multipart/form-data body as a browser posts a form with files, for sendToApp. */
export function multipartForm(fields: Record<string, string>, files: Record<string, { name: string; type: string; bytes: Buffer }> = {}) {
  const boundary = `form-${crypto.randomUUID()}`;
  const parts: Buffer[] = [];
  for (const [name, value] of Object.entries(fields))
    parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`));
  for (const [name, file] of Object.entries(files)) {
    parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"; filename="${file.name}"\r\nContent-Type: ${file.type}\r\n\r\n`));
    parts.push(file.bytes, Buffer.from("\r\n"));
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return { body: Buffer.concat(parts), type: `multipart/form-data; boundary=${boundary}` };
}
