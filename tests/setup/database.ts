import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, inject } from "vitest";
import { resetEnv } from "~/lib/env.server.ts";
import { openDatabase, setDb, type Database } from "~/lib/db.server.ts";
import { adminQuery, templateDump, withDatabase } from "./database-template.ts";
import { endFile } from "./file-state.ts";

// Every integration test file runs on a database of its own, a copy of the run's migrated
// template (tests/setup/database-template.ts): an in-memory PGlite opened from the template's
// dump, or, with DATABASE_URL set (CI's second pass), a database of its own on that server.
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "medanim-test-"));
process.env.DATA_DIR = dataDir;
process.env.APP_URL ??= "http://localhost:3000";
delete process.env.SMTP_URL;
delete process.env.S3_BUCKET;
delete process.env.STRIPE_SECRET_KEY;
resetEnv();

const template = inject("databaseTemplate");
const copy = template.kind === "postgres" ? `${template.prefix}_${crypto.randomBytes(6).toString("hex")}` : undefined;
const db: Database =
  template.kind === "postgres" ? openDatabase({ url: withDatabase(template.url, copy!) }) : openDatabase({ memory: true, from: templateDump(template) });
setDb(db);

beforeAll(async () => {
  // The pool connects on first use, so the copy only has to exist before the first query.
  if (template.kind === "postgres") await adminQuery(template.url, `CREATE DATABASE "${copy}" TEMPLATE "${template.template}"`);
});

afterAll(async () => {
  await endFile();
  await db.close();
  setDb(undefined);
  if (template.kind === "postgres") await adminQuery(template.url, `DROP DATABASE IF EXISTS "${copy}" WITH (FORCE)`);
  fs.rmSync(dataDir, { recursive: true, force: true });
});
