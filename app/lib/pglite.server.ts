import fs from "node:fs";
import path from "node:path";
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

export class DataDirInUseError extends Error {
  constructor(
    readonly dir: string,
    readonly pid: number,
  ) {
    super(
      `The embedded database ${dir} is in use by process ${pid} (a running server, or a script). PGlite has one writer: stop that process first, then try again.`,
    );
  }
}

// The lock files this process holds.
const heldLocks = new Set<string>();

/**
 * Claims a data directory for this process: `<dir>.lock` holds our pid. PGlite's own
 * postmaster.pid always says -42 and a second process opens the same directory without
 * complaint (seen with 0.5.16): two writers on one directory corrupt it, so the lock is ours.
 * A lock whose process is gone (a kill, a crash) is taken over. Returns the release.
 */
export function lockDataDir(dir: string): () => void {
  const file = `${path.resolve(dir)}.lock`;
  fs.mkdirSync(path.dirname(file), { recursive: true });
  for (let attempt = 0; ; attempt++) {
    try {
      fs.writeFileSync(file, String(process.pid), { flag: "wx" });
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST" || attempt > 0) throw error;
      const holder = Number(fs.readFileSync(file, "utf8").trim());
      // Our own pid in a lock we do not hold is a previous run's: a container's app is often
      // pid 1 on every start, and its volume keeps the old file.
      const ours = holder === process.pid && !heldLocks.has(file);
      if (holder > 0 && !ours && processIsAlive(holder)) throw new DataDirInUseError(dir, holder);
      fs.rmSync(file, { force: true });
    }
  }
  heldLocks.add(file);
  let released = false;
  const release = () => {
    if (released) return;
    released = true;
    heldLocks.delete(file);
    // Only our own lock: never one another process took over after ours went stale.
    const holder = fs.existsSync(file) ? fs.readFileSync(file, "utf8").trim() : "";
    if (holder === String(process.pid)) fs.rmSync(file, { force: true });
  };
  process.once("exit", release);
  return release;
}

function processIsAlive(pid: number) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}
