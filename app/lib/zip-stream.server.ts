// A ZIP archive laid out before a byte of it is read: every entry is stored (method 0; the
// videos inside are compressed already), and its CRC-32 and size are known from the files'
// recorded facts. So the archive's length and every byte's position are known in advance, and
// any range of it can be sent by reading only the files that range covers: a package is
// streamed with a Content-Length, resumed with Range, and never copied whole to disk or memory.
// Written against APPNOTE 6.3.10 (4.3.7 local header, 4.3.12 central directory, 4.3.14-16
// ZIP64 end records, 4.5.3 ZIP64 extra field); archives past 4 GiB use ZIP64 throughout.

export type ZipEntry = { name: string; size: number; crc32: number; modified: Date };

/** One contiguous run of the archive: header bytes written here, or an entry's file data. */
export type ZipPart = { start: number; length: number } & ({ bytes: Buffer } | { entry: number });

export type ZipPlan = { size: number; parts: ZipPart[]; zip64: boolean };

const LOCAL_SIGNATURE = 0x04034b50;
const CENTRAL_SIGNATURE = 0x02014b50;
const EOCD_SIGNATURE = 0x06054b50;
const ZIP64_EOCD_SIGNATURE = 0x06064b50;
const ZIP64_LOCATOR_SIGNATURE = 0x07064b50;
const UTF8_NAMES = 0x0800;
const MAX_32 = 0xffffffff;
/** Unix (3) as the maker, so the external attributes below are read as file modes. */
const MADE_BY_UNIX = 3 << 8;
const REGULAR_FILE_644 = (0o100644 << 16) >>> 0;

export function planZip(entries: readonly ZipEntry[], { forceZip64 = false } = {}): ZipPlan {
  if (entries.length >= 0xffff) throw new Error("A package holds fewer than 65,535 files");
  const plain = layout(entries, false);
  return forceZip64 || plain.size > MAX_32 || entries.some((e) => e.size >= MAX_32) ? layout(entries, true) : plain;
}

function layout(entries: readonly ZipEntry[], zip64: boolean): ZipPlan {
  const parts: ZipPart[] = [];
  let offset = 0;
  const push = (part: { bytes: Buffer } | { entry: number; length: number }) => {
    const length = "bytes" in part ? part.bytes.length : part.length;
    parts.push({ ...part, start: offset, length } as ZipPart);
    offset += length;
  };
  const central: Buffer[] = [];
  entries.forEach((entry, index) => {
    const name = Buffer.from(entry.name, "utf8");
    const headerOffset = offset;
    push({ bytes: localHeader(entry, name, zip64) });
    if (entry.size > 0) push({ entry: index, length: entry.size });
    central.push(centralHeader(entry, name, headerOffset, zip64));
  });
  const directoryStart = offset;
  for (const header of central) push({ bytes: header });
  const directorySize = offset - directoryStart;
  if (zip64) {
    const recordStart = offset;
    push({ bytes: zip64EndRecord(entries.length, directorySize, directoryStart) });
    push({ bytes: zip64Locator(recordStart) });
  }
  push({ bytes: endRecord(entries.length, directorySize, directoryStart, zip64) });
  return { size: offset, parts, zip64 };
}

function dosDateTime(date: Date) {
  const year = Math.max(1980, date.getUTCFullYear());
  return {
    time: (date.getUTCHours() << 11) | (date.getUTCMinutes() << 5) | Math.floor(date.getUTCSeconds() / 2),
    date: ((year - 1980) << 9) | ((date.getUTCMonth() + 1) << 5) | date.getUTCDate(),
  };
}

function localHeader(entry: ZipEntry, name: Buffer, zip64: boolean) {
  const extra = zip64 ? Buffer.alloc(20) : Buffer.alloc(0);
  if (zip64) {
    extra.writeUInt16LE(0x0001, 0);
    extra.writeUInt16LE(16, 2);
    extra.writeBigUInt64LE(BigInt(entry.size), 4);
    extra.writeBigUInt64LE(BigInt(entry.size), 12);
  }
  const header = Buffer.alloc(30);
  const { time, date } = dosDateTime(entry.modified);
  header.writeUInt32LE(LOCAL_SIGNATURE, 0);
  header.writeUInt16LE(zip64 ? 45 : 20, 4);
  header.writeUInt16LE(UTF8_NAMES, 6);
  header.writeUInt16LE(0, 8);
  header.writeUInt16LE(time, 10);
  header.writeUInt16LE(date, 12);
  header.writeUInt32LE(entry.crc32 >>> 0, 14);
  header.writeUInt32LE(zip64 ? MAX_32 : entry.size, 18);
  header.writeUInt32LE(zip64 ? MAX_32 : entry.size, 22);
  header.writeUInt16LE(name.length, 26);
  header.writeUInt16LE(extra.length, 28);
  return Buffer.concat([header, name, extra]);
}

function centralHeader(entry: ZipEntry, name: Buffer, headerOffset: number, zip64: boolean) {
  const extra = zip64 ? Buffer.alloc(28) : Buffer.alloc(0);
  if (zip64) {
    extra.writeUInt16LE(0x0001, 0);
    extra.writeUInt16LE(24, 2);
    extra.writeBigUInt64LE(BigInt(entry.size), 4);
    extra.writeBigUInt64LE(BigInt(entry.size), 12);
    extra.writeBigUInt64LE(BigInt(headerOffset), 20);
  }
  const header = Buffer.alloc(46);
  const { time, date } = dosDateTime(entry.modified);
  header.writeUInt32LE(CENTRAL_SIGNATURE, 0);
  header.writeUInt16LE(MADE_BY_UNIX | (zip64 ? 45 : 20), 4);
  header.writeUInt16LE(zip64 ? 45 : 20, 6);
  header.writeUInt16LE(UTF8_NAMES, 8);
  header.writeUInt16LE(0, 10);
  header.writeUInt16LE(time, 12);
  header.writeUInt16LE(date, 14);
  header.writeUInt32LE(entry.crc32 >>> 0, 16);
  header.writeUInt32LE(zip64 ? MAX_32 : entry.size, 20);
  header.writeUInt32LE(zip64 ? MAX_32 : entry.size, 24);
  header.writeUInt16LE(name.length, 28);
  header.writeUInt16LE(extra.length, 30);
  header.writeUInt16LE(0, 32);
  header.writeUInt16LE(0, 34);
  header.writeUInt16LE(0, 36);
  header.writeUInt32LE(REGULAR_FILE_644, 38);
  header.writeUInt32LE(zip64 ? MAX_32 : headerOffset, 42);
  return Buffer.concat([header, name, extra]);
}

function zip64EndRecord(count: number, directorySize: number, directoryStart: number) {
  const record = Buffer.alloc(56);
  record.writeUInt32LE(ZIP64_EOCD_SIGNATURE, 0);
  record.writeBigUInt64LE(44n, 4);
  record.writeUInt16LE(MADE_BY_UNIX | 45, 12);
  record.writeUInt16LE(45, 14);
  record.writeUInt32LE(0, 16);
  record.writeUInt32LE(0, 20);
  record.writeBigUInt64LE(BigInt(count), 24);
  record.writeBigUInt64LE(BigInt(count), 32);
  record.writeBigUInt64LE(BigInt(directorySize), 40);
  record.writeBigUInt64LE(BigInt(directoryStart), 48);
  return record;
}

function zip64Locator(recordStart: number) {
  const locator = Buffer.alloc(20);
  locator.writeUInt32LE(ZIP64_LOCATOR_SIGNATURE, 0);
  locator.writeUInt32LE(0, 4);
  locator.writeBigUInt64LE(BigInt(recordStart), 8);
  locator.writeUInt32LE(1, 16);
  return locator;
}

function endRecord(count: number, directorySize: number, directoryStart: number, zip64: boolean) {
  const record = Buffer.alloc(22);
  record.writeUInt32LE(EOCD_SIGNATURE, 0);
  record.writeUInt16LE(0, 4);
  record.writeUInt16LE(0, 6);
  record.writeUInt16LE(zip64 ? 0xffff : count, 8);
  record.writeUInt16LE(zip64 ? 0xffff : count, 10);
  record.writeUInt32LE(zip64 ? MAX_32 : directorySize, 12);
  record.writeUInt32LE(zip64 ? MAX_32 : directoryStart, 16);
  record.writeUInt16LE(0, 20);
  return record;
}

/** Reads bytes `start`..`end` (inclusive) of entry `index`'s file. */
export type OpenEntry = (index: number, start: number, end: number) => Chunks | Promise<Chunks>;
type Chunks = AsyncIterable<Buffer | Uint8Array> | Iterable<Buffer | Uint8Array>;

/** Bytes `start`..`end` (inclusive) of the archive, reading only the entries they cover. */
export async function* zipRange(plan: ZipPlan, start: number, end: number, open: OpenEntry): AsyncGenerator<Buffer> {
  for (const part of plan.parts) {
    const partEnd = part.start + part.length - 1;
    if (partEnd < start) continue;
    if (part.start > end) break;
    const from = Math.max(start, part.start) - part.start;
    const to = Math.min(end, partEnd) - part.start;
    if ("bytes" in part) {
      yield part.bytes.subarray(from, to + 1);
      continue;
    }
    let sent = 0;
    for await (const chunk of await open(part.entry, from, to)) {
      const buffer = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
      sent += buffer.length;
      yield buffer;
    }
    // A file shorter than its recorded size would shift every byte after it: stop rather than send a broken archive.
    if (sent !== to - from + 1) throw new Error(`entry ${plan.parts.indexOf(part)} gave ${sent} bytes, expected ${to - from + 1}`);
  }
}
