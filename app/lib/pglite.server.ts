import fs from "node:fs";
import { PGlite } from "@electric-sql/pglite";

/**
 * Opens embedded Postgres on a directory (or in memory when dir is undefined).
 * A killed process leaves the directory dirty, and PGlite's 10 s startup-progress timer then
 * re-arms forever on the next open: turning the timer off lets recovery finish.
 */
export function openPglite(dir?: string): PGlite {
  if (dir) fs.mkdirSync(dir, { recursive: true });
  return new PGlite(dir, {
    startParams: [...PGlite.defaultStartParams, "-c", "log_startup_progress_interval=0"],
  });
}
