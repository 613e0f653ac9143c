import path from "node:path";
import type { PGlite } from "@electric-sql/pglite";
import { defineConfig } from "prisma/config";
import { openPglite } from "./app/lib/pglite.server.ts";
import { pgliteCliAdapter, postgresCliAdapter } from "./prisma/cli-adapters.ts";

// The CLI calls adapter() twice per command: one PGlite per process.
let pglite: PGlite | undefined;

export default defineConfig({
  experimental: { adapter: true },
  engine: "js",
  schema: "prisma/schema.prisma",
  migrations: { path: "prisma/migrations", seed: "tsx prisma/seed.ts" },
  async adapter() {
    const url = process.env.DATABASE_URL;
    if (url) return postgresCliAdapter(url);
    pglite ??= openPglite(path.join(process.env.DATA_DIR ?? "data", "pglite"));
    return pgliteCliAdapter(pglite);
  },
});
