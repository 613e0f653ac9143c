import type { Config } from "@react-router/dev/config";

export default {
  ssr: true,
  appDirectory: "app",
  // BUILD_DIR lets several builds (tests, benchmarks) live side by side.
  buildDirectory: process.env.BUILD_DIR ?? "build",
  future: {
    // Loaders and actions get the request as it came (use the `url` argument for the page's
    // URL): React Router otherwise copies the request twice per loader, and per-request memos
    // keyed on it (the signed-in user, the viewer's access) would miss between loaders.
    v8_passThroughRequests: true,
    // The admin guard is middleware on the admin branches of the route table (decision 008):
    // it runs before every loader and action below it, so no child can skip it.
    v8_middleware: true,
  },
} satisfies Config;
