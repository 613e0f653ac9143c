import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { getEnv } from "./env.server.ts";

// Object storage. Keys are server-made UUIDs; stored paths have the spec's form
// /objects/uploads/{id}. (The media issue extends this module with the S3 backend.)

export type ObjectKind = "cover" | "doctor-photo" | "video" | "download" | "thumbnail" | "preview";

export const OBJECT_PATH_PREFIX = "/objects/uploads/";

export function objectPath(id: string) {
  return `${OBJECT_PATH_PREFIX}${id}`;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export function objectIdFromPath(stored: string | null | undefined): string | null {
  if (!stored?.startsWith(OBJECT_PATH_PREFIX)) return null;
  const id = stored.slice(OBJECT_PATH_PREFIX.length).split(/[?#]/)[0]!;
  return UUID.test(id) ? id : null;
}

function localPath(id: string) {
  if (!UUID.test(id)) throw new Error("invalid object id");
  return path.join(getEnv().DATA_DIR, "objects", id);
}

/** Stores a body under a new id and returns its stored path. */
export async function saveObject({ body, contentType }: { body: Readable | Buffer; contentType: string; kind: ObjectKind }) {
  const id = crypto.randomUUID();
  const file = localPath(id);
  await fs.promises.mkdir(path.dirname(file), { recursive: true });
  await pipeline(Buffer.isBuffer(body) ? Readable.from([body]) : body, fs.createWriteStream(file));
  await fs.promises.writeFile(`${file}.meta.json`, JSON.stringify({ contentType }));
  return { id, path: objectPath(id) };
}
