import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { openPglite } from "../pglite.server.ts";
import { BackupRefused, countRows, postgresTarget, quoteIdent, type Manifest } from "./backup.server.ts";
import { readVerified } from "./manifest.server.ts";
import { restorePostgres, withClient } from "./restore.server.ts";

// The restore drill (`npm run restore -- --check ARCHIVE`, and the weekly job): the archive is
// read whole and every member checked against the manifest's sha256, its database restored into
// a scratch database (an in-memory PGlite, or a PostgreSQL database made for the drill and
// dropped after it), and the rows of every table counted against the counts the backup
// recorded. Nothing the app uses is touched.

export type CheckResult = { passed: boolean; report: string; manifest: Manifest | null };

export type CheckOptions = {
  /** The server a PostgreSQL archive is restored on (a scratch database is made there): DATABASE_URL. */
  databaseUrl?: string;
};

export async function checkArchive(archive: string, options: CheckOptions = {}): Promise<CheckResult> {
  if (!fs.existsSync(archive)) return { passed: false, report: `No such archive: ${archive}`, manifest: null };
  const work = await fs.promises.mkdtemp(path.join(os.tmpdir(), "medanim-drill-"));
  try {
    let manifest: Manifest;
    try {
      manifest = await readVerified(archive, work);
    } catch (error) {
      if (error instanceof BackupRefused) return { passed: false, report: error.message, manifest: null };
      throw error;
    }
    const restored = await restoredRowCounts(manifest, path.join(work, manifest.database.member), options);
    return { ...compareCounts(manifest, restored), manifest };
  } finally {
    await fs.promises.rm(work, { recursive: true, force: true });
  }
}

async function restoredRowCounts(manifest: Manifest, dumpFile: string, options: CheckOptions) {
  if (manifest.database.kind === "pglite") {
    // In memory: the drill never opens a data directory, so it runs beside a live server.
    const client = openPglite(undefined, await fs.openAsBlob(dumpFile));
    try {
      return await countRows(async <R>(sql: string) => (await client.query<R>(sql)).rows, "public");
    } finally {
      await client.close();
    }
  }
  if (!options.databaseUrl) throw new BackupRefused("A PostgreSQL archive is checked on a PostgreSQL server: set DATABASE_URL");
  const server = postgresTarget(options.databaseUrl);
  const scratch = `medanim_drill_${crypto.randomBytes(6).toString("hex")}`;
  const scratchUrl = new URL(server.url);
  scratchUrl.pathname = `/${scratch}`;
  const schema = manifest.database.schema ?? "public";
  await withClient(server.url, (client) => client.query(`CREATE DATABASE ${quoteIdent(scratch)}`));
  try {
    // A new database already has an empty public schema: the restore replaces it.
    await restorePostgres(scratchUrl.toString(), schema, manifest, dumpFile, true);
    return await withClient(scratchUrl.toString(), (client) => countRows(async <R>(sql: string) => (await client.query(sql)).rows as R[], schema));
  } finally {
    await withClient(server.url, (client) => client.query(`DROP DATABASE IF EXISTS ${quoteIdent(scratch)} WITH (FORCE)`));
  }
}

/** The report: one line per table that differs, then the verdict. */
function compareCounts(manifest: Manifest, restored: Record<string, number>): { passed: boolean; report: string } {
  const head = `Archive of ${manifest.createdAt} (app ${manifest.appVersion}, ${manifest.database.kind}): every member matches its sha256.`;
  const expected = manifest.database.rows;
  const tables = Object.keys(restored).length;
  const total = Object.values(restored).reduce((sum, n) => sum + n, 0);
  if (!expected) {
    return {
      passed: true,
      report: `${head}\nThe database restored (${tables} tables, ${total} rows); this archive predates row counts, so they were not compared.`,
    };
  }
  const problems: string[] = [];
  for (const table of [...new Set([...Object.keys(expected), ...Object.keys(restored)])].sort()) {
    const want = expected[table];
    const got = restored[table];
    if (want === undefined) problems.push(`${table}: restored ${got} rows, not in the manifest`);
    else if (got === undefined) problems.push(`${table}: ${want} rows in the manifest, table missing after the restore`);
    else if (want !== got) problems.push(`${table}: ${want} rows in the manifest, ${got} restored`);
  }
  if (problems.length) return { passed: false, report: `${head}\nRow counts differ in ${problems.length} of ${tables} tables:\n${problems.join("\n")}` };
  return { passed: true, report: `${head}\nRestored into a scratch database: ${tables} tables, ${total} rows, every count as the manifest records.` };
}
