import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { finished, PassThrough, Readable, Transform, type TransformCallback } from "node:stream";
import { pipeline } from "node:stream/promises";
import { announce, FACTS, registerCache } from "./cache-registry.server.ts";
import { prisma } from "./db.server.ts";
import { getEnv } from "./env.server.ts";
import type { PresignedGetOptions } from "./s3-store.server.ts";

// Object storage: one small interface, two backends. Local disk under DATA_DIR/objects/ by
// default; S3 (or any S3-compatible store) when S3_BUCKET is set. Keys are server-made UUIDs:
// a user's file name is never part of a path. Stored paths have the form
// /objects/uploads/{id}. Each object's kind, content type and size are a StoredObject row.

export type ObjectKind = "cover" | "doctor-photo" | "video" | "download" | "thumbnail" | "preview" | "caption";

export const OBJECT_PATH_PREFIX = "/objects/uploads/";

export function objectPath(id: string) {
  return `${OBJECT_PATH_PREFIX}${id}`;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** Only a lower-case UUID is an object id: anything else (traversal, encodings) is not. */
export function isObjectId(id: string) {
  return UUID.test(id);
}

export function objectIdFromPath(stored: string | null | undefined): string | null {
  if (!stored?.startsWith(OBJECT_PATH_PREFIX)) return null;
  const id = stored.slice(OBJECT_PATH_PREFIX.length).split(/[?#]/)[0]!;
  return UUID.test(id) ? id : null;
}

export function storageBackend(): "s3" | "local" {
  return getEnv().S3_BUCKET ? "s3" : "local";
}

// ---- local disk ----

function objectsDir() {
  return path.resolve(getEnv().DATA_DIR, "objects");
}

/** The file of a local object. The id is checked first, so nothing outside the store is reachable. */
export function localObjectFile(id: string) {
  if (!UUID.test(id)) throw new Error("invalid object id");
  return path.join(objectsDir(), id);
}

/**
 * Where an object's image renditions are kept (image-renditions.server.ts): on the local disk
 * with either backend, as derived data that can always be made again from the original.
 */
export function renditionsDir(id: string) {
  if (!UUID.test(id)) throw new Error("invalid object id");
  return path.join(objectsDir(), ".renditions", id);
}

// ---- S3 ----

// The AWS SDK is loaded only when S3 is in use: importing it took about a second, paid by every
// process (and every test file) that touches storage on the local backend.
const s3Store = () => import("./s3-store.server.ts");

/**
 * Whether uploads could be stored now (/readyz): the bucket answers a HeadBucket, or the local
 * directory exists (made if missing, as the first upload would) and this process may write to it.
 */
export async function checkStorage(signal?: AbortSignal) {
  if (storageBackend() === "s3") return (await s3Store()).headBucket(signal);
  await fs.promises.mkdir(objectsDir(), { recursive: true });
  await fs.promises.access(objectsDir(), fs.constants.W_OK);
}

/**
 * The origin browsers talk to in S3 mode (presigned PUTs and GETs), for the CSP's connect-src
 * and the bucket's CORS rule; null with the local backend.
 */
export function storageOrigin(): string | null {
  const env = getEnv();
  if (!env.S3_BUCKET) return null;
  if (env.S3_ENDPOINT) {
    const endpoint = new URL(env.S3_ENDPOINT);
    return env.S3_FORCE_PATH_STYLE ? endpoint.origin : `${endpoint.protocol}//${env.S3_BUCKET}.${endpoint.host}`;
  }
  return env.S3_FORCE_PATH_STYLE ? `https://s3.${env.S3_REGION}.amazonaws.com` : `https://${env.S3_BUCKET}.s3.${env.S3_REGION}.amazonaws.com`;
}

/** How long presigned URLs stay valid: a few minutes is enough to start a request. */
export const PRESIGNED_GET_SECONDS = 300;
export const PRESIGNED_PUT_SECONDS = 900;

/** A presigned GET (or HEAD) of a private bucket's object, valid PRESIGNED_GET_SECONDS. */
export async function presignedObjectUrl(id: string, options: PresignedGetOptions = {}) {
  if (!UUID.test(id)) throw new Error("invalid object id");
  return (await s3Store()).presignGet(id, options, PRESIGNED_GET_SECONDS);
}

/** A presigned GET (or HEAD) of any key of the bucket (derived files: image renditions), valid PRESIGNED_GET_SECONDS. */
export async function presignedKeyUrl(key: string, options: PresignedGetOptions = {}) {
  return (await s3Store()).presignGetKey(key, options, PRESIGNED_GET_SECONDS);
}

/**
 * A presigned PUT for a new object. The content type (and the size, when known) are signed,
 * so the store refuses a different one.
 */
export async function presignedUploadUrl(id: string, signed: { contentType?: string; size?: number }) {
  if (!UUID.test(id)) throw new Error("invalid object id");
  return (await s3Store()).presignPut(id, signed, PRESIGNED_PUT_SECONDS);
}

/** The first `length` bytes and the size of an S3 object, or null when it is missing. */
export async function readS3ObjectHead(id: string, length: number) {
  if (!UUID.test(id)) throw new Error("invalid object id");
  return (await s3Store()).readHead(id, length);
}

/** `length` bytes of a stored object from `start`, from either backend. */
export async function readObjectRange(id: string, start: number, length: number): Promise<Buffer> {
  if (!UUID.test(id)) throw new Error("invalid object id");
  if (storageBackend() === "s3") return (await s3Store()).readRange(id, start, length);
  const handle = await fs.promises.open(localObjectFile(id), "r");
  try {
    const buffer = Buffer.alloc(length);
    const { bytesRead } = await handle.read(buffer, 0, length, start);
    return buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

/** Bytes `start`..`end` (inclusive) of a stored object, streamed from either backend. */
export async function objectStream(id: string, start: number, end: number): Promise<Readable> {
  if (!UUID.test(id)) throw new Error("invalid object id");
  if (storageBackend() === "s3") return (await s3Store()).streamKey(`uploads/${id}`, start, end);
  return fs.createReadStream(localObjectFile(id), { start, end, highWaterMark: 512 * 1024 });
}

// ---- metadata ----

export type StoredObjectInfo = { id: string; kind: string; contentType: string; size: number; createdAt: Date };

// Objects never change once stored (a new file is a new id), so their metadata can be kept in
// memory. Bounded, oldest dropped first.
const infoCache = new Map<string, StoredObjectInfo>();
const INFO_CACHE_MAX = 5000;

// Dropped when a row is written or the bytes are removed (cache-registry.server.ts): one id
// when the announcement names it.
registerCache("storedObjectInfo", (id) => (id === undefined ? infoCache.clear() : infoCache.delete(id)));

export async function getObjectInfo(id: string): Promise<StoredObjectInfo | null> {
  if (!UUID.test(id)) return null;
  const cached = infoCache.get(id);
  if (cached) return cached;
  const row = await prisma.storedObject.findUnique({ where: { id } });
  if (!row) return null;
  const info = { ...row, size: Number(row.size) };
  if (infoCache.size >= INFO_CACHE_MAX) infoCache.delete(infoCache.keys().next().value!);
  infoCache.set(id, info);
  return info;
}

/** Records an object that reached the store by another way (a presigned S3 PUT). */
export async function recordObject(info: { id: string; kind: ObjectKind; contentType: string; size: number }) {
  await prisma.storedObject.upsert({
    where: { id: info.id },
    create: { id: info.id, kind: info.kind, contentType: info.contentType, size: BigInt(info.size) },
    update: {},
  });
}

// ---- saving ----

export class ObjectExistsError extends Error {
  constructor() {
    super("This object already exists");
  }
}

class ByteCounter extends Transform {
  bytes = 0;
  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback) {
    this.bytes += chunk.length;
    callback(null, chunk);
  }
}

export type SaveObjectInput = {
  body: Readable | Buffer;
  contentType: string;
  kind: ObjectKind;
  /** A server-made id reserved earlier (a signed upload URL); a new one otherwise. */
  id?: string;
  /** Checks applied while the bytes stream through (size, magic bytes); throwing aborts. */
  guard?: Transform;
};

/**
 * Streams a body to storage under a new id and returns its stored path. The bytes go to a
 * temporary file first, so a failed or refused upload leaves no partial object: the object
 * appears (and its StoredObject row is written) only once every byte has passed the guard.
 */
export async function saveObject({ body, contentType, kind, id = crypto.randomUUID(), guard }: SaveObjectInput) {
  if (!UUID.test(id)) throw new Error("invalid object id");
  const tmpDir = path.join(objectsDir(), ".tmp");
  await fs.promises.mkdir(tmpDir, { recursive: true });
  const tmp = path.join(tmpDir, `${id}.${crypto.randomBytes(6).toString("hex")}.part`);
  const counter = new ByteCounter();
  const source = Buffer.isBuffer(body) ? Readable.from([body]) : body;
  const sink = fs.createWriteStream(tmp);
  try {
    if (guard) await pipeline(source, guard, counter, sink);
    else await pipeline(source, counter, sink);
    const size = counter.bytes;
    if (storageBackend() === "s3") await putToS3(id, tmp, contentType, size);
    await commitRow({ id, kind, contentType, size }, async () => {
      if (storageBackend() === "local") await fs.promises.rename(tmp, localObjectFile(id));
    });
    return { id, path: objectPath(id), size };
  } finally {
    // A refusal can come before the file is even open: wait for the stream to let go of it,
    // or the file would be created after its removal and stay behind.
    if (!sink.closed) await new Promise<void>((resolve) => sink.once("close", () => resolve()));
    await fs.promises.rm(tmp, { force: true });
  }
}

async function putToS3(id: string, file: string, contentType: string, size: number) {
  await (await s3Store()).put(id, fs.createReadStream(file), contentType, size);
}

/** Writes the row, then makes the bytes visible; undoes the row if that fails. */
async function commitRow(info: { id: string; kind: ObjectKind; contentType: string; size: number }, publish: () => Promise<void>) {
  // ON CONFLICT DO NOTHING: the same answer from every database driver when the id is taken.
  const created = await prisma.storedObject.createMany({
    data: [{ id: info.id, kind: info.kind, contentType: info.contentType, size: BigInt(info.size) }],
    skipDuplicates: true,
  });
  if (created.count === 0) throw new ObjectExistsError();
  try {
    await publish();
  } catch (error) {
    await prisma.storedObject.delete({ where: { id: info.id } }).catch(() => undefined);
    throw error;
  }
}

/** Removes an object and its row; missing ones are ignored. */
export async function deleteObject(id: string) {
  if (!UUID.test(id)) return;
  announce(FACTS.storedObjectRemoved, id);
  if (storageBackend() === "s3") {
    await (await s3Store()).remove(id);
  } else {
    await fs.promises.rm(localObjectFile(id), { force: true });
  }
  await fs.promises.rm(renditionsDir(id), { recursive: true, force: true });
  await prisma.storedObject.deleteMany({ where: { id } });
}

/**
 * A stream that can be unhooked from its source: a refused upload stops writing but the
 * request (or multipart part) keeps draining, so the client still receives the error answer.
 */
export function detachable(source: Readable) {
  const pass = new PassThrough();
  source.pipe(pass);
  // pipe() does not pass on a source that fails or closes early (a client gone in the middle of
  // a file): the save waiting for the rest would hang, with its temporary file left behind.
  finished(source, (error) => {
    if (error) pass.destroy(error);
  });
  return {
    stream: pass,
    detach() {
      source.unpipe(pass);
      source.resume();
    },
  };
}
