import { spawnSync } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { setupServer } from "msw/node";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { extractArchive } from "~/lib/backup/archive.server.ts";
import { createBackup, MANIFEST, S3_KEYS_MEMBER } from "~/lib/backup/backup.server.ts";
import { restoreBackup } from "~/lib/backup/restore.server.ts";
import { prisma } from "~/lib/db.server.ts";
import { backupSlot, pruneScheduledBackups, runBackupDrill, runScheduledBackup } from "~/services/admin/backups.server.ts";
import { getDb, openDatabase } from "~/lib/db.server.ts";
import { getEnv, resetEnv } from "~/lib/env.server.ts";
import { saveObject } from "~/lib/storage.server.ts";
import { createS3Mock, s3MockEnv } from "../mocks/s3.ts";
import { adminQuery, withDatabase } from "../setup/database-template.ts";

// S3 mode: the bytes stay in the bucket, the archive lists its keys, and a restore names the
// keys the bucket no longer has. The bucket is S3's HTTP edge answered by msw in this process,
// so the backup and restore are called in-process here (the same functions the commands call;
// tests/integration/backup-restore.test.ts runs the commands themselves).

const ENDPOINT = "https://s3.test.local";
const BUCKET = "medanim-backup-test";
const s3 = createS3Mock(ENDPOINT, BUCKET);
const mockServer = setupServer(...s3.handlers);
const S3_ENV = s3MockEnv(ENDPOINT, BUCKET);

const template = inject("databaseTemplate");
const restoreDir = fs.mkdtempSync(path.join(os.tmpdir(), "medanim-restore-"));
let sourceUrl: string | undefined;
// The worker's own DATABASE_URL (the PostgreSQL pass's): put back after, since the next files of
// this worker read it (isolate: false).
const workerDatabaseUrl = process.env.DATABASE_URL;
let restoreUrl: string | undefined;
let restoreDatabase: string | undefined;

beforeAll(async () => {
  Object.assign(process.env, S3_ENV);
  resetEnv();
  mockServer.listen({ onUnhandledRequest: "bypass" });
  if (template.kind === "postgres") {
    const [{ name }] = await getDb().prisma.$queryRawUnsafe<{ name: string }[]>("SELECT current_database()::text AS name");
    sourceUrl = withDatabase(template.url, name!);
    restoreDatabase = `${name}_restored`;
    await adminQuery(template.url, `CREATE DATABASE "${restoreDatabase}"`);
    restoreUrl = withDatabase(template.url, restoreDatabase);
  }
});

afterAll(async () => {
  mockServer.close();
  for (const name of Object.keys(S3_ENV)) delete process.env[name];
  resetEnv();
  if (template.kind === "postgres" && restoreDatabase) await adminQuery(template.url, `DROP DATABASE IF EXISTS "${restoreDatabase}" WITH (FORCE)`);
  fs.rmSync(restoreDir, { recursive: true, force: true });
});

describe("backup and restore with S3 storage", () => {
  it("lists the bucket's keys instead of the bytes, and a restore names the keys missing from the bucket", async () => {
    const sizes = [1000, 25_000, 3];
    const stored = [];
    for (const size of sizes) stored.push(await saveObject({ body: crypto.randomBytes(size), contentType: "image/jpeg", kind: "cover" }));
    const out = path.join(getEnv().DATA_DIR, "backups", "s3.tar");

    const { manifest } = await createBackup({ db: getDb(), dataDir: getEnv().DATA_DIR, databaseUrl: sourceUrl, s3Bucket: BUCKET, out });
    expect(manifest.objects).toEqual({ storage: "s3", count: 3, bytes: 26_003, bucket: BUCKET });
    const members = spawnSync("tar", ["-tf", out], { encoding: "utf8" }).stdout.trim().split("\n");
    expect(members.filter((name) => name.startsWith("objects"))).toEqual(["objects.s3.jsonl"]);

    const lost = `uploads/${stored[1]!.id}`;
    s3.objects.delete(lost);
    const result = await restoreBackup({ archive: out, dataDir: restoreDir, databaseUrl: restoreUrl, s3Bucket: BUCKET });
    expect(result.missingKeys).toEqual([lost]);

    const restored = restoreUrl ? openDatabase({ url: restoreUrl }) : openDatabase({ dataDir: path.join(restoreDir, "pglite") });
    try {
      const ids = (await restored.prisma.storedObject.findMany({ select: { id: true } })).map((row) => row.id);
      expect(ids.sort()).toEqual(stored.map((object) => object.id).sort());
      const [backup] = await restored.prisma.backup.findMany();
      expect(backup).toMatchObject({ storage: "s3", objectCount: 3 });
      expect(backup!.finishedAt).toBeInstanceOf(Date);
    } finally {
      await restored.close();
    }
  }, 120_000);

  it("the scheduled backup goes to the bucket under backups/, read back there, listed nowhere else, pruned and drilled from there", async () => {
    if (sourceUrl) process.env.DATABASE_URL = sourceUrl;
    resetEnv();
    try {
      const day = new Date(Date.now() + 5 * 86400_000);
      const result = await runScheduledBackup({ now: day });
      if (!result.ran) throw new Error("the day's backup did not run");
      const key = `backups/${path.basename(result.location)}`;
      expect(result.location).toBe(`s3://${BUCKET}/${key}`);
      expect(s3.objects.get(key)?.body.length).toBe(result.archiveBytes);
      // Only the bucket keeps it: the copy written and checked on local disk is gone.
      expect(fs.readdirSync(path.join(getEnv().DATA_DIR, "backups")).filter((name) => name.endsWith(".tar") && name !== "s3.tar")).toEqual([]);
      const row = await prisma.backup.findUniqueOrThrow({ where: { slot: backupSlot(day) } });
      expect(row).toMatchObject({ destination: `s3://${BUCKET}/backups/`, failedAt: null });

      // The drill downloads it and restores it into a scratch database.
      const drill = await runBackupDrill();
      expect(drill).toMatchObject({ archive: result.location, passed: true });
      expect(drill!.report).toContain("every count as the manifest records");

      // The next backup's list of the bucket's objects leaves the archives out.
      const next = await runScheduledBackup({ now: new Date(day.getTime() + 86400_000) });
      if (!next.ran) throw new Error("the next day's backup did not run");
      const copy = path.join(restoreDir, "next.tar");
      fs.writeFileSync(copy, s3.objects.get(`backups/${path.basename(next.location)}`)!.body);
      const unpacked = fs.mkdtempSync(path.join(restoreDir, "next-"));
      await extractArchive(copy, unpacked, MANIFEST);
      const listed = fs.readFileSync(path.join(unpacked, S3_KEYS_MEMBER), "utf8").trim().split("\n");
      expect(listed.length).toBeGreaterThan(0);
      expect(listed.filter((line) => line.includes('"backups/'))).toEqual([]);
      expect(s3.objects.has(key)).toBe(true);
      expect(await pruneScheduledBackups(1)).toBe(1);
      expect(s3.objects.has(key)).toBe(false);
      expect(s3.objects.has(`backups/${path.basename(next.location)}`)).toBe(true);
    } finally {
      if (workerDatabaseUrl === undefined) delete process.env.DATABASE_URL;
      else process.env.DATABASE_URL = workerDatabaseUrl;
      resetEnv();
    }
  }, 120_000);
});
