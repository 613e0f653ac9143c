// Workarounds for Prisma 6.19's JavaScript schema-engine path (used by `prisma migrate dev` and
// friends, never by the running app). Each one is a bug reproduced on these machines; see
// TOOLCHAIN.md. Tested in tests/integration/cli-adapters.test.ts.
import type { PGlite } from "@electric-sql/pglite";
import { PrismaPg } from "@prisma/adapter-pg";
import type { SqlDriverAdapter, SqlMigrationAwareDriverAdapterFactory, SqlQuery } from "@prisma/driver-adapter-utils";
import { PrismaPGlite } from "pglite-prisma-adapter";
import { openPglite } from "../app/lib/pglite.server.ts";
import pg from "pg";

/**
 * pglite-prisma-adapter 0.6.1: `executeScript` does not await `exec`, so a failing migration is
 * recorded as applied; and an argument-less `executeRaw` sends a whole script through the
 * extended protocol ("cannot insert multiple commands into a prepared statement").
 */
export function fixPgliteAdapter(adapter: SqlDriverAdapter, client: PGlite): SqlDriverAdapter {
  const executeRaw = adapter.executeRaw.bind(adapter);
  return Object.assign(adapter, {
    async executeScript(script: string) {
      await client.exec(script);
    },
    async executeRaw(query: SqlQuery) {
      if (query.args.length === 0) {
        const results = await client.exec(query.sql);
        return results.reduce((sum, r) => sum + (r.affectedRows ?? 0), 0);
      }
      return executeRaw(query);
    },
  });
}

export function pgliteCliAdapter(client: PGlite): SqlMigrationAwareDriverAdapterFactory {
  const factory = new PrismaPGlite(client);
  return {
    provider: factory.provider,
    adapterName: factory.adapterName,
    async connect() {
      return fixPgliteAdapter(await factory.connect(), client);
    },
    async connectToShadowDb() {
      // The same extensions as the app's database, so every migration applies to the shadow too.
      const shadow = openPglite();
      return fixPgliteAdapter(await new PrismaPGlite(shadow).connect(), shadow);
    },
  };
}

// OID 18 is "char", OID 19 is name: the schema engine's introspection selects both and
// @prisma/adapter-pg 6.19.3 has no column type for them ("Column type 'name' could not be
// deserialized"). Their text form is exact, so they are reported as text (OID 25).
const TEXT_LIKE_OIDS = new Set([18, 19]);
const TEXT_OID = 25;

type QueryResult = { fields?: Array<{ dataTypeID: number }> };
// A multi-statement script answers one result per statement.
type PerformIO = (query: SqlQuery) => Promise<QueryResult | QueryResult[]>;

export function readNameColumnsAsText<T extends object>(queryable: T): T {
  const target = queryable as T & { performIO: PerformIO; startTransaction?: (...args: unknown[]) => Promise<object> };
  const performIO = target.performIO.bind(target);
  target.performIO = async (query) => {
    const result = await performIO(query);
    for (const one of [result].flat()) {
      for (const field of one?.fields ?? []) if (TEXT_LIKE_OIDS.has(field.dataTypeID)) field.dataTypeID = TEXT_OID;
    }
    return result;
  };
  if (target.startTransaction) {
    const startTransaction = target.startTransaction.bind(target);
    target.startTransaction = async (...args) => readNameColumnsAsText(await startTransaction(...args));
  }
  return queryable;
}

/**
 * @prisma/adapter-pg 6.19.3 with a connection string uses the main database as the shadow one;
 * `migrate dev` would then wipe the developer's data. The shadow database is a separate one,
 * created and dropped around each use.
 */
export function postgresCliAdapter(url: string): SqlMigrationAwareDriverAdapterFactory {
  const poolOptions = { connectionString: url, allowExitOnIdle: true };
  const main = new PrismaPg(poolOptions);
  return {
    provider: main.provider,
    adapterName: main.adapterName,
    connect: async () => readNameColumnsAsText(await main.connect()),
    async connectToShadowDb() {
      const shadowName = `prisma_shadow_${process.pid}_${Date.now()}`;
      const admin = new pg.Client({ connectionString: url });
      await admin.connect();
      await admin.query(`CREATE DATABASE "${shadowName}"`);
      await admin.end();
      const shadowUrl = new URL(url);
      shadowUrl.pathname = `/${shadowName}`;
      const adapter = readNameColumnsAsText(await new PrismaPg({ ...poolOptions, connectionString: shadowUrl.toString() }).connect());
      const dispose = adapter.dispose.bind(adapter);
      return Object.assign(adapter, {
        async dispose() {
          await dispose();
          const cleanup = new pg.Client({ connectionString: url });
          await cleanup.connect();
          await cleanup.query(`DROP DATABASE IF EXISTS "${shadowName}" WITH (FORCE)`);
          await cleanup.end();
        },
      });
    },
  };
}
