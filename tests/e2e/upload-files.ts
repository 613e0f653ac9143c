import { execFileSync } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { test } from "@playwright/test";
import { zipStored } from "../../prisma/seed-data/zip.ts";
import { DATA_DIR } from "./helpers.ts";

// Real files of a chosen size for the upload specs (admin-uploads.spec.ts and its js-only part),
// made from one ffmpeg frame and one second of video per file of tests, and the search of the
// server's object store for what is left of one.

export const MB = 1024 * 1024;
export const unique = () => crypto.randomBytes(3).toString("hex");

export type Upload = { path: string; name: string; bytes: Buffer };

/** Registers the test file's hooks (its base files are made once, removed at its end) and returns the generators. */
export function uploadFiles() {
  let dir: string;
  let baseJpeg: Buffer;
  let baseMp4: Buffer;

  test.beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "medanim-uploads-"));
    const ffmpeg = (...args: string[]) => execFileSync("ffmpeg", ["-v", "error", "-y", "-f", "lavfi", ...args]);
    ffmpeg("-i", "testsrc=size=320x180", "-frames:v", "1", path.join(dir, "base.jpg"));
    ffmpeg("-i", "testsrc=size=320x180:rate=25", "-t", "1", "-pix_fmt", "yuv420p", "-c:v", "libx264", path.join(dir, "base.mp4"));
    baseJpeg = fs.readFileSync(path.join(dir, "base.jpg"));
    baseMp4 = fs.readFileSync(path.join(dir, "base.mp4"));
  });

  test.afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  function write(name: string, bytes: Buffer): Upload {
    const file = path.join(dir, `${unique()}-${name}`);
    fs.writeFileSync(file, bytes);
    return { path: file, name: path.basename(file), bytes };
  }

  /** A real JPEG with a random comment first (so its opening bytes are its own), padded after its end. */
  function jpegOfSize(name: string, size: number) {
    const comment = Buffer.concat([Buffer.from([0xff, 0xfe, 0x00, 0x42]), crypto.randomBytes(64)]);
    const image = Buffer.concat([baseJpeg.subarray(0, 2), comment, baseJpeg.subarray(2)]);
    return write(name, Buffer.concat([image, crypto.randomBytes(size - image.length)]));
  }

  /** A real MP4 followed by a top-level `free` box of random bytes: players skip it. */
  function mp4OfSize(name: string, size: number) {
    const header = Buffer.alloc(8);
    header.writeUInt32BE(size - baseMp4.length);
    header.write("free", 4, "latin1");
    return write(name, Buffer.concat([baseMp4, header, crypto.randomBytes(size - baseMp4.length - 8)]));
  }

  /** A real zip (the seed's own writer) holding one stored file of random bytes, about `size` long. */
  function zipOfSize(name: string, size: number) {
    return write(name, zipStored([{ name: "animation.bin", content: crypto.randomBytes(size - 128) }]));
  }

  /**
   * Files under the server's object store (temporary parts included) holding the start of this
   * upload: the first megabyte, or as much of it as the file has. Tests in other workers store
   * files too, so the store is searched for this upload's bytes rather than counted.
   */
  function storedCopies(upload: Upload) {
    const found: string[] = [];
    const visit = (folder: string) => {
      for (const entry of fs.readdirSync(folder, { withFileTypes: true })) {
        const file = path.join(folder, entry.name);
        if (entry.isDirectory()) visit(file);
        else if (entry.isFile() && startsLike(file, upload.bytes)) found.push(file);
      }
    };
    const objects = path.resolve(DATA_DIR, "objects");
    if (fs.existsSync(objects)) visit(objects);
    return found;
  }

  function startsLike(file: string, bytes: Buffer) {
    let fd: number;
    try {
      fd = fs.openSync(file, "r");
    } catch {
      return false; // a temporary part renamed or removed meanwhile
    }
    try {
      const head = Buffer.alloc(Math.min(MB, bytes.length));
      const read = fs.readSync(fd, head, 0, head.length, 0);
      return read > 0 && head.subarray(0, read).equals(bytes.subarray(0, read));
    } finally {
      fs.closeSync(fd);
    }
  }

  return { jpegOfSize, mp4OfSize, zipOfSize, storedCopies };
}
