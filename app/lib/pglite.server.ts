import fs from "node:fs";
import { PGlite } from "@electric-sql/pglite";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";

/**
 * Opens embedded Postgres on a directory (or in memory when dir is undefined), optionally
 * starting from a dumped data directory (`dumpDataDir()`; the tests' migrated template).
 * A killed process leaves the directory dirty, and PGlite's 10 s startup-progress timer then
 * re-arms forever on the next open: turning the timer off lets recovery finish.
 */
export function openPglite(dir?: string, loadDataDir?: Blob): PGlite {
  if (dir) fs.mkdirSync(dir, { recursive: true });
  // One options object: with a leading undefined dataDir, PGlite ignores the options argument.
  return new PGlite({
    dataDir: dir,
    loadDataDir,
    // Trigram indexes serve catalogue search (migration 20261121170000).
    extensions: { pg_trgm },
    startParams: [...PGlite.defaultStartParams, "-c", "log_startup_progress_interval=0"],
  });
}
