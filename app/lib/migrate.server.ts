import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { projectRoot } from "./project-root.server.ts";

export type RawExecutor = {
  exec(sql: string): Promise<void>;
  query<T = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<T[]>;
};

// The same lock id as Prisma's CLI, so `prisma migrate deploy` and the app never race.
const ADVISORY_LOCK = 72707369;

/**
 * Applies the committed prisma/migrations/* files in order, each in its own transaction, and
 * records them in `_prisma_migrations` exactly as the Prisma CLI does (sha256 checksum), so
 * `prisma migrate dev` and `migrate status` see the same history. In-process because the CLI's
 * wasm engine takes 10 s or more per run here. A failing migration throws with its error.
 */
export async function applyMigrations(db: RawExecutor, dir = path.join(projectRoot(), "prisma", "migrations")): Promise<string[]> {
  await db.exec(`CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
    "id" VARCHAR(36) PRIMARY KEY NOT NULL,
    "checksum" VARCHAR(64) NOT NULL,
    "finished_at" TIMESTAMPTZ,
    "migration_name" VARCHAR(255) NOT NULL,
    "logs" TEXT,
    "rolled_back_at" TIMESTAMPTZ,
    "started_at" TIMESTAMPTZ NOT NULL DEFAULT now(),
    "applied_steps_count" INTEGER NOT NULL DEFAULT 0
  )`);
  await db.query(`SELECT pg_advisory_lock(${ADVISORY_LOCK})`);
  try {
    const done = await db.query<{ migration_name: string; checksum: string; finished_at: Date | null }>(
      `SELECT migration_name, checksum, finished_at FROM "_prisma_migrations" WHERE rolled_back_at IS NULL`,
    );
    const byName = new Map(done.map((row) => [row.migration_name, row]));
    const names = fs
      .readdirSync(dir, { withFileTypes: true })
      .filter((d) => d.isDirectory() && fs.existsSync(path.join(dir, d.name, "migration.sql")))
      .map((d) => d.name)
      .sort();
    const applied: string[] = [];
    for (const name of names) {
      const sql = fs.readFileSync(path.join(dir, name, "migration.sql"), "utf8");
      const checksum = crypto.createHash("sha256").update(sql).digest("hex");
      const previous = byName.get(name);
      if (previous?.finished_at) continue;
      if (previous) {
        throw new Error(
          `Migration ${name} started earlier and did not finish. Fix the database, then mark it rolled back (npx prisma migrate resolve --rolled-back ${name}).`,
        );
      }
      if (!/^[\w-]+$/.test(name)) throw new Error(`Migration folder name not allowed: ${name}`);
      // The record is written in the migration's own transaction: applied and recorded, or neither.
      const record = `INSERT INTO "_prisma_migrations" (id, checksum, finished_at, migration_name, applied_steps_count)
        VALUES ('${crypto.randomUUID()}', '${checksum}', now(), '${name}', 1);`;
      try {
        await db.exec(`BEGIN;\n${sql}\n;\n${record}\nCOMMIT;`);
      } catch (error) {
        await db.exec("ROLLBACK").catch(() => {});
        const message = error instanceof Error ? error.message : String(error);
        throw new Error(`Migration ${name} failed: ${message}`);
      }
      applied.push(name);
    }
    return applied;
  } finally {
    await db.query(`SELECT pg_advisory_unlock(${ADVISORY_LOCK})`);
  }
}
