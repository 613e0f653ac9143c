import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { logger } from "./logger.server.ts";
import { ASPECTS, OG_SIZE, renditionHeight, type RenditionSpec } from "./image-renditions.ts";
import { localObjectFile, readObjectRange, renditionsDir, storageBackend, type StoredObjectInfo } from "./storage.server.ts";

// Renditions are made on first request and then kept beside the originals, under
// DATA_DIR/objects/.renditions/{id}/{name} (docs/decisions/016-responsive-images.md): existing
// rows, the demo seed and presigned S3 uploads need no backfill, an upload costs no encoding
// time, and only the sizes pages really ask for are ever made. They are derived data: deleting
// the folder only costs a re-encode.

/** Images that renditions are made of (what the cover, photo and thumbnail rules accept). */
const SOURCE_TYPES = new Set(["image/jpeg", "image/png"]);

export function isRenditionSource(info: StoredObjectInfo | null) {
  return !!info && SOURCE_TYPES.has(info.contentType);
}

// sharp (libvips) is loaded only when a rendition is made: a process that serves none, and every
// test file that does not, skips its native module.
const loadSharp = () => import("sharp").then((module) => module.default);

export function renditionName(spec: RenditionSpec) {
  return "og" in spec ? "og.jpg" : `${spec.aspect}-${spec.width}.${spec.format}`;
}

// One encode at a time: AVIF is CPU-heavy and the first visit to a page asks for several at
// once. Requests for the same rendition share its one encode.
let queue: Promise<unknown> = Promise.resolve();
const inFlight = new Map<string, Promise<string | null>>();

/**
 * The file of a rendition, made now if it does not exist yet; null when the original does not
 * decode as an image (its magic bytes passed the upload check, its body did not).
 */
export async function renditionFile(info: StoredObjectInfo, spec: RenditionSpec): Promise<string | null> {
  const file = path.join(renditionsDir(info.id), renditionName(spec));
  if (
    await fs.promises.access(file).then(
      () => true,
      () => false,
    )
  )
    return file;
  let pending = inFlight.get(file);
  if (!pending) {
    pending = queue.then(() => makeRendition(info, spec, file));
    queue = pending.catch(() => undefined);
    inFlight.set(file, pending);
    pending.finally(() => inFlight.delete(file)).catch(() => undefined);
  }
  return pending;
}

/**
 * S3 mode: the rendition's key in the bucket (renditions/{id}/{name}, beside uploads/{id}), made
 * on this instance's disk and put there on its first request, so the bytes are sent by the
 * bucket (or a CDN in front of it), not by Node. A marker beside the local file spares later
 * requests on this instance a look at the bucket; another instance finds the key with a HEAD.
 * Null for an original that does not decode.
 */
export async function bucketRendition(info: StoredObjectInfo, spec: RenditionSpec, contentType: string, cacheControl: string): Promise<string | null> {
  const name = renditionName(spec);
  const key = `renditions/${info.id}/${name}`;
  const marker = path.join(renditionsDir(info.id), `${name}.in-bucket`);
  if (
    await fs.promises.access(marker).then(
      () => true,
      () => false,
    )
  )
    return key;
  const store = await import("./s3-store.server.ts");
  if (!(await store.hasKey(key))) {
    const file = await renditionFile(info, spec);
    if (!file) return null;
    const { size } = await fs.promises.stat(file);
    await store.putKey(key, fs.createReadStream(file), contentType, size, cacheControl);
  }
  await fs.promises.mkdir(path.dirname(marker), { recursive: true });
  await fs.promises.writeFile(marker, "");
  return key;
}

async function makeRendition(info: StoredObjectInfo, spec: RenditionSpec, file: string): Promise<string | null> {
  const sharp = await loadSharp();
  const input = storageBackend() === "s3" ? await readObjectRange(info.id, 0, info.size) : localObjectFile(info.id);
  let output: Buffer;
  try {
    const image = sharp(input).rotate();
    if ("og" in spec) {
      // A link preview is drawn at this size whatever the source: the one rendition that may enlarge.
      output = await image.resize(OG_SIZE.width, OG_SIZE.height, { fit: "cover" }).jpeg({ quality: 80, mozjpeg: true }).toBuffer();
    } else {
      const meta = await sharp(input).metadata();
      if (!meta.width || !meta.height) throw new Error("an image without a size");
      // EXIF orientations 5–8 turn the picture a quarter: its width is the stored height.
      const turned = (meta.orientation ?? 1) >= 5;
      const sourceWidth = turned ? meta.height : meta.width;
      const sourceHeight = turned ? meta.width : meta.height;
      const [aw, ah] = ASPECTS[spec.aspect];
      // The widest box of this aspect inside the source, and never wider than that: a rendition
      // is not enlarged (a 640 px cover asked for at 1280 answers its 640 px crop).
      const cropWidth = Math.min(sourceWidth, Math.floor((sourceHeight * aw) / ah));
      const width = Math.max(1, Math.min(spec.width, cropWidth));
      const resized = image.resize(width, Math.max(1, renditionHeight(spec.aspect, width)), { fit: "cover" });
      output = await (
        spec.format === "avif"
          ? resized.avif({ quality: 55, effort: 3 })
          : spec.format === "webp"
            ? resized.webp({ quality: 75 })
            : resized.jpeg({ quality: 78, mozjpeg: true })
      ).toBuffer();
    }
  } catch (error) {
    logger.warn({ err: error, id: info.id }, "an image could not be decoded for its renditions");
    return null;
  }
  await fs.promises.mkdir(path.dirname(file), { recursive: true });
  const tmp = `${file}.${crypto.randomBytes(6).toString("hex")}.part`;
  await fs.promises.writeFile(tmp, output);
  await fs.promises.rename(tmp, file);
  return file;
}
