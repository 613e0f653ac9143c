import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { Readable, Transform } from "node:stream";
import { Header, Parser, Pax, type ReadEntry } from "tar";

// A backup archive is a plain POSIX tar (readable with `tar -tvf`), written and read one member
// at a time: nothing holds more than a chunk of a member in memory. Each member's sha256 is
// taken while its bytes pass, so the manifest (the last member) can list them all in one pass.

const BLOCK = 512;

export type MemberDigest = { size: number; sha256: string };

/** Writes members one after the other to a file. */
export class ArchiveWriter {
  readonly digests = new Map<string, MemberDigest>();
  #handle: fs.promises.FileHandle;
  #bytes = 0;

  private constructor(handle: fs.promises.FileHandle) {
    this.#handle = handle;
  }

  static async create(file: string) {
    await fs.promises.mkdir(path.dirname(file), { recursive: true });
    return new ArchiveWriter(await fs.promises.open(file, "wx", 0o600));
  }

  get bytes() {
    return this.#bytes;
  }

  async #write(chunk: Buffer) {
    await this.#handle.write(chunk);
    this.#bytes += chunk.length;
  }

  /** Adds one member of exactly `size` bytes; a source that gives more or fewer fails the backup. */
  async add(name: string, size: number, source: Readable | Buffer, mtime = new Date()): Promise<MemberDigest> {
    if (this.digests.has(name)) throw new Error(`Member ${name} is already in the archive`);
    const fields = { path: name, mode: 0o600, uid: 0, gid: 0, size, mtime, type: "File" as const };
    const header = new Header(fields);
    const block = Buffer.alloc(BLOCK);
    // Long names (or sizes past ustar's 8 GB) go in a pax extended header first.
    if (header.encode(block, 0)) await this.#write(new Pax(fields).encode());
    await this.#write(block);
    const hash = crypto.createHash("sha256");
    let written = 0;
    for await (const chunk of Buffer.isBuffer(source) ? [source] : source) {
      const bytes = chunk as Buffer;
      written += bytes.length;
      if (written > size) break;
      hash.update(bytes);
      await this.#write(bytes);
    }
    if (written !== size) throw new Error(`Member ${name} changed while it was archived (expected ${size} bytes, read ${written})`);
    const padding = (BLOCK - (size % BLOCK)) % BLOCK;
    if (padding) await this.#write(Buffer.alloc(padding));
    const digest = { size, sha256: hash.digest("hex") };
    this.digests.set(name, digest);
    return digest;
  }

  /** Ends the archive (two zero blocks) and flushes it to disk. */
  async close() {
    await this.#write(Buffer.alloc(BLOCK * 2));
    await this.#handle.sync();
    await this.#handle.close();
  }

  async abort() {
    await this.#handle.close().catch(() => undefined);
  }
}

/** Member names a backup writes: nothing absolute, nothing climbing out of the target. */
export function isSafeMemberName(name: string) {
  if (!name || name.startsWith("/") || name.includes("\\") || name.includes("\0")) return false;
  return name.split("/").every((part) => part !== "" && part !== "." && part !== "..");
}

export class ArchiveError extends Error {}

/**
 * Reads an archive into `dir`: every file member to dir/<name>, with its size and sha256, and
 * the member named `keep` (the manifest) returned as text instead. Refuses links, devices and
 * unsafe names; a damaged header fails (strict parsing). With `dir` null the members are only
 * measured, nothing is written: a check of an archive just written.
 */
export async function extractArchive(file: string, dir: string | null, keep: string) {
  const digests = new Map<string, MemberDigest>();
  const writes: Promise<void>[] = [];
  let kept: string | null = null;
  await new Promise<void>((resolve, reject) => {
    const fail = (error: unknown) => reject(error instanceof Error ? new ArchiveError(error.message) : new ArchiveError(String(error)));
    const parser = new Parser({
      strict: true,
      onReadEntry(entry: ReadEntry) {
        const name = entry.path;
        if (entry.type !== "File" || !isSafeMemberName(name) || digests.has(name)) {
          entry.resume();
          fail(`The archive holds a member a backup never writes: ${entry.type} ${JSON.stringify(name)}`);
          return;
        }
        const hash = crypto.createHash("sha256");
        const record = { size: 0, sha256: "" };
        digests.set(name, record);
        // One consumer per entry: a second 'data' listener beside a pipe would miss what the
        // first one flushed (minipass streams emit buffered data as soon as one is attached).
        const measure = new Transform({
          transform(chunk: Buffer, _encoding, callback) {
            hash.update(chunk);
            record.size += chunk.length;
            callback(null, chunk);
          },
        });
        if (name === keep) {
          const chunks: Buffer[] = [];
          measure.on("data", (chunk: Buffer) => chunks.push(chunk));
          writes.push(
            new Promise<void>((done) =>
              measure.on("end", () => {
                record.sha256 = hash.digest("hex");
                kept = Buffer.concat(chunks).toString("utf8");
                done();
              }),
            ),
          );
          entry.pipe(measure);
          return;
        }
        if (dir === null) {
          writes.push(
            new Promise<void>((done) =>
              measure.on("end", () => {
                record.sha256 = hash.digest("hex");
                done();
              }),
            ),
          );
          entry.pipe(measure).resume();
          return;
        }
        const target = path.join(dir, name);
        fs.mkdirSync(path.dirname(target), { recursive: true });
        const out = fs.createWriteStream(target, { flags: "wx" });
        writes.push(
          new Promise<void>((done, failed) => {
            out.on("finish", () => {
              record.sha256 = hash.digest("hex");
              done();
            });
            out.on("error", failed);
          }),
        );
        entry.pipe(measure).pipe(out);
      },
    });
    parser.on("error", fail);
    parser.on("warn", (_code: string, message: string | Error) => fail(message instanceof Error ? message.message : message));
    parser.on("end", () => resolve());
    const input = fs.createReadStream(file);
    input.on("error", fail);
    input.pipe(parser);
  });
  await Promise.all(writes);
  return { digests, kept: kept as string | null };
}
