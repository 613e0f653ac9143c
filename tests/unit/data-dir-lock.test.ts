import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, expect, test } from "vitest";
import { DataDirInUseError, lockDataDir } from "~/lib/pglite.server.ts";

// The embedded database's lock file on its own (isolated on purpose: no database is opened;
// tests/integration/backup-restore.test.ts covers the lock between real processes).

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});
const dataDir = () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "medanim-lock-"));
  dirs.push(dir);
  return path.join(dir, "pglite");
};

test("a second claim in the same process is refused until the first is released", () => {
  const dir = dataDir();
  const release = lockDataDir(dir);
  expect(() => lockDataDir(dir)).toThrow(DataDirInUseError);
  release();
  expect(fs.existsSync(`${dir}.lock`)).toBe(false);
  lockDataDir(dir)();
});

test("a lock left with this process's own pid by an earlier run (a container's pid 1) is taken over", () => {
  const dir = dataDir();
  fs.writeFileSync(`${dir}.lock`, String(process.pid));
  const release = lockDataDir(dir);
  expect(fs.readFileSync(`${dir}.lock`, "utf8")).toBe(String(process.pid));
  release();
});

test("a lock of a process that is gone is taken over; a live one is refused", () => {
  const dir = dataDir();
  fs.writeFileSync(`${dir}.lock`, "999999999");
  lockDataDir(dir)();
  fs.writeFileSync(`${dir}.lock`, String(process.ppid));
  expect(() => lockDataDir(dir)).toThrow(/in use by process/);
});
