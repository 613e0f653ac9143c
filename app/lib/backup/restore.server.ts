import fs from "node:fs";
import path from "node:path";
import readline from "node:readline";
import pg from "pg";
import { openDatabase, type Database } from "../db.server.ts";
import { lockDataDir } from "../pglite.server.ts";
import { readVerified } from "./manifest.server.ts";
import { projectRoot } from "../project-root.server.ts";
import {
  BackupRefused,
  OBJECTS_PREFIX,
  PGLITE_MEMBER,
  POSTGRES_MEMBER,
  S3_KEYS_MEMBER,
  localObjectFiles,
  postgresTarget,
  quoteIdent,
  runPgTool,
  type Manifest,
} from "./backup.server.ts";

// `npm run restore -- ARCHIVE` (scripts/restore.ts). Everything is checked before the target is
// touched: the archive is read whole into a working directory beside the data, every member's
// sha256 compared with the manifest, the target found empty. Only then are the database and the
// objects put in place, and the code's newer migrations applied.

export type RestoreTarget = {
  archive: string;
  dataDir: string;
  databaseUrl?: string;
  s3Bucket?: string;
  /** Replace a target that is not empty (the old embedded database and objects are moved aside, a PostgreSQL schema is dropped). */
  force?: boolean;
  log?: (line: string) => void;
};

export type RestoreResult = { manifest: Manifest; migrationsApplied: string[]; objectsRestored: number; missingKeys: string[]; movedAside: string[] };

export async function restoreBackup(target: RestoreTarget): Promise<RestoreResult> {
  const log = target.log ?? (() => {});
  const dataDir = path.resolve(target.dataDir);
  if (!fs.existsSync(target.archive)) throw new BackupRefused(`No such archive: ${target.archive}`);
  await fs.promises.mkdir(dataDir, { recursive: true });
  // Beside the data, so the objects are moved into place by a rename, not copied.
  const work = await fs.promises.mkdtemp(path.join(dataDir, ".restore-"));
  let releaseLock = () => {};
  try {
    const manifest = await readVerified(target.archive, work);
    const kind = target.databaseUrl ? "postgres" : "pglite";
    if (manifest.database.kind !== kind) {
      throw new BackupRefused(
        `The archive holds a ${manifest.database.kind === "pglite" ? "embedded (PGlite)" : "PostgreSQL"} database and this configuration uses ${kind === "pglite" ? "the embedded one (no DATABASE_URL)" : "PostgreSQL (DATABASE_URL)"}`,
      );
    }
    const storage = target.s3Bucket ? "s3" : "local";
    if (manifest.objects.storage !== storage)
      throw new BackupRefused(`The archive's objects are for ${manifest.objects.storage} storage and this configuration uses ${storage}`);
    const known = new Set(fs.readdirSync(path.join(projectRoot(), "prisma", "migrations")));
    const unknown = manifest.database.migrations.filter((name) => !known.has(name));
    if (unknown.length)
      throw new BackupRefused(
        `The archive comes from a newer version of the app (migrations ${unknown.join(", ")} are not in this code): upgrade the code first`,
      );

    const movedAside: string[] = [];
    const pgliteDir = path.join(dataDir, "pglite");
    const objectsDir = path.join(dataDir, "objects");
    const postgres = target.databaseUrl ? postgresTarget(target.databaseUrl) : null;
    // A server running on this data directory must not have its database moved from under it:
    // the directory is claimed before it is looked at, and let go just before PGlite opens it.
    if (!postgres) releaseLock = lockDataDir(pgliteDir);
    const busy = [
      ...(postgres ? await postgresInUse(postgres.url, postgres.schema) : dirInUse(pgliteDir)),
      ...(storage === "local" ? await objectsInUse(objectsDir) : []),
    ];
    if (busy.length && !target.force)
      throw new BackupRefused(`The target is not empty (${busy.join("; ")}). Restore into an empty one, or add --force to replace it.`);
    const stamp = new Date().toISOString().replace(/[-:.]/g, "");
    if (busy.length) {
      for (const dir of postgres ? [objectsDir] : [pgliteDir, objectsDir]) {
        if (!fs.existsSync(dir)) continue;
        const aside = `${dir}.replaced-${stamp}`;
        await fs.promises.rename(dir, aside);
        movedAside.push(aside);
        log(`Moved ${dir} aside to ${aside}`);
      }
    }

    let db: Database;
    releaseLock();
    if (postgres) {
      await restorePostgres(postgres.url, postgres.schema, manifest, path.join(work, POSTGRES_MEMBER), Boolean(busy.length));
      db = openDatabase({ url: postgres.url, schema: postgres.schema === "public" ? undefined : postgres.schema });
    } else {
      // PGlite unpacks the dump into the empty directory on open (its loadDataDir).
      db = openDatabase({ dataDir: pgliteDir, from: await fs.openAsBlob(path.join(work, PGLITE_MEMBER)) });
    }
    let migrationsApplied: string[];
    try {
      migrationsApplied = await db.migrate();
      if (migrationsApplied.length) log(`Applied migrations newer than the archive: ${migrationsApplied.join(", ")}`);
      // The dump was taken while its own backup ran: the row is finished from the manifest.
      const { size } = await fs.promises.stat(target.archive);
      const finished = {
        finishedAt: new Date(manifest.finishedAt),
        objectCount: manifest.objects.count,
        objectBytes: BigInt(manifest.objects.bytes),
        archiveBytes: BigInt(size),
      };
      await db.prisma.backup.upsert({
        where: { id: manifest.backupId },
        update: finished,
        create: {
          id: manifest.backupId,
          startedAt: new Date(manifest.createdAt),
          databaseKind: manifest.database.kind,
          storage: manifest.objects.storage,
          archiveName: path.basename(target.archive),
          ...finished,
        },
      });
    } finally {
      await db.close();
    }

    let objectsRestored = 0;
    let missingKeys: string[] = [];
    if (storage === "local") {
      const staged = path.join(work, OBJECTS_PREFIX);
      for await (const { relative, file } of localObjectFiles(staged)) {
        const destination = path.join(objectsDir, relative);
        await fs.promises.mkdir(path.dirname(destination), { recursive: true });
        await fs.promises.rename(file, destination);
        objectsRestored += 1;
      }
    } else {
      missingKeys = await missingS3Keys(path.join(work, S3_KEYS_MEMBER));
    }
    return { manifest, migrationsApplied, objectsRestored, missingKeys, movedAside };
  } finally {
    releaseLock();
    await fs.promises.rm(work, { recursive: true, force: true });
  }
}

function dirInUse(dir: string) {
  return fs.existsSync(dir) && fs.readdirSync(dir).length > 0 ? [`${dir} holds a database`] : [];
}

async function objectsInUse(dir: string) {
  for await (const _ of localObjectFiles(dir)) return [`${dir} holds objects`];
  return [];
}

export async function withClient<T>(url: string, run: (client: pg.Client) => Promise<T>) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await run(client);
  } finally {
    await client.end();
  }
}

async function postgresInUse(url: string, schema: string) {
  const tables = await withClient(url, async (client) => {
    const { rows } = await client.query<{ count: number }>(
      `SELECT count(*)::int AS count FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = $1 AND c.relkind IN ('r', 'p', 'v', 'm', 'S', 'f')`,
      [schema],
    );
    return rows[0]!.count;
  });
  return tables ? [`schema ${schema} holds ${tables} tables, views or sequences`] : [];
}

export async function restorePostgres(url: string, schema: string, manifest: Manifest, dumpFile: string, replace: boolean) {
  await withClient(url, async (client) => {
    if (replace) await client.query(`DROP SCHEMA IF EXISTS ${quoteIdent(schema)} CASCADE`);
    await client.query(`CREATE SCHEMA IF NOT EXISTS ${quoteIdent(schema)}`);
    for (const extension of manifest.database.extensions ?? []) {
      await client.query(`CREATE EXTENSION IF NOT EXISTS ${quoteIdent(extension)} WITH SCHEMA ${quoteIdent(schema)}`);
    }
  });
  // The schema (and its comment) was made above, with the extensions the dump's indexes need
  // in it: pg_restore would fail on "schema already exists", so those entries are left out.
  const listFile = `${dumpFile}.list`;
  await runPgTool("pg_restore", ["--list", dumpFile], listFile);
  const entries = (await fs.promises.readFile(listFile, "utf8")).split("\n");
  await fs.promises.writeFile(listFile, entries.filter((line) => !/^\d+; \d+ \d+ (SCHEMA|COMMENT) - (SCHEMA )?\S+/.test(line)).join("\n"));
  // One transaction: a restore that fails halfway leaves the schema as it was (empty).
  await runPgTool("pg_restore", [
    "--no-owner",
    "--no-privileges",
    "--exit-on-error",
    "--single-transaction",
    `--use-list=${listFile}`,
    `--dbname=${url}`,
    dumpFile,
  ]);
}

async function missingS3Keys(listFile: string) {
  const { hasKey } = await import("../s3-store.server.ts");
  const missing: string[] = [];
  for await (const line of readline.createInterface({ input: fs.createReadStream(listFile), crlfDelay: Infinity })) {
    if (!line) continue;
    const { key } = JSON.parse(line) as { key: string };
    if (!(await hasKey(key))) missing.push(key);
  }
  return missing;
}
