import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "medanim-pglite-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

/** Starts the child and resolves when it has the database open and has written to it. */
function startChild(timeoutMs = 40_000) {
  const child = spawn(process.execPath, ["--import", "tsx", "tests/helpers/pglite-child.ts", dir], { stdio: ["ignore", "pipe", "pipe"] });
  const ready = new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error("the database did not open in time")), timeoutMs);
    let out = "";
    child.stdout.on("data", (chunk: Buffer) => {
      out += chunk.toString();
      const line = out.match(/READY (\d+)/);
      if (line) {
        clearTimeout(timer);
        resolve(line[1]!);
      }
    });
    child.on("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`child exited early with ${code}`));
    });
  });
  return { child, ready };
}

describe("embedded database on a directory", () => {
  // PGlite left dirty by a killed process used to make the next open hang forever
  // (TOOLCHAIN.md): a crash must not stop the next start.
  it("opens again promptly after the process holding it was killed", async () => {
    if (!fs.existsSync(path.join(dir, "PG_VERSION"))) {
      const first = startChild();
      await first.ready;
      first.child.kill("SIGKILL");
      await new Promise((resolve) => first.child.once("exit", resolve));
    }
    const started = Date.now();
    const second = startChild();
    expect(await second.ready).toBe("1");
    expect(Date.now() - started).toBeLessThan(30_000);
    second.child.kill("SIGKILL");
    await new Promise((resolve) => second.child.once("exit", resolve));
  }, 90_000);

  it("closes cleanly on SIGTERM and keeps the data", async () => {
    const run = startChild();
    expect(await run.ready).toBe("1");
    const exited = new Promise<number | null>((resolve) => run.child.once("exit", resolve));
    run.child.kill("SIGTERM");
    expect(await exited).toBe(0);
    const again = startChild();
    expect(await again.ready).toBe("1");
    again.child.kill("SIGTERM");
    await new Promise((resolve) => again.child.once("exit", resolve));
  }, 90_000);
});
