import { execFile } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getApiDocument } from "~/routes/api/openapi.server.ts";

// The generated OpenAPI document passes Redocly's recommended lint rules (redocly.yaml says which
// are off, and why) with no error. The CLI runs as a client would run it, on the document written
// to a file; it stays offline: telemetry off (here and in redocly.yaml), no update check.

const run = promisify(execFile);
const CLI = path.resolve("node_modules/@redocly/cli/bin/cli.js");

type Problem = { ruleId: string; severity: "error" | "warn"; message: string; location: { pointer?: string }[] };
type LintReport = { totals: { errors: number; warnings: number; ignored: number }; problems: Problem[] };

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), "medanim-openapi-"));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function lint(file: string): Promise<LintReport> {
  const env = { ...process.env, REDOCLY_TELEMETRY: "off", REDOCLY_SUPPRESS_UPDATE_NOTICE: "true", NO_COLOR: "1" };
  const args = [CLI, "lint", file, "--config", path.resolve("redocly.yaml"), "--format", "json"];
  // The CLI exits 1 when it finds an error; its report is on stdout either way.
  const output = await run(process.execPath, args, { env, maxBuffer: 20 * 1024 * 1024 }).catch((failure: { stdout?: string; stderr?: string }) => {
    if (!failure.stdout) throw new Error(`redocly lint did not run: ${failure.stderr}`);
    return { stdout: failure.stdout };
  });
  return JSON.parse(output.stdout) as LintReport;
}

const describeProblem = (p: Problem) => `${p.severity} ${p.ruleId} at ${p.location.map((l) => l.pointer).join(", ")}: ${p.message}`;

describe("redocly lint (recommended rules) of the OpenAPI document", () => {
  it("finds no error", async () => {
    const file = path.join(dir, "openapi.json");
    await writeFile(file, JSON.stringify(await getApiDocument()));
    const report = await lint(file);
    const errors = report.problems.filter((p) => p.severity === "error").map(describeProblem);
    expect(errors).toEqual([]);
    expect(report.totals.errors).toBe(0);
    // Warnings do not fail the suite (there are none today); they are shown when there are.
    const warnings = report.problems.filter((p) => p.severity === "warn").map(describeProblem);
    if (warnings.length) console.warn(`redocly lint warnings:\n${warnings.join("\n")}`);
  }, 60_000);

  it("fails a document that breaks a rule (the lint really runs)", async () => {
    const file = path.join(dir, "broken.json");
    const document = structuredClone(await getApiDocument()) as { paths: Record<string, Record<string, { security?: unknown }>> };
    delete document.paths["/api/categories"]!.get!.security;
    await writeFile(file, JSON.stringify(document));
    const report = await lint(file);
    expect(report.problems.map((p) => `${p.severity} ${p.ruleId}`)).toContain("error security-defined");
  }, 60_000);
});
