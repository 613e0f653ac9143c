import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import PgBoss from "pg-boss";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { ArchiveWriter, extractArchive } from "~/lib/backup/archive.server.ts";
import { MANIFEST, type Manifest } from "~/lib/backup/backup.server.ts";
import { verifyArchive } from "~/lib/backup/manifest.server.ts";
import { getDb, prisma } from "~/lib/db.server.ts";
import { resetEnv } from "~/lib/env.server.ts";
import { jobQueue, QUEUES } from "~/lib/jobs.server.ts";
import { backupSlot, runScheduledBackup } from "~/services/admin/backups.server.ts";
import { BACKUP_SINGLETON, backupCheckJob, backupJob } from "~/services/job-workers.server.ts";
import { sendToApp } from "../helpers/app.ts";
import { createUser, sessionCookieFor } from "../helpers/factories.ts";
import { withDatabase } from "../setup/database-template.ts";

// Backups that run themselves (decision 035): the daily job through pg-boss's own workers (two
// of them on this file's database, as two instances), one archive per day whatever the retries,
// the newest backup_keep kept, each archive read back and checked; the restore drill as the
// weekly job and as `npm run restore -- --check`; and what the dashboard says about all of it.

const template = inject("databaseTemplate");
const onPostgres = template.kind === "postgres";
// The worker's own DATABASE_URL (the PostgreSQL pass's): put back after, since the next files of
// this worker read it (isolate: false).
const workerDatabaseUrl = process.env.DATABASE_URL;
const backupDir = fs.mkdtempSync(path.join(os.tmpdir(), "medanim-backups-"));
const bosses: PgBoss[] = [];
let databaseUrl: string | undefined;
let cookie: string;
const origin = new URL(process.env.APP_URL ?? "http://localhost:3000").origin;

const archives = () =>
  fs
    .readdirSync(backupDir)
    .filter((name) => /^medanim-.*\.tar$/.test(name))
    .sort();

/** A second instance: its own pg-boss on the same database, working the backup queues with the server's handlers. */
async function instance() {
  const db = getDb();
  const boss = new PgBoss({ db: db.jobs as PgBoss.Db, schema: db.jobs.schema, supervise: false, schedule: false });
  bosses.push(boss);
  await boss.start();
  await boss.work(QUEUES.backup, { pollingIntervalSeconds: 0.5 }, backupJob);
  await boss.work(QUEUES.backupCheck, { pollingIntervalSeconds: 0.5 }, backupCheckJob);
  return boss;
}

async function settled(boss: PgBoss, queue: string, id: string) {
  let state = "";
  await expect
    .poll(
      async () => {
        state = (await boss.getJobById(queue, id))?.state ?? "missing";
        return ["completed", "failed", "retry"].includes(state);
      },
      { timeout: 60_000, interval: 250 },
    )
    .toBe(true);
  return state;
}

async function dashboardText() {
  // A fresh connection each time: a kept-alive socket the server closes after its idle timeout
  // (the drills between two requests take seconds) can be reused at that moment (ECONNRESET).
  const page = await sendToApp("/admin", { headers: new Headers({ cookie, connection: "close" }) });
  expect(page.status).toBe(200);
  return page.body.toString().replaceAll("<!-- -->", "");
}

function useBackupDir(dir: string) {
  process.env.BACKUP_DIR = dir;
  resetEnv();
}

/** Runs `npm run restore` as an operator does. */
function restoreCli(args: string[]) {
  const result = spawnSync(process.execPath, ["--import", "tsx", "scripts/restore.ts", ...args], {
    env: { ...process.env, LOG_LEVEL: "silent", ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}) },
    encoding: "utf8",
    timeout: 120_000,
  });
  return { status: result.status, output: `${result.stdout}${result.stderr}` };
}

beforeAll(async () => {
  if (onPostgres) {
    const [{ name }] = await prisma.$queryRawUnsafe<{ name: string }[]>("SELECT current_database()::text AS name");
    databaseUrl = withDatabase(template.url, name!);
    process.env.DATABASE_URL = databaseUrl;
  }
  useBackupDir(backupDir);
  cookie = await sessionCookieFor((await createUser({ role: "admin" })).id);
  // The server's queue makes the queues; the two instances below only work them.
  await jobQueue();
}, 60_000);

afterAll(async () => {
  for (const boss of bosses) await boss.stop({ graceful: false, wait: true, close: false });
  delete process.env.BACKUP_DIR;
  if (onPostgres) process.env.DATABASE_URL = workerDatabaseUrl;
  resetEnv();
  fs.rmSync(backupDir, { recursive: true, force: true });
});

describe("the scheduled backup", () => {
  it("fails on a destination it cannot write, with a clear message the dashboard shows", async () => {
    expect(await dashboardText()).toContain("No backup yet");
    const blocker = path.join(backupDir, "a-file");
    fs.writeFileSync(blocker, "not a directory");
    const unwritable = path.join(blocker, "backups");
    useBackupDir(unwritable);
    const a = await instance();
    const id = (await a.send(QUEUES.backup, {}))!;
    // Failed, and queued again for later (the queue retries a failed backup three times).
    expect(await settled(a, QUEUES.backup, id)).toBe("retry");
    await a.deleteJob(QUEUES.backup, id);
    useBackupDir(backupDir);
    const row = await prisma.backup.findUniqueOrThrow({ where: { slot: backupSlot(new Date()) } });
    expect(row.failedAt).toBeInstanceOf(Date);
    expect(row.error).toBe(`${unwritable} is not writable (a part of the path is a file, not a directory)`);
    const html = await dashboardText();
    expect(html).toContain(`Backup failed: ${unwritable} is not writable (a part of the path is a file, not a directory)`);
    expect(html).toContain("No backup yet");
  }, 90_000);

  it("runs once when two instances get the same day's job, and the archive it writes checks out", async () => {
    const [a, b] = [bosses[0]!, await instance()];
    // pg-boss's throttle: the schedule's second send of the day is refused.
    const scheduled = (await a.send(QUEUES.backup, {}, BACKUP_SINGLETON))!;
    expect(scheduled).toBeTruthy();
    expect(await b.send(QUEUES.backup, {}, BACKUP_SINGLETON)).toBeNull();
    // And should more jobs of the same day reach the workers anyway (a retry, a second schedule),
    // the day's claim in the Backup table lets one of them write.
    const again = [(await b.send(QUEUES.backup, {}))!, (await a.send(QUEUES.backup, {}))!];
    for (const id of [scheduled, ...again]) expect(await settled(a, QUEUES.backup, id)).toBe("completed");

    const rows = await prisma.backup.findMany({ where: { slot: backupSlot(new Date()) } });
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ trigger: "schedule", destination: backupDir, failedAt: null, error: null });
    expect(rows[0]!.finishedAt).toBeInstanceOf(Date);
    expect(archives()).toEqual([rows[0]!.archiveName]);

    const file = path.join(backupDir, rows[0]!.archiveName);
    const manifest = await verifyArchive(file);
    expect(Number(rows[0]!.archiveBytes)).toBe(fs.statSync(file).size);
    expect(manifest.database.rows?.User).toBe(await prisma.user.count());
    expect(Object.keys(manifest.database.rows ?? {}).length).toBeGreaterThan(20);

    const html = await dashboardText();
    expect(html).toMatch(/Last backup: [^<]+UTC/);
    expect(html).toContain(file);
    expect(html).not.toContain("Backup failed");
    expect(html).not.toContain("Older than 26 hours");
  }, 120_000);

  it("keeps the number of archives the settings say, deleting only its own older ones", async () => {
    const save = (backupKeep: string) =>
      sendToApp("/admin/settings", {
        method: "POST",
        headers: new Headers({ "Content-Type": "application/x-www-form-urlencoded", Origin: origin, Cookie: cookie, Connection: "close" }),
        body: new URLSearchParams({ platformName: "Medanim", annualPrice: "99", backupKeep }).toString(),
      });
    const bad = await save("0");
    expect(bad.status).toBe(400);
    expect(bad.body.toString()).toContain("Backups kept must be a whole number from 1 to 365");
    expect((await save("2")).status).toBe(302);

    // An archive of `npm run backup` and a file of the owner's, beside the job's.
    fs.writeFileSync(path.join(backupDir, "medanim-20200101T000000Z.tar"), "an operator's archive");
    await prisma.backup.create({
      data: {
        id: crypto.randomUUID(),
        trigger: "command",
        finishedAt: new Date(Date.now() - 90 * 86400_000),
        databaseKind: getDb().kind,
        storage: "local",
        objectCount: 0,
        objectBytes: 0n,
        archiveName: "medanim-20200101T000000Z.tar",
        destination: backupDir,
      },
    });
    fs.writeFileSync(path.join(backupDir, "notes.txt"), "mine");
    const day = (n: number) => new Date(Date.now() + n * 86400_000);
    const written: string[] = [archives().find((name) => name !== "medanim-20200101T000000Z.tar")!];
    for (const n of [1, 2]) {
      await sleep(1100); // archive names are stamped to the second
      const result = await runScheduledBackup({ now: day(n) });
      expect(result.ran).toBe(true);
      written.push(path.basename(result.ran ? result.location : ""));
    }
    // The first scheduled archive went; the two newest and the others' files stay.
    expect(archives()).toEqual(["medanim-20200101T000000Z.tar", ...written.slice(1)].sort());
    expect(fs.existsSync(path.join(backupDir, "notes.txt"))).toBe(true);
    const pruned = await prisma.backup.findFirstOrThrow({ where: { archiveName: written[0] } });
    expect(pruned.prunedAt).toBeInstanceOf(Date);
    // The same day again: nothing is written.
    expect((await runScheduledBackup({ now: day(2) })).ran).toBe(false);
  }, 120_000);
});

describe("the restore drill", () => {
  const newest = () =>
    path.join(
      backupDir,
      archives()
        .filter((name) => !name.startsWith("medanim-2020"))!
        .at(-1)!,
    );

  it("passes on a good archive, from the command and as the weekly job, and the dashboard says so", async () => {
    const ok = restoreCli(["--check", newest()]);
    expect(ok.output).toContain("every member matches its sha256");
    expect(ok.output).toMatch(/Restored into a scratch database: \d+ tables, \d+ rows, every count as the manifest records/);
    expect(ok.output).toContain("Restore drill passed");
    expect(ok.status).toBe(0);

    const a = bosses[0]!;
    const id = (await a.send(QUEUES.backupCheck, {}))!;
    expect(await settled(a, QUEUES.backupCheck, id)).toBe("completed");
    const row = await prisma.backup.findFirstOrThrow({ where: { archiveName: path.basename(newest()) } });
    expect(row).toMatchObject({ checkPassed: true });
    expect(await dashboardText()).toContain("Restore drill passed");
  }, 120_000);

  it("fails on an archive with bytes flipped in one entry: a clear report and a non-zero exit, a warning on the dashboard", async () => {
    const file = newest();
    const bytes = fs.readFileSync(file);
    // A byte of the first member's data (the database): its header is the first 512 bytes.
    bytes[512 + 4096] ^= 0xff;
    fs.writeFileSync(file, bytes);
    const damaged = restoreCli(["--check", file]);
    expect(damaged.output).toMatch(/The archive is damaged: database\/\S+ does not match its sha256/);
    expect(damaged.output).toContain("Restore drill FAILED");
    expect(damaged.status).toBe(1);

    const a = bosses[0]!;
    const id = (await a.send(QUEUES.backupCheck, {}))!;
    expect(await settled(a, QUEUES.backupCheck, id)).toBe("completed");
    const html = await dashboardText();
    expect(html).toContain("Restore drill failed");
    expect(html).toMatch(/The archive is damaged: database\/\S+ does not match its sha256/);
  }, 120_000);

  it("fails when a table's rows differ from the manifest's count, naming the table", async () => {
    // A sound archive whose manifest claims one user more than the dump holds.
    const source = path.join(
      backupDir,
      archives()
        .filter((name) => !name.startsWith("medanim-2020"))
        .at(0)!,
    );
    const work = fs.mkdtempSync(path.join(os.tmpdir(), "medanim-tamper-"));
    const { kept } = await extractArchive(source, work, MANIFEST);
    const manifest = JSON.parse(kept!) as Manifest;
    const users = manifest.database.rows!.User!;
    manifest.database.rows!.User = users + 1;
    const tampered = path.join(work, "tampered.tar");
    const writer = await ArchiveWriter.create(tampered);
    for (const name of Object.keys(manifest.members))
      await writer.add(name, fs.statSync(path.join(work, name)).size, fs.createReadStream(path.join(work, name)));
    const body = Buffer.from(JSON.stringify(manifest));
    await writer.add(MANIFEST, body.length, body);
    await writer.close();

    const result = restoreCli(["--check", tampered]);
    expect(result.output).toContain(`User: ${users + 1} rows in the manifest, ${users} restored`);
    expect(result.output).toContain("Restore drill FAILED");
    expect(result.status).toBe(1);
    fs.rmSync(work, { recursive: true, force: true });
  }, 120_000);
});

describe("the dashboard", () => {
  it("warns when the last good backup is older than 26 hours", async () => {
    const hours = (n: number) => new Date(Date.now() - n * 3600_000);
    await prisma.backup.updateMany({ data: { finishedAt: hours(27), startedAt: hours(27) } });
    expect(await dashboardText()).toContain("Older than 26 hours");
  });
});
