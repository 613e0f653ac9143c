import { execFileSync } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import zlib from "node:zlib";
import { afterAll, describe, expect, it } from "vitest";
import { planZip, zipRange, type ZipEntry } from "~/lib/zip-stream.server.ts";

// The archive layout on its own (a pure module): what Info-ZIP's unzip and Python's zipfile
// make of it, plain and ZIP64, whole and reassembled from ranges.

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "medanim-zip-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const files = [
  { name: "rhinoplasty/video/rhinoplasty-720p.mp4", data: crypto.randomBytes(70_000) },
  { name: "rhinoplasty/captions/rhinoplasty.en.vtt", data: Buffer.from("WEBVTT\n\n00:00.000 --> 00:01.000\nHello\n") },
  { name: "rhinoplasty/empty.txt", data: Buffer.alloc(0) },
  { name: "rhinoplasty/Ünïcode – name.txt", data: Buffer.from("ü") },
];
const entries: ZipEntry[] = files.map((f) => ({ name: f.name, size: f.data.length, crc32: zlib.crc32(f.data), modified: new Date("2026-11-29T10:20:30Z") }));

async function write(plan: ReturnType<typeof planZip>, start: number, end: number) {
  const chunks: Buffer[] = [];
  for await (const chunk of zipRange(plan, start, end, async function* (index, from, to) {
    yield files[index]!.data.subarray(from, to + 1);
  }))
    chunks.push(chunk);
  return Buffer.concat(chunks);
}

describe.each([false, true])("a stored archive (ZIP64 %s)", (forceZip64) => {
  const plan = planZip(entries, { forceZip64 });

  it("is read back whole by unzip and Python's zipfile, names, bytes and dates intact", async () => {
    const archive = await write(plan, 0, plan.size - 1);
    expect(archive.length).toBe(plan.size);
    const file = path.join(dir, `plain-${forceZip64}.zip`);
    fs.writeFileSync(file, archive);
    expect(execFileSync("unzip", ["-tq", file], { encoding: "utf8" })).toMatch(/No errors detected/);
    const listing = execFileSync(
      "python3",
      [
        "-c",
        "import sys,zipfile,json;z=zipfile.ZipFile(sys.argv[1]);print(json.dumps([[i.filename,i.file_size,i.date_time[:5],z.read(i).hex()] for i in z.infolist()]))",
        file,
      ],
      { encoding: "utf8" },
    );
    expect(JSON.parse(listing)).toEqual(files.map((f) => [f.name, f.data.length, [2026, 11, 29, 10, 20], f.data.toString("hex")]));
  });

  it("gives the same bytes when fetched in ranges that cut headers and files anywhere", async () => {
    const whole = await write(plan, 0, plan.size - 1);
    const cuts = [0, 17, 29, 30, 1000, 69_999, 70_100, plan.size - 30, plan.size - 1];
    const pieces: Buffer[] = [];
    let start = 0;
    for (const cut of [...cuts.slice(1), plan.size - 1]) {
      if (cut < start) continue;
      pieces.push(await write(plan, start, cut));
      start = cut + 1;
    }
    expect(Buffer.concat(pieces).equals(whole)).toBe(true);
  });
});

it("stops rather than send a file shorter than its recorded size", async () => {
  const plan = planZip(entries);
  const short = zipRange(plan, 0, plan.size - 1, async function* (index, from, to) {
    yield files[index]!.data.subarray(from, Math.max(from, to - 1));
  });
  await expect(async () => {
    for await (const _ of short);
  }).rejects.toThrow(/expected/);
});
