// The names inside a ZIP archive, read from its central directory at the end of the file: a
// download package of several gigabytes is never read whole nor extracted (APPNOTE 6.3.10,
// sections 4.3.12 to 4.3.16; ZIP64 for archives past 4 GB or 65,535 entries).

const EOCD_SIGNATURE = 0x06054b50;
const ZIP64_LOCATOR_SIGNATURE = 0x07064b50;
const ZIP64_EOCD_SIGNATURE = 0x06064b50;
const CENTRAL_SIGNATURE = 0x02014b50;
const EOCD_SIZE = 22;
/** The end record may be followed by a comment of up to 65,535 bytes; most archives have none. */
const MAX_TAIL = EOCD_SIZE + 0xffff;
const FIRST_TAIL = 4096;
/** A package holds a handful of files; a directory this large is not one we should trust. */
const MAX_DIRECTORY_BYTES = 16 * 1024 * 1024;

export const NOT_A_ZIP = "The file is not a ZIP archive (no central directory found)";

/** Reads `length` bytes from `start` of the archive. */
export type ReadAt = (start: number, length: number) => Promise<Buffer>;

/** Every entry's name, in directory order (folders end with "/"). */
export async function zipEntryNames(size: number, readAt: ReadAt): Promise<string[]> {
  let tail = await readTail(size, FIRST_TAIL, readAt);
  let eocd = findEndRecord(tail);
  // A long archive comment: look again as far back as a comment can reach.
  if (eocd < 0 && size > FIRST_TAIL) {
    tail = await readTail(size, MAX_TAIL, readAt);
    eocd = findEndRecord(tail);
  }
  if (eocd < 0) throw new Error(NOT_A_ZIP);
  let entries = tail.readUInt16LE(eocd + 10);
  let directorySize = tail.readUInt32LE(eocd + 12);
  let directoryOffset = tail.readUInt32LE(eocd + 16);
  if (entries === 0xffff || directorySize === 0xffffffff || directoryOffset === 0xffffffff) {
    const locator = eocd - 20;
    if (locator < 0 || tail.readUInt32LE(locator) !== ZIP64_LOCATOR_SIGNATURE) throw new Error(NOT_A_ZIP);
    const record = await readAt(Number(tail.readBigUInt64LE(locator + 8)), 56);
    if (record.length < 56 || record.readUInt32LE(0) !== ZIP64_EOCD_SIGNATURE) throw new Error(NOT_A_ZIP);
    entries = Number(record.readBigUInt64LE(32));
    directorySize = Number(record.readBigUInt64LE(40));
    directoryOffset = Number(record.readBigUInt64LE(48));
  }
  if (directorySize > MAX_DIRECTORY_BYTES || directoryOffset + directorySize > size) throw new Error(NOT_A_ZIP);
  const directory = await readAt(directoryOffset, directorySize);
  const names: string[] = [];
  let at = 0;
  for (let i = 0; i < entries; i++) {
    if (at + 46 > directory.length || directory.readUInt32LE(at) !== CENTRAL_SIGNATURE) throw new Error(NOT_A_ZIP);
    const nameLength = directory.readUInt16LE(at + 28);
    const extraLength = directory.readUInt16LE(at + 30);
    const commentLength = directory.readUInt16LE(at + 32);
    names.push(directory.toString("utf8", at + 46, at + 46 + nameLength));
    at += 46 + nameLength + extraLength + commentLength;
  }
  return names;
}

function readTail(size: number, length: number, readAt: ReadAt) {
  const tailLength = Math.min(size, length);
  return readAt(size - tailLength, tailLength);
}

/** The end-of-central-directory record's offset in `tail`, searched from the end; -1 if none. */
function findEndRecord(tail: Buffer) {
  for (let at = tail.length - EOCD_SIZE; at >= 0; at--) if (tail.readUInt32LE(at) === EOCD_SIGNATURE) return at;
  return -1;
}
