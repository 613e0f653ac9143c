// Applies pending migrations to the configured database (DATABASE_URL, else DATA_DIR's PGlite).
import { getDb } from "../app/lib/db.server.ts";

const db = getDb();
try {
  const applied = await db.migrate();
  console.log(applied.length ? `Applied: ${applied.join(", ")}` : "No pending migrations.");
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
} finally {
  await db.close();
}
