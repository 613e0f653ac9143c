// What the benchmarks share: the processes they start (each in its own process group, stopped
// with its children), a database opened on a data directory, the demo seed, and the tables they
// print. bench/run.ts and bench/load.ts use it.
import { type ChildProcess, spawn } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import path from "node:path";
import zlib from "node:zlib";

export const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), "..");
const tsx = path.join(root, "node_modules/.bin/tsx");

const children: ChildProcess[] = [];

// ---------------------------------------------------------------------------------------------
// Processes

export function start(name: string, args: string[], env: NodeJS.ProcessEnv, cwd = root) {
  // Own process group, so stopping it stops tsx's child too.
  const child = spawn(tsx, args, { cwd, env: { ...process.env, ...env }, detached: true, stdio: ["ignore", "ignore", "pipe"] });
  let stderr = "";
  child.stderr!.on("data", (chunk) => (stderr = (stderr + chunk).slice(-4000)));
  child.on("exit", (code) => {
    if (code && code !== 0 && !(child as { stopping?: boolean }).stopping) console.error(`${name} exited with ${code}\n${stderr}`);
  });
  children.push(child);
  return child;
}

export async function stop(child: ChildProcess) {
  if (child.exitCode !== null || child.signalCode !== null) return;
  (child as { stopping?: boolean }).stopping = true;
  const exited = new Promise((resolve) => child.once("exit", resolve));
  try {
    process.kill(-child.pid!, "SIGTERM");
  } catch {
    return;
  }
  const timer = setTimeout(() => {
    try {
      process.kill(-child.pid!, "SIGKILL");
    } catch {
      // already gone
    }
  }, 30_000);
  await exited;
  clearTimeout(timer);
}

export async function waitFor(url: string, timeoutMs = 120_000) {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    try {
      const res = await get(url);
      if (res.status < 500) return;
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`${url} did not answer within ${timeoutMs / 1000} s`);
}

export type Got = { status: number; headers: http.IncomingHttpHeaders; body: Buffer; wireBytes: number };

/** A GET with `Accept-Encoding: gzip`: the body decompressed, and the bytes on the wire. */
export function get(url: string, headers: Record<string, string> = {}): Promise<Got> {
  return new Promise((resolve, reject) => {
    const req = http.get(url, { headers: { "accept-encoding": "gzip", ...headers } }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => {
        const wire = Buffer.concat(chunks);
        const body = res.headers["content-encoding"] === "gzip" ? zlib.gunzipSync(wire) : wire;
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body, wireBytes: wire.length });
      });
      res.on("error", reject);
    });
    req.on("error", reject);
  });
}

export const secrets = {
  SESSION_SECRET: crypto.randomBytes(24).toString("hex"),
  JWT_SECRET: crypto.randomBytes(24).toString("hex"),
  MFA_ENCRYPTION_KEY: crypto.randomBytes(24).toString("hex"),
};

/**
 * The database in `dataDir`, open for `fn` and closed after. It is also the app's database for
 * that while: code that reaches the shared client (saveObject records each stored file) must
 * write to this one, not open a second PGlite on the same directory whose writes are lost.
 */
export async function withDatabase<T>(dataDir: string, fn: (prisma: import("../app/generated/prisma/client.ts").PrismaClient) => Promise<T>) {
  const { openDatabase, setDb } = await import("../app/lib/db.server.ts");
  const db = openDatabase({ dataDir: path.join(dataDir, "pglite") });
  setDb(db);
  try {
    await db.migrate();
    return await fn(db.prisma);
  } finally {
    setDb(undefined);
    await db.close();
  }
}

export async function seedDemo(dataDir: string) {
  process.env.DATA_DIR = dataDir;
  // The environment is parsed once per process: a second seed (the load test's) names its own directory.
  (await import("../app/lib/env.server.ts")).resetEnv();
  const { seed } = await import("../prisma/seed.ts");
  await withDatabase(dataDir, (prisma) => seed(prisma));
}

/** CPU time (ms) used so far by every process in a process group (Linux /proc; null elsewhere). */
export function groupCpuMs(pgid: number): number | null {
  try {
    const tick = 100; // USER_HZ on Linux
    let total = 0;
    for (const pid of fs.readdirSync("/proc")) {
      if (!/^\d+$/.test(pid)) continue;
      let stat: string;
      try {
        stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
      } catch {
        continue;
      }
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      if (Number(fields[2]) !== pgid) continue; // pgrp
      total += ((Number(fields[11]) + Number(fields[12])) * 1000) / tick; // utime + stime
    }
    return total;
  } catch {
    return null;
  }
}

export const fmt = (n: number, digits = 0) => n.toLocaleString("en-US", { maximumFractionDigits: digits, minimumFractionDigits: digits });

export function table(headers: string[], rows: string[][]) {
  const widths = headers.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join("  ");
  return [line(headers), widths.map((w) => "-".repeat(w)).join("  "), ...rows.map(line)].join("\n");
}

/** Stops every process started here (the caller's `finally`). */
export function stopAll() {
  return Promise.all(children.map(stop));
}
