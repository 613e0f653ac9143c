import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import PgBoss from "pg-boss";
import pg from "pg";
import type { TestProject } from "vitest/node";
import { openDatabase, pgliteJobConnection, type Database } from "~/lib/db.server.ts";
import { applyMigrations } from "~/lib/migrate.server.ts";
import { openPglite } from "~/lib/pglite.server.ts";

// Vitest globalSetup of the integration tests: the migrations run once per run, into a template
// that every test file copies (tests/setup/database.ts). Migrating a fresh database took about
// 4 s per file. PGlite: a migrated in-memory instance dumped to a tarball, which each file opens
// with `loadDataDir`. PostgreSQL (DATABASE_URL set): a migrated template database, which each
// file copies with CREATE DATABASE … TEMPLATE. Both hold pg-boss's tables as well.

export type DatabaseTemplate = { kind: "pglite"; dump: string } | { kind: "postgres"; url: string; template: string; prefix: string };

declare module "vitest" {
  export interface ProvidedContext {
    databaseTemplate: DatabaseTemplate;
  }
}

export default async function setup(project: TestProject) {
  const url = process.env.DATABASE_URL;
  const run = crypto.randomBytes(4).toString("hex");
  if (!url) {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "medanim-template-"));
    const dump = path.join(dir, "pglite.tar");
    const client = openPglite();
    try {
      await applyMigrations({
        exec: async (sql) => void (await client.exec(sql)),
        query: async <T>(sql: string, params?: unknown[]) => (await client.query<T>(sql, params)).rows,
      });
      await createJobTables(pgliteJobConnection(client));
      // Uncompressed: each file reads it back, and gunzip would cost every file more than the disk does.
      fs.writeFileSync(dump, Buffer.from(await (await client.dumpDataDir("none")).arrayBuffer()));
    } finally {
      await client.close();
    }
    project.provide("databaseTemplate", { kind: "pglite", dump });
    return () => fs.rmSync(dir, { recursive: true, force: true });
  }

  // Databases of this run share a prefix, so the teardown also drops those of a file that crashed.
  const prefix = `${databaseName(url)}_t${run}`.slice(0, 40);
  const template = `${prefix}_template`;
  await adminQuery(url, `CREATE DATABASE "${template}"`);
  const db = openDatabase({ url: withDatabase(url, template) });
  try {
    await db.migrate();
    await createJobTables(db.jobs);
  } finally {
    // A template can be copied only while nobody is connected to it.
    await db.close();
  }
  project.provide("databaseTemplate", { kind: "postgres", url, template, prefix });
  return async () => {
    const names = await adminQuery<{ datname: string }>(url, `SELECT datname FROM pg_database WHERE starts_with(datname, $1)`, [`${prefix}_`]);
    for (const { datname } of names) await adminQuery(url, `DROP DATABASE IF EXISTS "${datname}" WITH (FORCE)`);
  };
}

/** pg-boss creates its schema on its first start; done here, each file's queue starts on ready tables. */
async function createJobTables(jobs: Database["jobs"]) {
  const boss = new PgBoss({ db: jobs as PgBoss.Db, schema: jobs.schema, supervise: false, schedule: false });
  await boss.start();
  await boss.stop({ graceful: false, wait: true, close: false });
}

/** The migrated template as PGlite opens it (`loadDataDir`); undefined on PostgreSQL. */
export function templateDump(template: DatabaseTemplate): Blob | undefined {
  return template.kind === "pglite" ? new Blob([fs.readFileSync(template.dump)]) : undefined;
}

export function databaseName(url: string) {
  return decodeURIComponent(new URL(url).pathname.slice(1));
}

export function withDatabase(url: string, name: string) {
  const u = new URL(url);
  u.pathname = `/${encodeURIComponent(name)}`;
  return u.toString();
}

/** One statement on the server's own database (CREATE and DROP DATABASE cannot run in the copy itself). */
export async function adminQuery<T = unknown>(url: string, sql: string, values?: unknown[]): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(sql, values)).rows as T[];
  } finally {
    await client.end();
  }
}
