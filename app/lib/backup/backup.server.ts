import crypto from "node:crypto";
import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { Readable } from "node:stream";
import type { ReadableStream as WebReadableStream } from "node:stream/web";
import pg from "pg";
import type { Database } from "../db.server.ts";
import { ArchiveWriter } from "./archive.server.ts";
import { BackupRefused, FORMAT, FORMAT_VERSION, MANIFEST, type Manifest, verifyArchive } from "./manifest.server.ts";
import { type BackupDestination, S3_BACKUP_PREFIX, describeDestination, ensureWritableDir, stagingDir, uploadArchive } from "./destination.server.ts";
import { projectRoot } from "../project-root.server.ts";

// `npm run backup` (scripts/backup.ts): one tar with the database, the objects (or, on S3, the
// list of the bucket's keys) and a manifest. What goes in and why: docs/decisions/020-operating.md,
// "Backups".

export { BackupRefused, FORMAT, FORMAT_VERSION, MANIFEST, type Manifest };
export const PGLITE_MEMBER = "database/pglite.tar.gz";
export const POSTGRES_MEMBER = "database/postgres.dump";
export const S3_KEYS_MEMBER = "objects.s3.jsonl";
export const OBJECTS_PREFIX = "objects/";

/** Under DATA_DIR/objects, derived or unfinished: image renditions are made again on demand, .tmp holds uploads in flight. */
const NOT_BACKED_UP = new Set([".renditions", ".tmp"]);

export type BackupSource = {
  db: Database;
  dataDir: string;
  /** DATABASE_URL when the database is PostgreSQL. */
  databaseUrl?: string;
  /** S3_BUCKET when the objects are on S3. */
  s3Bucket?: string;
  /** The archive's path; without it, medanim-<UTC time>.tar at `destination`. */
  out?: string;
  /** Where an archive without `out` goes (BACKUP_DIR, or the bucket): DATA_DIR/backups by default. */
  destination?: BackupDestination;
  now?: Date;
  /** A Backup row already written for this run (the scheduled job's claim of its day). */
  claimedId?: string;
};

const appVersion = (): string => JSON.parse(fs.readFileSync(path.join(projectRoot(), "package.json"), "utf8")).version;

export function defaultArchivePath(dataDir: string, now: Date) {
  // To the millisecond: two backups in one second (a scheduled run beside `npm run backup`) must
  // not share a name, above all in the bucket, where nothing local is left to refuse the second.
  const stamp = now.toISOString().replace(/[-:.]/g, "");
  return path.resolve(dataDir, "backups", `medanim-${stamp}.tar`);
}

/**
 * A PostgreSQL URL as libpq takes it, and the schema the app lives in: a `schema` parameter
 * (Prisma's convention) names it and libpq refuses parameters it does not know, so it is taken out.
 */
export function postgresTarget(databaseUrl: string) {
  const url = new URL(databaseUrl);
  const schema = url.searchParams.get("schema") || "public";
  url.searchParams.delete("schema");
  return { url: url.toString(), schema };
}

export function quoteIdent(name: string) {
  return `"${name.replaceAll('"', '""')}"`;
}

export async function createBackup(source: BackupSource) {
  const { db, dataDir } = source;
  const startedAt = source.now ?? new Date();
  const upload = !source.out && source.destination?.kind === "s3";
  const name = path.basename(defaultArchivePath(dataDir, startedAt));
  const file = path.resolve(source.out ?? (source.destination ? path.join(stagingDir(source.destination), name) : defaultArchivePath(dataDir, startedAt)));
  if (fs.existsSync(file)) throw new BackupRefused(`${file} already exists: name another file (--out)`);
  const partial = `${file}.part`;
  const backupId = source.claimedId ?? crypto.randomUUID();
  const storage = source.s3Bucket ? "s3" : "local";
  if (!(await tableExists(db, "_prisma_migrations"))) {
    throw new BackupRefused("This database has not been set up yet (no migrations applied): there is nothing to back up.");
  }
  // A database the code is newer than (an upgrade not started yet: the moment to back up) may
  // predate the Backup table; the archive is made all the same, only not recorded in it.
  const recorded = await tableExists(db, "Backup");
  const destination = upload && source.destination ? describeDestination(source.destination) : path.dirname(file);
  const fail = async (error: unknown) => {
    if (!recorded) return;
    const message = error instanceof Error ? error.message : String(error);
    await db.prisma.backup.update({ where: { id: backupId }, data: { failedAt: new Date(), error: message } }).catch(() => undefined);
  };
  // Written before the dump, so the archive's database knows of the backup that carries it.
  const row = { startedAt, databaseKind: db.kind, storage, objectCount: 0, objectBytes: 0n, archiveName: path.basename(file), destination };
  if (recorded && source.claimedId) await db.prisma.backup.update({ where: { id: backupId }, data: row });
  else if (recorded) await db.prisma.backup.create({ data: { id: backupId, ...row } });
  try {
    await ensureWritableDir(path.dirname(file));
  } catch (error) {
    await fail(error);
    throw error;
  }
  const work = await fs.promises.mkdtemp(path.join(path.dirname(file), ".backup-"));
  const archive = await ArchiveWriter.create(partial).catch(async (error: unknown) => {
    await fs.promises.rm(work, { recursive: true, force: true });
    await fail(error);
    throw error;
  });
  try {
    const migrations = (
      await db.prisma.$queryRawUnsafe<{ migration_name: string }[]>(
        `SELECT migration_name FROM "_prisma_migrations" WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL ORDER BY migration_name`,
      )
    ).map((row) => row.migration_name);

    // The database first, the objects after: an object a dumped row names was stored before
    // its row was written, so it is on the list made afterwards.
    let database: Manifest["database"];
    if (db.kind === "pglite") {
      if (!db.dumpDataDirWith) throw new Error("This embedded database cannot be dumped");
      // A running server's database is dumped as it stands (no stop needed): decision 035.
      const { dump, read: rows } = await db.dumpDataDirWith((query) => countRows(query, "public"));
      await archive.add(PGLITE_MEMBER, dump.size, Readable.fromWeb(dump.stream() as WebReadableStream<Uint8Array>));
      database = { kind: "pglite", member: PGLITE_MEMBER, migrations, rows };
    } else {
      if (!source.databaseUrl) throw new Error("DATABASE_URL is needed to dump PostgreSQL");
      const target = postgresTarget(source.databaseUrl);
      const dumpFile = path.join(work, "postgres.dump");
      const rows = await pgDump(target.url, target.schema, dumpFile);
      const { size } = await fs.promises.stat(dumpFile);
      await archive.add(POSTGRES_MEMBER, size, fs.createReadStream(dumpFile));
      await fs.promises.rm(dumpFile);
      database = {
        kind: "postgres",
        member: POSTGRES_MEMBER,
        migrations,
        schema: target.schema,
        extensions: await schemaExtensions(target.url, target.schema),
        rows,
      };
    }

    const objects = storage === "s3" ? await addS3KeyList(archive, work) : await addLocalObjects(archive, path.join(dataDir, "objects"));

    const manifest: Manifest = {
      format: FORMAT,
      formatVersion: FORMAT_VERSION,
      appVersion: appVersion(),
      backupId,
      createdAt: startedAt.toISOString(),
      finishedAt: new Date().toISOString(),
      database,
      objects: { storage, ...objects, ...(source.s3Bucket ? { bucket: source.s3Bucket } : {}) },
      members: Object.fromEntries(archive.digests),
    };
    const body = Buffer.from(`${JSON.stringify(manifest, null, 2)}\n`);
    await archive.add(MANIFEST, body.length, body);
    await archive.close();
    // Read back from the disk and checked member by member before it is called written.
    await verifyArchive(partial);
    // Only a complete archive carries the final name.
    await fs.promises.rename(partial, file);
    let location = file;
    if (upload && source.destination?.kind === "s3") {
      try {
        location = `s3://${source.destination.bucket}/${await uploadArchive(file)}`;
      } finally {
        await fs.promises.rm(file, { force: true });
      }
    }
    if (recorded) {
      await db.prisma.backup.update({
        where: { id: backupId },
        data: {
          finishedAt: new Date(),
          objectCount: objects.count,
          objectBytes: BigInt(objects.bytes),
          archiveBytes: BigInt(archive.bytes),
          failedAt: null,
          error: null,
        },
      });
    }
    return { id: backupId, file, location, manifest, archiveBytes: archive.bytes, recorded };
  } catch (error) {
    await archive.abort();
    await fs.promises.rm(partial, { force: true });
    await fail(error);
    throw error;
  } finally {
    await fs.promises.rm(work, { recursive: true, force: true });
  }
}

/** Whether a table of the app's schema (the connection's search path) exists. */
async function tableExists(db: Database, table: string) {
  const [row] = await db.prisma.$queryRawUnsafe<{ present: boolean }[]>(`SELECT to_regclass($1) IS NOT NULL AS present`, quoteIdent(table));
  return Boolean(row?.present);
}

/** Rows per base table of `schema`, in one statement (one snapshot). */
export async function countRows(query: <R>(sql: string) => Promise<R[]>, schema: string): Promise<Record<string, number>> {
  const literal = (text: string) => `'${text.replaceAll("'", "''")}'`;
  const tables = await query<{ name: string }>(
    `SELECT c.relname::text AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = ${literal(schema)} AND c.relkind IN ('r', 'p') AND NOT c.relispartition ORDER BY c.relname`,
  );
  if (tables.length === 0) return {};
  const counts = await query<{ name: string; rows: number }>(
    tables.map(({ name }) => `SELECT ${literal(name)}::text AS name, count(*)::int AS rows FROM ${quoteIdent(schema)}.${quoteIdent(name)}`).join(" UNION ALL "),
  );
  return Object.fromEntries(counts.map((row) => [row.name, Number(row.rows)]).sort(([a], [b]) => String(a).localeCompare(String(b))));
}

/** Every file under the objects directory but the derived ones, as objects/<relative path>. */
export async function* localObjectFiles(objectsDir: string): AsyncGenerator<{ relative: string; file: string }> {
  async function* walk(dir: string, relative: string): AsyncGenerator<{ relative: string; file: string }> {
    let entries: fs.Dirent[];
    try {
      entries = await fs.promises.readdir(dir, { withFileTypes: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return;
      throw error;
    }
    entries.sort((a, b) => a.name.localeCompare(b.name));
    for (const entry of entries) {
      if (!relative && NOT_BACKED_UP.has(entry.name)) continue;
      const childRelative = relative ? `${relative}/${entry.name}` : entry.name;
      const child = path.join(dir, entry.name);
      if (entry.isDirectory()) yield* walk(child, childRelative);
      else if (entry.isFile()) yield { relative: childRelative, file: child };
    }
  }
  yield* walk(objectsDir, "");
}

async function addLocalObjects(archive: ArchiveWriter, objectsDir: string) {
  let count = 0;
  let bytes = 0;
  for await (const { relative, file } of localObjectFiles(objectsDir)) {
    const stat = await fs.promises.stat(file);
    await archive.add(`${OBJECTS_PREFIX}${relative}`, stat.size, fs.createReadStream(file), stat.mtime);
    count += 1;
    bytes += stat.size;
  }
  return { count, bytes };
}

/** The bucket's keys (key, size, ETag), one JSON line each: the bytes stay in the bucket. */
async function addS3KeyList(archive: ArchiveWriter, work: string) {
  const { listKeys } = await import("../s3-store.server.ts");
  const listFile = path.join(work, "keys.jsonl");
  const out = fs.createWriteStream(listFile);
  let count = 0;
  let bytes = 0;
  for await (const object of listKeys()) {
    // Backup archives in the same bucket (decision 035) are not objects of the app.
    if (object.key.startsWith(S3_BACKUP_PREFIX)) continue;
    if (!out.write(`${JSON.stringify(object)}\n`)) await new Promise<void>((resolve) => out.once("drain", () => resolve()));
    count += 1;
    bytes += object.size;
  }
  await new Promise<void>((resolve, reject) => out.end((error?: Error | null) => (error ? reject(error) : resolve())));
  const { size } = await fs.promises.stat(listFile);
  await archive.add(S3_KEYS_MEMBER, size, fs.createReadStream(listFile));
  return { count, bytes };
}

/** Runs a PostgreSQL client program; its error output becomes the error's message. */
export function runPgTool(program: string, args: string[], stdoutFile?: string) {
  return new Promise<void>((resolve, reject) => {
    const child = spawn(program, args, { stdio: ["ignore", stdoutFile ? "pipe" : "ignore", "pipe"] });
    const errors: Buffer[] = [];
    child.stderr!.on("data", (chunk: Buffer) => errors.push(chunk));
    const written = stdoutFile
      ? new Promise<void>((done, failed) => {
          const out = fs.createWriteStream(stdoutFile);
          child.stdout!.pipe(out);
          out.on("finish", done);
          out.on("error", failed);
        })
      : Promise.resolve();
    child.on("error", (error) => reject(new Error(`${program} could not be started (${error.message}): install the PostgreSQL client tools`)));
    child.on("close", (code) => {
      if (code === 0) written.then(resolve, reject);
      else reject(new Error(`${program} failed (exit ${code}): ${Buffer.concat(errors).toString("utf8").trim()}`));
    });
  });
}

/**
 * The app's schema only: pg-boss's job schema is left out (its jobs are transient: the hourly
 * ones are scheduled again on start, and the state a job works on is in the app's own tables).
 * The rows are counted in a transaction whose snapshot pg_dump then uses (--snapshot), so the
 * counts the manifest records are those of the dump, however busy the database is.
 */
async function pgDump(url: string, schema: string, file: string) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY");
    const { rows } = await client.query<{ snapshot: string }>("SELECT pg_export_snapshot() AS snapshot");
    const counts = await countRows(async <R>(sql: string) => (await client.query(sql)).rows as R[], schema);
    await runPgTool(
      "pg_dump",
      ["--format=custom", "--no-owner", "--no-privileges", `--snapshot=${rows[0]!.snapshot}`, `--schema=${quoteIdent(schema)}`, `--dbname=${url}`],
      file,
    );
    await client.query("COMMIT");
    return counts;
  } finally {
    await client.end();
  }
}

/** Extensions installed in the schema (pg_trgm): a schema-only dump does not carry them, the restore creates them first. */
async function schemaExtensions(url: string, schema: string) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ extname: string }>(
      `SELECT e.extname FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace WHERE n.nspname = $1 ORDER BY e.extname`,
      [schema],
    );
    return rows.map((row) => row.extname);
  } finally {
    await client.end();
  }
}
