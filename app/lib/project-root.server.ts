import fs from "node:fs";
import path from "node:path";

let root: string | undefined;

/**
 * The checkout's root (package.json, prisma/migrations). A source module knows its depth under it,
 * but in the server build a module lands in build/server/ or one of its chunks in assets/, under
 * BUILD_DIR wherever that is: so look upwards, and fall back to the working directory (npm's
 * scripts run there) for a build kept outside the checkout.
 */
export function projectRoot(): string {
  if (root) return root;
  for (let dir = import.meta.dirname; ; dir = path.dirname(dir)) {
    if (fs.existsSync(path.join(dir, "package.json")) && fs.existsSync(path.join(dir, "prisma", "migrations"))) return (root = dir);
    if (path.dirname(dir) === dir) return (root = process.cwd());
  }
}
