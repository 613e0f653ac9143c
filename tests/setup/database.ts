import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll } from "vitest";
import { resetEnv } from "~/lib/env.server.ts";
import { openDatabase, setDb, type Database } from "~/lib/db.server.ts";

// Every test file runs on a database of its own: a fresh in-memory PGlite, or, with
// DATABASE_URL set (CI's second pass), a fresh schema on that PostgreSQL server.
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "medanim-test-"));
process.env.DATA_DIR = dataDir;
process.env.APP_URL ??= "http://localhost:3000";
delete process.env.SMTP_URL;
delete process.env.S3_BUCKET;
delete process.env.STRIPE_SECRET_KEY;
resetEnv();

const url = process.env.DATABASE_URL;
const schema = url ? `test_${crypto.randomBytes(6).toString("hex")}` : undefined;
const db: Database = url ? openDatabase({ url, schema }) : openDatabase({ memory: true });
setDb(db);

beforeAll(async () => {
  await db.migrate();
});

afterAll(async () => {
  if (schema) await db.prisma.$executeRawUnsafe(`DROP SCHEMA IF EXISTS "${schema}", "${db.jobs.schema}" CASCADE`);
  await db.close();
  setDb(undefined);
  fs.rmSync(dataDir, { recursive: true, force: true });
});
