import { defineConfig } from "vitest/config";

export default defineConfig({
  resolve: { tsconfigPaths: true },
  test: {
    // Files run in separate workers, two at a time (2 cores).
    pool: "forks",
    maxWorkers: 2,
    testTimeout: 30_000,
    hookTimeout: 60_000,
    env: { NODE_ENV: "test", LOG_LEVEL: "silent" },
    projects: [
      // Pure modules: no database is opened or migrated for them.
      { extends: true, test: { name: "unit", include: ["tests/unit/**/*.test.ts"] } },
      {
        extends: true,
        test: {
          name: "integration",
          include: ["tests/integration/**/*.test.ts"],
          // Migrated once per run into a template; each file gets its own copy of it.
          globalSetup: ["tests/setup/database-template.ts"],
          setupFiles: ["tests/setup/database.ts"],
        },
      },
    ],
  },
});
