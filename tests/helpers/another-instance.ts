import { getDb } from "~/lib/db.server.ts";

/**
 * A write made by another instance (or another process): straight to the database, past this
 * process's statement hook (cache-registry.server.ts), so only the caches' age can show it.
 * Unqualified table names: the test's schema is first on the search path.
 */
export async function writeOnAnotherInstance(sql: string, ...values: unknown[]) {
  await getDb().jobs.executeSql(sql, values.length ? values : undefined);
}
