import { defineConfig } from "vitest/config";
import { staticPageScript } from "./vite.static-page.ts";

/** Integration files that replace a module (vi.mock): they get modules of their own. */
const ISOLATED = ["tests/integration/admin-uploads.test.ts"];

export default defineConfig({
  // The root names the static page script's URL (a virtual module): the source's path here.
  plugins: [staticPageScript()],
  resolve: { tsconfigPaths: true },
  test: {
    // Files run in separate workers, two at a time (2 cores).
    pool: "forks",
    maxWorkers: 2,
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // The root links app.css by URL (`?url`): resolved as Vite resolves it, not to "" (React warned of an empty href).
    css: { include: [/app\.css/] },
    // The caches are on, as in production: a factory's write goes through the app's Prisma
    // client, whose statement hook drops what depends on it (cache-registry.server.ts).
    env: { NODE_ENV: "test", LOG_LEVEL: "silent" },
    projects: [
      // Pure modules: no database is opened or migrated for them.
      { extends: true, test: { name: "unit", include: ["tests/unit/**/*.test.ts"] } },
      {
        extends: true,
        test: {
          name: "integration",
          include: ["tests/integration/**/*.test.ts"],
          exclude: ISOLATED,
          // A worker's files share the modules it loaded (the app: about 3 s to import, paid once
          // per worker instead of once per file); tests/setup/file-state.ts resets what they hold.
          isolate: false,
          // Migrated once per run into a template; each file gets its own copy of it.
          globalSetup: ["tests/setup/database-template.ts"],
          setupFiles: ["tests/setup/database.ts"],
        },
      },
      {
        extends: true,
        test: {
          name: "integration-isolated",
          include: ISOLATED,
          globalSetup: ["tests/setup/database-template.ts"],
          setupFiles: ["tests/setup/database.ts"],
        },
      },
      // Two production instances as child processes on one PostgreSQL database: the
      // file makes and drops its own database, so none of the setup above; skipped without
      // DATABASE_URL, so the PGlite pass runs it as a visible skip.
      { extends: true, test: { name: "integration-cluster", include: ["tests/cluster/**/*.test.ts"], testTimeout: 60_000, hookTimeout: 120_000 } },
    ],
  },
});
