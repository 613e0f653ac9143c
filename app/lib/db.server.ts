import path from "node:path";
import type { PGlite } from "@electric-sql/pglite";
import { PrismaPg } from "@prisma/adapter-pg";
import pg from "pg";
import { PrismaPGlite } from "pglite-prisma-adapter";
import { type Prisma, PrismaClient } from "~/generated/prisma/client.ts";
import { noteStatement, noteTransaction } from "./cache-registry.server.ts";
import { getEnv } from "./env.server.ts";
import { logger } from "./logger.server.ts";
import { metrics, statementKind } from "./metrics.server.ts";
import { applyMigrations, type RawExecutor } from "./migrate.server.ts";
import { lockDataDir, openPglite } from "./pglite.server.ts";

export type Database = {
  kind: "pglite" | "postgres";
  prisma: PrismaClient;
  /** Applies pending migrations; returns the names applied. */
  migrate(): Promise<string[]>;
  ping(): Promise<void>;
  /**
   * Housekeeping PostgreSQL's autovacuum does on its own: embedded PGlite has no such daemon,
   * so dead row versions and stale planner statistics would pile up. Nothing to do on PostgreSQL.
   */
  maintain(): Promise<void>;
  close(): Promise<void>;
  /** PGlite only: the whole data directory as one tar (`dumpDataDir`), which a backup carries. */
  dumpDataDir?: () => Promise<Blob>;
  /**
   * PGlite only: `read`'s queries, then the dump, in one transaction no other statement can enter
   * (PGlite runs every query under its transaction lock), so what `read` counts is what the dump holds.
   */
  dumpDataDirWith?: <T>(read: (query: <R>(sql: string) => Promise<R[]>) => Promise<T>) => Promise<{ dump: Blob; read: T }>;
  /**
   * The same connection for the job library (pg-boss's `db` option): its statements go through
   * the app's PGlite instance or pool. `jobSchema` is where it keeps its tables.
   */
  jobs: { executeSql(text: string, values?: unknown[]): Promise<{ rows: unknown[] }>; schema: string };
  /** The PostgreSQL pool's connections, read when /metrics is scraped; null on PGlite (one session, no pool). */
  poolStats(): { total: number; idle: number; waiting: number } | null;
};

export type DatabaseOptions = { url: string; schema?: string } | { dataDir: string; from?: Blob } | { memory: true; from?: Blob };

export function openDatabase(options: DatabaseOptions): Database {
  if ("url" in options) return openPostgres(options.url, options.schema);
  if ("dataDir" in options) return openEmbedded(options.dataDir, options.from);
  return openEmbedded(undefined, options.from);
}

function openEmbedded(dir: string | undefined, from?: Blob): Database {
  const unlock = dir ? lockDataDir(dir) : () => {};
  let client: PGlite;
  try {
    client = openPglite(dir, from);
  } catch (error) {
    unlock();
    throw error;
  }
  const prisma = timedPrisma(new PrismaClient({ adapter: new PrismaPGlite(client), log: QUERY_EVENTS }));
  const raw: RawExecutor = {
    exec: async (sql) => {
      await client.exec(sql);
    },
    query: async <T>(sql: string, params?: unknown[]) => (await client.query<T>(sql, params)).rows,
  };
  return {
    kind: "pglite",
    prisma,
    migrate: () => applyMigrations(raw),
    ping: async () => {
      await client.query("SELECT 1");
    },
    maintain: async () => {
      await client.exec("VACUUM ANALYZE");
    },
    jobs: pgliteJobConnection(client),
    // Gzipped: the demo's 44 MB (mostly empty WAL) become 5.5 MB for 0.65 s more.
    dumpDataDir: () => client.dumpDataDir("gzip"),
    dumpDataDirWith: (read) =>
      client.transaction(async (tx) => {
        const found = await read(async <R>(sql: string) => (await tx.query<R>(sql)).rows);
        // The dump takes only the query lock, which the transaction's lock does not hold.
        return { dump: await client.dumpDataDir("gzip"), read: found };
      }),
    poolStats: () => null,
    async close() {
      await prisma.$disconnect();
      // An unclosed directory makes the next open slow or hang: always close.
      if (!client.closed) await client.close();
      unlock();
    },
  };
}

/** The job library's connection on PGlite: the app's own instance (one writer, no second process). */
export function pgliteJobConnection(client: PGlite): Database["jobs"] {
  return timedJobs({
    // pg-boss sends its schema changes and maintenance as one script of several statements,
    // without values ("BEGIN; …; COMMIT;"): PGlite runs those with exec (query takes one
    // statement). A script that fails halfway would leave the one session in an aborted
    // transaction and every later query of the app refused, so its body runs in PGlite's own
    // transaction, which rolls back on error and keeps other queries out meanwhile.
    async executeSql(text, values) {
      if (values?.length) return client.query(text, values);
      const script = JOB_SCRIPT.exec(text);
      const results = script ? await client.transaction((tx) => tx.exec(script[1]!)) : await client.exec(text);
      return results.at(-1) ?? { rows: [] };
    },
    schema: "pgboss",
  });
}

/** pg-boss's scripts: "BEGIN; …; COMMIT;". */
const JOB_SCRIPT = /^\s*BEGIN;([\s\S]*)COMMIT;\s*$/;

/** The job library's connection on PostgreSQL: a failed script rolls back before its client goes back to the pool. */
function poolJobConnection(pool: pg.Pool, schema: string): Database["jobs"] {
  return timedJobs({
    async executeSql(text, values) {
      if (values?.length || !JOB_SCRIPT.test(text)) return pool.query(text, values);
      const conn = await pool.connect();
      try {
        return await conn.query(text);
      } catch (error) {
        await conn.query("ROLLBACK").catch(() => undefined);
        throw error;
      } finally {
        conn.release();
      }
    },
    schema,
  });
}

// Prisma reports each statement it sends, with its time, through the driver adapters too
// (PGlite and pg alike, inside interactive transactions as well): the app's query time
// without wrapping either driver, and the writes that drop the caches depending on them
// (cache-registry.server.ts).
const QUERY_EVENTS: Prisma.LogDefinition[] = [{ emit: "event", level: "query" }];

function timedPrisma<T extends PrismaClient>(prisma: T): T {
  const observe = metrics().dbQueryDuration;
  (prisma as unknown as { $on(event: "query", cb: (e: { query: string; duration: number }) => void): void }).$on("query", (event) => {
    observe.observe({ source: "app", statement: statementKind(event.query) }, event.duration / 1000);
    noteStatement(event.query);
  });
  return prisma;
}

/** The job queue's statements (pg-boss's fetches, sends, maintenance), timed beside the app's. */
function timedJobs(jobs: Database["jobs"]): Database["jobs"] {
  const observe = metrics().dbQueryDuration;
  return {
    schema: jobs.schema,
    async executeSql(text, values) {
      const start = process.hrtime.bigint();
      try {
        return await jobs.executeSql(text, values);
      } finally {
        observe.observe({ source: "jobs", statement: statementKind(text) }, Number(process.hrtime.bigint() - start) / 1e9);
      }
    },
  };
}

function openPostgres(url: string, schema?: string): Database {
  const pool = new pg.Pool({
    connectionString: url,
    // A per-test schema (or a deployment's own) is first on every connection's search path.
    options: schema ? `-c search_path="${schema}"` : undefined,
    max: 10,
    allowExitOnIdle: true,
  });
  // The Prisma adapter listens for errors only while connected: a connection the server ends
  // after $disconnect (a restart, a failover, a database dropped WITH (FORCE) while the pool
  // closes) would otherwise be an unhandled 'error' event that ends the process. The CI's
  // PostgreSQL pass died of exactly this (FATAL 57P01 on an ending client).
  pool.on("error", (error) => logger.warn({ err: error }, "a pooled database connection was ended by the server"));
  const prisma = timedPrisma(new PrismaClient({ adapter: new PrismaPg(pool, schema ? { schema } : undefined), log: QUERY_EVENTS }));
  return {
    kind: "postgres",
    prisma,
    async migrate() {
      // One connection for the whole run: the advisory lock is held by a session.
      const conn = await pool.connect();
      try {
        if (schema) await conn.query(`CREATE SCHEMA IF NOT EXISTS "${schema}"`);
        return await applyMigrations({
          exec: async (sql) => {
            await conn.query(sql);
          },
          query: async <T>(sql: string, params?: unknown[]) => (await conn.query(sql, params)).rows as T[],
        });
      } finally {
        conn.release();
      }
    },
    ping: async () => {
      await pool.query("SELECT 1");
    },
    maintain: async () => {},
    // A per-test schema has its own job tables: test files sharing one server never see each other's jobs.
    jobs: poolJobConnection(pool, schema ? `${schema}_jobs` : "pgboss"),
    poolStats: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
    async close() {
      await prisma.$disconnect();
      await pool.end();
    },
  };
}

let current: Database | undefined;

/** The process's database, opened at first use. Tests install their own before importing app code. */
export function getDb(): Database {
  if (!current) {
    const env = getEnv();
    current = openDatabase(env.DATABASE_URL ? { url: env.DATABASE_URL } : { dataDir: path.join(env.DATA_DIR, "pglite") });
  }
  return current;
}

export function setDb(db: Database | undefined) {
  current = db;
}

export const prisma: PrismaClient = new Proxy({} as PrismaClient, {
  get(_target, prop) {
    const client = getDb().prisma;
    if (prop === "$transaction") return (...args: unknown[]) => noteTransaction((client.$transaction as (...a: unknown[]) => Promise<unknown>)(...args));
    const value = Reflect.get(client, prop);
    return typeof value === "function" ? value.bind(client) : value;
  },
});

/**
 * A unique-constraint violation, whichever way it surfaces: Prisma's P2002, or (inside an
 * interactive transaction on a driver adapter) the adapter's own error. `target` names the
 * constraint or its columns, e.g. "Doctor_slug_key" or "slug".
 */
export function uniqueViolation(error: unknown): { target: string } | null {
  const e = error as { code?: string; meta?: { target?: unknown }; name?: string; message?: string; cause?: { kind?: string; constraint?: unknown } } | null;
  if (!e || typeof e !== "object") return null;
  if (e.code === "P2002") return { target: String(e.meta?.target ?? "") };
  if (e.name === "DriverAdapterError" && (e.cause?.kind === "UniqueConstraintViolation" || /duplicate key value/.test(e.message ?? ""))) {
    return { target: `${JSON.stringify(e.cause?.constraint ?? "")} ${e.message ?? ""}` };
  }
  return null;
}
