import type { Config } from "@react-router/dev/config";

// The benchmark's floor: the same framework and versions as the app, one page and one resource
// route, nothing else. Built by bench/run.ts with `npx react-router build` in this directory.
export default {
  ssr: true,
  appDirectory: "app",
  buildDirectory: "build",
} satisfies Config;
