import type { ServerBuild } from "react-router";
import { handleError } from "~/entry.server.tsx";

// A React Router server build with only the routes a test names (each a child of an empty
// root), for driving the real Express app and edge adapter without building the product.

export type TestRoute = { path: string; module: Record<string, unknown> };

export function testServerBuild(routes: Record<string, TestRoute>): ServerBuild {
  const children = Object.fromEntries(Object.entries(routes).map(([id, { path, module }]) => [id, { id, parentId: "root", path, module }]));
  return {
    entry: {
      module: {
        default: (_request: Request, status: number) => new Response("<html></html>", { status, headers: { "Content-Type": "text/html" } }),
        handleError,
      },
    },
    routes: { root: { id: "root", path: "", module: {} }, ...children },
    assets: { entry: { module: "/entry.js", imports: [] }, routes: {}, url: "/manifest.js", version: "1" },
    basename: "/",
    publicPath: "/",
    assetsBuildDirectory: "build/client",
    future: {},
    ssr: true,
    prerender: [],
    isSpaMode: false,
    routeDiscovery: { mode: "lazy", manifestPath: "/__manifest" },
  } as unknown as ServerBuild;
}
