import crypto from "node:crypto";
import { Readable, Transform, Writable, type TransformCallback } from "node:stream";
import { pipeline } from "node:stream/promises";
import busboy from "busboy";
import { getEnv } from "./env.server.ts";
import { logger } from "./logger.server.ts";
import { ServiceError } from "./errors.server.ts";
import { hasWebVttHeaderBytes } from "./vtt.ts";
import {
  deleteObject,
  detachable,
  getObjectInfo,
  isObjectId,
  objectIdFromPath,
  objectPath,
  ObjectExistsError,
  presignedUploadUrl,
  readS3ObjectHead,
  recordObject,
  saveObject,
  storageBackend,
} from "./storage.server.ts";

// Upload rules (docs/architecture.md, "Media") and the two ways a file reaches
// storage: a PUT to a signed URL (the JavaScript path) and a streamed multipart form (no
// JavaScript). Both apply the same checks before an object exists: the extension allowed for
// the kind, the size limit, and magic bytes that match the extension.

export const UPLOAD_KINDS = ["cover", "doctor-photo", "video", "download", "thumbnail", "caption"] as const;
export type UploadKind = (typeof UPLOAD_KINDS)[number];

const MB = 1024 * 1024;

type KindRule = { label: string; extensions: string[]; maxMB: () => number };

const RULES: Record<UploadKind, KindRule> = {
  // "cover image .jpg/.jpeg/.png, max 10 MB"
  cover: { label: "Cover image", extensions: ["jpg", "jpeg", "png"], maxMB: () => 10 },
  // "doctor photo .jpg/.jpeg/.png, max 5 MB"
  "doctor-photo": { label: "Doctor photo", extensions: ["jpg", "jpeg", "png"], maxMB: () => 5 },
  // Category thumbnails follow the cover image rule.
  thumbnail: { label: "Thumbnail", extensions: ["jpg", "jpeg", "png"], maxMB: () => 10 },
  // "video .mp4/.mov": no size is promised; a configurable cap keeps the disk safe.
  video: { label: "Video", extensions: ["mp4", "mov"], maxMB: () => getEnv().MAX_VIDEO_FILE_MB },
  // "download file .zip/.rar", default 2 GB.
  download: { label: "Download file", extensions: ["zip", "rar"], maxMB: () => getEnv().MAX_DOWNLOAD_FILE_MB },
  // Captions: WebVTT, the one format <track> plays; 1 MB is hours of cues.
  caption: { label: "Caption file", extensions: ["vtt"], maxMB: () => 1 },
};

/** The stored content type follows the checked extension, never the client's claim. */
const CONTENT_TYPES: Record<string, string> = {
  jpg: "image/jpeg",
  jpeg: "image/jpeg",
  png: "image/png",
  mp4: "video/mp4",
  mov: "video/quicktime",
  zip: "application/zip",
  rar: "application/vnd.rar",
  vtt: "text/vtt",
};

/** Content types a browser or client may declare for each extension. */
const DECLARED_TYPES: Record<string, string[]> = {
  jpg: ["image/jpeg", "image/pjpeg"],
  jpeg: ["image/jpeg", "image/pjpeg"],
  png: ["image/png"],
  mp4: ["video/mp4"],
  mov: ["video/quicktime"],
  zip: ["application/zip", "application/x-zip-compressed", "application/x-zip"],
  rar: ["application/vnd.rar", "application/x-rar-compressed", "application/x-rar"],
  vtt: ["text/vtt"],
};

export function uploadRule(kind: UploadKind) {
  const rule = RULES[kind];
  return { ...rule, maxBytes: rule.maxMB() * MB, maxMB: rule.maxMB() };
}

export function isUploadKind(value: string): value is UploadKind {
  return (UPLOAD_KINDS as readonly string[]).includes(value);
}

export function contentTypeForExtension(ext: string) {
  return CONTENT_TYPES[ext] ?? "application/octet-stream";
}

/** The extension for a stored content type (the download file's name is built from it). */
export function extensionForContentType(contentType: string): string | null {
  const type = contentType.split(";")[0]!.trim().toLowerCase();
  if (type === "image/jpeg") return "jpg";
  for (const [ext, declared] of Object.entries(DECLARED_TYPES)) if (declared.includes(type)) return ext;
  return null;
}

/** "File size must be less than {N}MB.", the product's oversize message. */
export function oversizeMessage(kind: UploadKind) {
  return `File size must be less than ${uploadRule(kind).maxMB}MB.`;
}

/** The lower-case extension of a file name, checked against the kind's list. */
export function checkFileName(kind: UploadKind, fileName: string): string {
  const rule = RULES[kind];
  const match = /\.([A-Za-z0-9]+)$/.exec(fileName.trim());
  const ext = match?.[1]!.toLowerCase();
  if (!ext || !rule.extensions.includes(ext)) {
    throw new ServiceError(`${rule.label} must be a ${listExtensions(rule.extensions)} file`);
  }
  return ext;
}

function listExtensions(extensions: string[]) {
  const dotted = extensions.map((e) => `.${e}`);
  return dotted.length > 1 ? `${dotted.slice(0, -1).join(", ")} or ${dotted.at(-1)}` : dotted[0]!;
}

export function checkDeclaredSize(kind: UploadKind, size: number | undefined | null) {
  if (size !== undefined && size !== null && size > uploadRule(kind).maxBytes) {
    throw new ServiceError(oversizeMessage(kind), 413);
  }
}

// ---- magic bytes ----

const QUICKTIME_ATOMS = new Set(["ftyp", "moov", "mdat", "wide", "free", "skip", "pnot"]);

/**
 * How many leading bytes decide, and whether they match the extension. `orEnd`: a file shorter
 * than `length` may still match (a WebVTT header may be the whole file, and a BOM is optional).
 */
const MAGIC: Record<string, { length: number; orEnd?: boolean; matches: (head: Buffer) => boolean }> = {
  jpg: { length: 3, matches: (h) => h[0] === 0xff && h[1] === 0xd8 && h[2] === 0xff },
  jpeg: { length: 3, matches: (h) => h[0] === 0xff && h[1] === 0xd8 && h[2] === 0xff },
  png: { length: 8, matches: (h) => h.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) },
  mp4: { length: 8, matches: (h) => h.toString("latin1", 4, 8) === "ftyp" },
  // Older QuickTime files may open with another top-level atom than ftyp.
  mov: { length: 8, matches: (h) => QUICKTIME_ATOMS.has(h.toString("latin1", 4, 8)) },
  zip: { length: 4, matches: (h) => h.subarray(0, 4).equals(Buffer.from("PK\x03\x04", "latin1")) },
  rar: { length: 6, matches: (h) => h.subarray(0, 6).equals(Buffer.from("Rar!\x1a\x07", "latin1")) },
  // An optional UTF-8 BOM (3 bytes), "WEBVTT", then a space, tab, line break or the end.
  vtt: { length: 10, orEnd: true, matches: (h) => hasWebVttHeaderBytes(h) },
};

export function magicMatches(ext: string, head: Buffer) {
  const magic = MAGIC[ext];
  return !!magic && (head.length >= magic.length || !!magic.orEnd) && magic.matches(head);
}

export const NOT_WEBVTT_MESSAGE = "Caption file must be a WebVTT file (it must start with WEBVTT)";

function mismatchMessage(ext: string) {
  if (ext === "vtt") return NOT_WEBVTT_MESSAGE;
  return `The file's content is not a valid .${ext} file`;
}

/**
 * Checks bytes as they stream: the limit on the running count (a client may lie about its
 * length) and the magic bytes as soon as enough have arrived. Throwing aborts the save.
 */
export class UploadGuard extends Transform {
  private received = 0;
  private head: Buffer[] = [];
  private headLength = 0;
  private checked = false;

  constructor(
    private kind: UploadKind,
    private ext: string,
  ) {
    super();
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback) {
    this.received += chunk.length;
    if (this.received > uploadRule(this.kind).maxBytes) return callback(new ServiceError(oversizeMessage(this.kind), 413));
    if (!this.checked) {
      this.head.push(chunk);
      this.headLength += chunk.length;
      if (this.headLength >= MAGIC[this.ext]!.length) {
        const error = this.checkMagic();
        if (error) return callback(error);
      }
    }
    callback(null, chunk);
  }

  override _flush(callback: TransformCallback) {
    if (this.received === 0) return callback(new ServiceError("The file is empty"));
    callback(this.checked ? null : this.checkMagic());
  }

  private checkMagic() {
    this.checked = true;
    const head = Buffer.concat(this.head);
    this.head = [];
    return magicMatches(this.ext, head) ? null : new ServiceError(mismatchMessage(this.ext));
  }
}

/** Streams one file to storage with the kind's checks; a refusal leaves no object behind. */
export async function storeUpload(body: Readable, { kind, ext, id }: { kind: UploadKind; ext: string; id?: string }) {
  const source = detachable(body);
  try {
    return await saveObject({
      body: source.stream,
      kind,
      id,
      contentType: contentTypeForExtension(ext),
      guard: new UploadGuard(kind, ext),
    });
  } catch (error) {
    // Keep draining the source so the client still gets the answer.
    source.detach();
    if (error instanceof ObjectExistsError) throw new ServiceError("This upload URL has already been used", 409);
    throw error;
  }
}

/** storeUpload's checks without storing: the bytes are read and dropped. */
async function checkUpload(body: Readable, { kind, ext }: { kind: UploadKind; ext: string }) {
  const source = detachable(body);
  const drop = new Writable({ write: (_chunk, _encoding, callback) => callback() });
  try {
    await pipeline(source.stream, new UploadGuard(kind, ext), drop);
  } catch (error) {
    source.detach();
    throw error;
  }
  return null;
}

// ---- signed upload URLs (local backend) ----

/** A signed app URL stays valid this long; the expiry is checked when the PUT starts. */
const UPLOAD_URL_SECONDS = 15 * 60;

function uploadSignature(id: string, kind: string, ext: string, expires: string) {
  return crypto.createHmac("sha256", getEnv().SESSION_SECRET).update(`upload\n${id}\n${kind}\n${ext}\n${expires}`).digest("base64url");
}

/**
 * `POST /api/objects/upload`: checks the declared name and size against the kind's rules and
 * answers where to PUT the file: a presigned S3 PUT in S3 mode, otherwise a signed, expiring
 * URL of the app. Either way the URL's last path segment is the new object's id.
 */
export async function createUploadUrl(input: { kind: UploadKind; fileName: string; contentType?: string; size?: number }, origin: string) {
  const ext = checkFileName(input.kind, input.fileName);
  checkDeclaredSize(input.kind, input.size);
  const id = crypto.randomUUID();
  if (storageBackend() === "s3") {
    // The declared type is signed (the client PUTs "with its content type"); an unknown or
    // missing one is left unsigned and the canonical type is applied when the file is served.
    const declared = input.contentType?.split(";")[0]!.trim().toLowerCase();
    const contentType = declared && DECLARED_TYPES[ext]!.includes(declared) ? declared : undefined;
    const uploadURL = await presignedUploadUrl(id, { contentType, size: input.size });
    return { uploadURL, path: objectPath(id) };
  }
  const expires = String(Math.floor(Date.now() / 1000) + UPLOAD_URL_SECONDS);
  const query = new URLSearchParams({ expires, kind: input.kind, ext, sig: uploadSignature(id, input.kind, ext, expires) });
  return { uploadURL: new URL(`${objectPath(id)}?${query}`, origin).toString(), path: objectPath(id) };
}

/** The kind and extension a signed upload URL grants, or null when forged or expired. */
export function verifyUploadUrl(id: string, query: Record<string, unknown>, now = Date.now()) {
  const { expires, kind, ext, sig } = query;
  if (typeof expires !== "string" || typeof kind !== "string" || typeof ext !== "string" || typeof sig !== "string") return null;
  if (!isObjectId(id) || !/^\d{1,12}$/.test(expires)) return null;
  const expected = Buffer.from(uploadSignature(id, kind, ext, expires));
  const given = Buffer.from(sig);
  if (expected.length !== given.length || !crypto.timingSafeEqual(expected, given)) return null;
  if (Number(expires) * 1000 < now) return null;
  if (!isUploadKind(kind) || !RULES[kind].extensions.includes(ext)) return null;
  return { kind, ext };
}

/** The PUT to a signed URL: the Content-Length is checked before a byte is read. */
export async function receiveSignedUpload(
  body: Readable,
  { id, query, contentLength }: { id: string; query: Record<string, unknown>; contentLength?: string },
) {
  const grant = verifyUploadUrl(id, query);
  if (!grant) throw new ServiceError("This upload URL is invalid or has expired", 403);
  if (contentLength !== undefined) checkDeclaredSize(grant.kind, Number(contentLength));
  // Checked again when the object is committed (two PUTs racing); this spares the bytes.
  if (await getObjectInfo(id)) throw new ServiceError("This upload URL has already been used", 409);
  return storeUpload(body, { kind: grant.kind, ext: grant.ext, id });
}

const IMAGE_KINDS = new Set<string>(["cover", "doctor-photo", "thumbnail"]);

/**
 * Confirms that a stored path is a finished upload of this kind before a form attaches it.
 * Local uploads were checked on the way in. A presigned S3 PUT bypassed the app, so its size
 * and magic bytes are checked now, and a refused object is deleted.
 */
export async function confirmUpload(storedPath: string, kind: UploadKind) {
  const id = objectIdFromPath(storedPath);
  if (!id) throw new ServiceError("Upload not found", 404);
  const info = await getObjectInfo(id);
  if (info) {
    // An image uploaded for one purpose may serve another within that one's size limit.
    const sameFamily = info.kind === kind || (IMAGE_KINDS.has(info.kind) && IMAGE_KINDS.has(kind));
    if (!sameFamily) throw new ServiceError(`${RULES[kind].label} upload not found`, 404);
    if (info.size > uploadRule(kind).maxBytes) throw new ServiceError(oversizeMessage(kind), 413);
    return info;
  }
  if (storageBackend() !== "s3") throw new ServiceError("Upload not found", 404);
  const head = await readS3ObjectHead(id, kind === "caption" ? 10 : 8);
  if (!head) throw new ServiceError("Upload not found", 404);
  const ext = RULES[kind].extensions.find((e) => magicMatches(e, head.bytes));
  let refusal: ServiceError | null = null;
  if (head.size > uploadRule(kind).maxBytes) refusal = new ServiceError(oversizeMessage(kind), 413);
  else if (!ext && kind === "caption") refusal = new ServiceError(NOT_WEBVTT_MESSAGE);
  else if (!ext) refusal = new ServiceError(`${RULES[kind].label} must be a ${listExtensions(RULES[kind].extensions)} file`);
  if (refusal) {
    await deleteObject(id);
    throw refusal;
  }
  // An ftyp brand of "qt  " is a QuickTime movie; other ftyp files are MP4.
  const finalExt = ext === "mp4" || ext === "mov" ? (head.bytes.toString("latin1", 8, 12) === "qt  " ? "mov" : "mp4") : ext!;
  await recordObject({ id, kind, contentType: contentTypeForExtension(finalExt), size: head.size });
  return getObjectInfo(id);
}

// ---- multipart forms (no JavaScript) ----

export type MultipartUpload = {
  /** Text fields, with each stored file's path set under its field name. */
  formData: FormData;
  /** Field name → stored path, for the files that were sent. */
  files: Record<string, string>;
  /** Field name → messages; when present, no file of this request was kept. */
  errors: Record<string, string[]>;
};

/**
 * Reads a `multipart/form-data` request and streams each file part named in `fields` to
 * storage with its kind's checks, never holding a whole file in memory. A file input left
 * empty keeps a text field of the same name (an edit form's current path). If any file is
 * refused, the files already stored for this request are deleted again.
 */
export async function streamMultipartUpload(request: Request, { fields }: { fields: Record<string, UploadKind> }): Promise<MultipartUpload> {
  const contentType = request.headers.get("content-type") ?? "";
  if (!contentType.toLowerCase().startsWith("multipart/form-data") || !request.body) {
    throw new ServiceError("Expected a multipart/form-data body");
  }
  const formData = new FormData();
  const files: Record<string, string> = {};
  const errors: Record<string, string[]> = {};
  // Each file's outcome, chained in the order the files arrive.
  let settled = Promise.resolve();
  const addError = (name: string, message: string) => (errors[name] ??= []).push(message);

  let parser: busboy.Busboy;
  try {
    parser = busboy({
      headers: { "content-type": contentType },
      limits: { fields: 200, fieldSize: 1 * MB, files: Object.keys(fields).length, parts: 300 },
    });
  } catch {
    throw new ServiceError("Expected a multipart/form-data body");
  }

  parser.on("field", (name, value) => formData.append(name, value));
  parser.on("file", (name, stream, info) => {
    // A request that ends early destroys the part with the request's error, which the parser
    // reports; the part may be waiting for the files before it, with nothing listening yet.
    stream.on("error", () => undefined);
    const kind = fields[name];
    // Unknown file fields and empty file inputs are drained and ignored.
    if (!kind || !info.filename) {
      stream.resume();
      return;
    }
    let ext: string;
    try {
      ext = checkFileName(kind, info.filename);
    } catch (error) {
      addError(name, (error as Error).message);
      stream.resume();
      return;
    }
    // One file after the other, as they arrive: once a file of this request is refused,
    // nothing of it will be kept, so the files after it are still checked (each field gets its
    // message) but no longer written to storage (a 2 GB video behind a refused cover was
    // written out in full, or sent to S3, then deleted).
    const save = settled.then(() => (Object.keys(errors).length ? checkUpload(stream, { kind, ext }) : storeUpload(stream, { kind, ext })));
    settled = save.then(
      (stored) => {
        if (stored) files[name] = stored.path;
      },
      (error) => {
        if (!(error instanceof ServiceError)) logger.error({ err: error, field: name }, "storing an upload failed");
        addError(name, error instanceof ServiceError ? error.message : "Upload failed");
      },
    );
  });

  const parsed = new Promise<void>((resolve, reject) => {
    parser.on("close", resolve);
    parser.on("error", () => reject(new ServiceError("The form data could not be read")));
  });
  const body = Readable.fromWeb(request.body as import("node:stream/web").ReadableStream<Uint8Array>);
  body.on("error", (error) => parser.destroy(error));
  body.pipe(parser);
  try {
    await parsed;
  } catch (error) {
    await settled;
    await discardUploads(Object.values(files));
    throw error;
  }
  await settled;

  if (Object.keys(errors).length) {
    await discardUploads(Object.values(files));
    return { formData, files: {}, errors };
  }
  for (const [name, storedPath] of Object.entries(files)) formData.set(name, storedPath);
  return { formData, files, errors };
}

/** Deletes stored uploads that will not be attached (the rest of a form was invalid). */
export async function discardUploads(paths: string[]) {
  await Promise.all(
    paths.map(async (p) => {
      const id = objectIdFromPath(p);
      if (id) await deleteObject(id).catch((error) => logger.error({ err: error, id }, "deleting an upload failed"));
    }),
  );
}
