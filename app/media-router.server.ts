import fs from "node:fs";
import path from "node:path";
import { Readable } from "node:stream";
import { Router, type Request, type Response } from "express";
import { getObjectDelivery, type ObjectDelivery } from "~/services/media/delivery.server.ts";
import { logger } from "~/lib/logger.server.ts";
import {
  isObjectId,
  localObjectFile,
  objectPath,
  presignedKeyUrl,
  presignedObjectUrl,
  PRESIGNED_GET_SECONDS,
  readS3ObjectHead,
  storageBackend,
} from "~/lib/storage.server.ts";
import { bucketPackageUrl, localSetFile, mediaType, presignedSetFileUrl, readSetText } from "~/lib/media-store.server.ts";
import { decideSetFile, type SetFileDecision } from "~/services/media/media-urls.server.ts";
import { getEmbedMediaDelivery, recordEmbedPlay } from "~/services/licensing/embed-media.server.ts";
import { bucketRendition, isRenditionSource, renditionFile } from "~/lib/image-renditions.server.ts";
import { parseRenditionName, RENDITION_TYPES, type RenditionSpec } from "~/lib/image-renditions.ts";
import { receiveSignedUpload, uploadRule } from "~/lib/upload.server.ts";
import { getEnv } from "~/lib/env.server.ts";
import { zipRange } from "~/lib/zip-stream.server.ts";
import { getPackageDelivery, recordDownload, type PackageDelivery } from "~/services/media/package-delivery.server.ts";
import { openSource } from "~/services/media/packages.server.ts";
import { ServiceError } from "~/lib/errors.server.ts";

// /objects/uploads/{id}: GET and HEAD stream a stored object to whoever has the right to it
// (byte ranges, conditional requests); PUT receives an upload at a signed URL. Mounted in
// server.ts before the React Router handler, after the CSRF guard.
// /objects/uploads/{id}/{rendition}: an image's AVIF, WebP or JPEG at one width, or its social
// preview (image-renditions.ts), with the original's access rule, made on first request.
// /embed-media/{animationId}/video: a licence's player's stored video (before the media
// pipeline's first set), at a short-lived URL signed for one licence's embed on one site or for
// a patient link (embed-media.server.ts), streamed the same way.
// /packages/{slug}.zip and /packages/{slug}/{file}: an animation's licence package as one ZIP
// streamed from its files (packages.server.ts), or one file of it, for someone with the download
// right; every download is recorded.

export function mediaRouter() {
  const router = Router();
  router.get("/objects/uploads/:id", (req, res) => sendObject(req, res));
  router.put("/objects/uploads/:id", (req, res) => receiveUpload(req, res));
  router.get("/objects/uploads/:id/:rendition", (req, res) => sendRendition(req, res));
  router.get("/embed-media/:animationId/video", (req, res) => sendEmbedMedia(req, res));
  router.all("/embed-media/{*rest}", (_req, res) => notFound(res));
  router.get("/media/:setId/:grant/*file", (req, res) => sendSetFile(req, res));
  router.get("/packages/:name", (req, res) => {
    const name = req.params.name as string;
    return name.endsWith(".zip") ? sendPackage(req, res, name.slice(0, -4), null) : notFound(res);
  });
  router.get("/packages/:slug/:file", (req, res) => sendPackage(req, res, req.params.slug as string, req.params.file as string));
  router.all("/packages/{*rest}", (_req, res) => notFound(res));
  router.all("/media/{*rest}", (_req, res) => notFound(res));
  // Anything else under /objects/ (traversal attempts, encoded or not, other ids) is not an
  // object: answered here, without a look at the file system.
  router.all("/objects/{*rest}", (_req, res) => notFound(res));
  return router;
}

function notFound(res: Response) {
  res.status(404).set("Cache-Control", "no-store").json({ message: "File not found" });
}

async function sendObject(req: Request, res: Response) {
  const id = req.params.id as string;
  if (!isObjectId(id)) return notFound(res);
  let delivery: ObjectDelivery;
  try {
    delivery = await getObjectDelivery(id, { cookie: req.headers.cookie, authorization: req.headers.authorization });
  } catch (error) {
    logger.error({ err: error, id }, "object access check failed");
    res.status(500).set("Cache-Control", "no-store").json({ message: "Something went wrong" });
    return;
  }
  return sendDelivery(req, res, delivery);
}

async function sendRendition(req: Request, res: Response) {
  const id = req.params.id as string;
  const spec = parseRenditionName(req.params.rendition as string);
  if (!isObjectId(id) || !spec) return notFound(res);
  let delivery: ObjectDelivery;
  let file: string | null;
  try {
    delivery = await getObjectDelivery(id, { cookie: req.headers.cookie, authorization: req.headers.authorization });
    if (!delivery.ok) return sendDelivery(req, res, delivery);
    if (!isRenditionSource(delivery.info)) return notFound(res);
    if (storageBackend() === "s3") return await redirectToBucketRendition(req, res, delivery, spec);
    file = await renditionFile(delivery.info!, spec);
  } catch (error) {
    logger.error({ err: error, id }, "making an image rendition failed");
    res.status(500).set("Cache-Control", "no-store").json({ message: "Something went wrong" });
    return;
  }
  // An original that passed the magic-byte check but does not decode: it is all there is.
  if (!file) {
    res.set("Cache-Control", "no-store").redirect(302, objectPath(id));
    return;
  }
  const { size, mtimeMs } = await fs.promises.stat(file);
  const modified = Math.floor(delivery.info!.createdAt.getTime() / 1000) * 1000;
  const etag = `"${size.toString(16)}-${Math.floor(mtimeMs).toString(16)}"`;
  const headers: Record<string, string> = {
    ETag: etag,
    "Last-Modified": new Date(modified).toUTCString(),
    "Cache-Control": delivery.cacheControl,
  };
  if (isNotModified(req, etag, modified)) {
    res.writeHead(304, headers).end();
    return;
  }
  const type = "og" in spec ? RENDITION_TYPES.jpg : RENDITION_TYPES[spec.format];
  res.writeHead(200, { ...headers, "Content-Type": type, "Content-Length": String(size) });
  if (req.method === "HEAD") {
    res.end();
    return;
  }
  fs.createReadStream(file)
    .on("error", (error) => {
      logger.warn({ err: error, id }, "streaming an image rendition failed");
      res.destroy();
    })
    .pipe(res);
}

/** S3 mode: a 302 to the rendition in the bucket, presigned, with the original's cache rule. */
async function redirectToBucketRendition(req: Request, res: Response, delivery: Extract<ObjectDelivery, { ok: true }>, spec: RenditionSpec) {
  const type = "og" in spec ? RENDITION_TYPES.jpg : RENDITION_TYPES[spec.format];
  const key = await bucketRendition(delivery.info!, spec, type, delivery.cacheControl);
  if (!key) {
    res.set("Cache-Control", "no-store").redirect(302, objectPath(delivery.id));
    return;
  }
  const url = await presignedKeyUrl(key, { method: req.method === "HEAD" ? "HEAD" : "GET", cacheControl: delivery.cacheControl, contentType: type });
  const isPublic = delivery.cacheControl.startsWith("public");
  res.set("Cache-Control", isPublic ? "public, max-age=60" : "private, no-store").redirect(302, url);
}

async function sendEmbedMedia(req: Request, res: Response) {
  let delivery: ObjectDelivery;
  try {
    delivery = await getEmbedMediaDelivery({
      animationId: req.params.animationId as string,
      query: req.query as Record<string, unknown>,
      range: req.headers.range,
    });
  } catch (error) {
    logger.error({ err: error }, "embed media check failed");
    res.status(500).set("Cache-Control", "no-store").json({ message: "Something went wrong" });
    return;
  }
  return sendDelivery(req, res, delivery);
}

async function sendDelivery(req: Request, res: Response, delivery: ObjectDelivery) {
  if (!delivery.ok) {
    res.status(delivery.status).set("Cache-Control", "private, no-store").json({ message: delivery.message });
    return;
  }
  if (storageBackend() === "s3") return delivery.info?.kind === "caption" ? relayCaption(req, res, delivery) : redirectToS3(req, res, delivery);
  return streamLocal(req, res, delivery);
}

/**
 * S3, caption files: a <track> is fetched in same-origin mode, so a browser will not follow a
 * redirect to the bucket's origin and the player would show no captions. A caption is at most
 * 1 MB: the app reads it from the bucket and sends it itself.
 */
async function relayCaption(req: Request, res: Response, delivery: Extract<ObjectDelivery, { ok: true }>) {
  const { size, createdAt } = delivery.info!;
  const etag = objectEtag(size, createdAt);
  const modified = Math.floor(createdAt.getTime() / 1000) * 1000;
  const headers = { ETag: etag, "Last-Modified": new Date(modified).toUTCString(), "Cache-Control": delivery.cacheControl };
  if (isNotModified(req, etag, modified)) {
    res.writeHead(304, headers).end();
    return;
  }
  const object = await readS3ObjectHead(delivery.id, uploadRule("caption").maxBytes);
  if (!object) return notFound(res);
  res.writeHead(200, { ...headers, "Content-Type": delivery.contentType, "Content-Length": String(object.bytes.length) });
  res.end(req.method === "HEAD" ? undefined : object.bytes);
}

/** S3: a 302 to a presigned GET valid a few minutes; the bucket itself stays private. */
async function redirectToS3(req: Request, res: Response, delivery: Extract<ObjectDelivery, { ok: true }>) {
  const url = await presignedObjectUrl(delivery.id, {
    method: req.method === "HEAD" ? "HEAD" : "GET",
    cacheControl: delivery.cacheControl,
    contentDisposition: delivery.contentDisposition,
    contentType: delivery.info?.contentType,
  });
  // The redirect itself may be reused for a minute by a browser, never past the URL's life.
  const isPublic = delivery.cacheControl.startsWith("public");
  res.set("Cache-Control", isPublic ? "public, max-age=60" : "private, no-store").redirect(302, url);
}

async function streamLocal(req: Request, res: Response, delivery: Extract<ObjectDelivery, { ok: true }>) {
  // An object never changes under its id: size and date come from its StoredObject row, so a
  // request costs no stat of the file.
  const { size, createdAt } = delivery.info!;
  return streamFile(req, res, {
    file: localObjectFile(delivery.id),
    size,
    modified: createdAt,
    contentType: delivery.contentType,
    cacheControl: delivery.cacheControl,
    contentDisposition: delivery.contentDisposition,
    logId: delivery.id,
  });
}

type LocalFile = {
  file: string;
  size: number;
  modified: Date;
  contentType: string;
  cacheControl: string;
  contentDisposition?: string;
  logId: string;
};

type Representation = {
  size: number;
  etag: string;
  modified: Date;
  contentType: string;
  cacheControl: string;
  contentDisposition?: string;
  extraHeaders?: Record<string, string>;
};

/**
 * The conditional and range part of answering one unchanging representation: a 304 or a 416 is
 * sent here (null is returned); otherwise the status, headers and byte span to send.
 */
function planResponse(req: Request, res: Response, rep: Representation) {
  const { size, etag } = rep;
  const modified = Math.floor(rep.modified.getTime() / 1000) * 1000;
  const headers: Record<string, string> = {
    ETag: etag,
    "Last-Modified": new Date(modified).toUTCString(),
    "Cache-Control": rep.cacheControl,
    "Accept-Ranges": "bytes",
    ...rep.extraHeaders,
  };
  if (isNotModified(req, etag, modified)) {
    res.writeHead(304, headers).end();
    return null;
  }
  const range = rangeApplies(req, etag, modified) ? parseRange(req.headers.range, size) : null;
  if (range === "unsatisfiable") {
    res.writeHead(416, { ...headers, "Content-Range": `bytes */${size}`, "Content-Length": "0" }).end();
    return null;
  }
  const start = range?.start ?? 0;
  const end = range?.end ?? size - 1;
  headers["Content-Type"] = rep.contentType;
  if (rep.contentDisposition) headers["Content-Disposition"] = rep.contentDisposition;
  headers["Content-Length"] = String(size === 0 ? 0 : end - start + 1);
  if (range) headers["Content-Range"] = `bytes ${start}-${end}/${size}`;
  return { status: range ? 206 : 200, headers, start, end, ranged: range !== null };
}

/** A local file that never changes, with byte ranges and conditional requests. */
async function streamFile(req: Request, res: Response, source: LocalFile) {
  const { size } = source;
  const plan = planResponse(req, res, { ...source, etag: objectEtag(size, source.modified) });
  if (!plan) return;
  const { status, headers, start, end } = plan;

  const file = source.file;
  if (req.method === "HEAD" || size === 0) {
    const exists = await fs.promises.access(file).then(
      () => true,
      () => false,
    );
    if (!exists) return notFound(res);
    res.writeHead(status, headers).end();
    return;
  }
  // The file is opened before any header goes out, so a missing one is still a clean 404.
  let handle: fs.promises.FileHandle;
  try {
    handle = await fs.promises.open(file, "r");
  } catch {
    return notFound(res);
  }
  res.writeHead(status, headers);
  await sendFileRange(res, handle, start, end, source.logId);
}

/**
 * /media/{setId}/{grant}/{file}: a file of a media pipeline set (media-urls.server.ts decides
 * who). Playlists and storyboard maps are always sent from here, also in S3 mode: the relative
 * URIs inside them must resolve under this signed path. Everything else is streamed from disk,
 * or in S3 mode redirected to a presigned URL of the bucket (a CDN may front either).
 */
async function sendSetFile(req: Request, res: Response) {
  const setId = req.params.setId as string;
  const grant = req.params.grant as string;
  const file = ([] as string[]).concat(req.params.file as string | string[]).join("/");
  let decision: SetFileDecision;
  try {
    decision = await decideSetFile(setId, grant, file);
  } catch (error) {
    logger.error({ err: error, setId }, "media set access check failed");
    res.status(500).set("Cache-Control", "no-store").json({ message: "Something went wrong" });
    return;
  }
  if (!decision.allowed) {
    const message = decision.status === 404 ? "File not found" : "This link has expired or is not valid";
    res.status(decision.status).set("Cache-Control", "private, no-store").json({ message });
    return;
  }
  if (decision.embedPlay && isPlaybackStart(req.headers.range) && req.method === "GET") {
    const { licenceId, animationId, host } = decision.embedPlay;
    await recordEmbedPlay(licenceId, animationId, host).catch((error) => logger.error({ err: error, licenceId }, "counting an embed play failed"));
  }
  const contentType = mediaType(file);
  const contentDisposition = decision.download
    ? `attachment; filename="${decision.download.slug.replace(/[^A-Za-z0-9._-]/g, "_") || "download"}${path.extname(file)}"`
    : undefined;
  if (storageBackend() === "s3") {
    if (/\.(m3u8|vtt)$/.test(file)) {
      const text = await readSetText(setId, file);
      if (text === null) return notFound(res);
      res
        .status(200)
        .set({ "Content-Type": contentType, "Cache-Control": decision.cacheControl })
        .send(req.method === "HEAD" ? undefined : text);
      return;
    }
    const url = await presignedSetFileUrl(
      setId,
      file,
      { method: req.method === "HEAD" ? "HEAD" : "GET", contentDisposition, cacheControl: decision.cacheControl },
      PRESIGNED_GET_SECONDS,
    );
    res.set("Cache-Control", decision.cacheControl.startsWith("public") ? "public, max-age=60" : "private, no-store").redirect(302, url);
    return;
  }
  const local = localSetFile(setId, file);
  const stat = await fs.promises.stat(local).catch(() => null);
  if (!stat?.isFile()) return notFound(res);
  return streamFile(req, res, {
    file: local,
    size: stat.size,
    modified: stat.mtime,
    contentType,
    cacheControl: decision.cacheControl,
    contentDisposition,
    logId: setId,
  });
}

/**
 * A licence package or one of its files. Local disk: streamed by the app with ranges, its length
 * and ETag known before a byte is read. S3: the ZIP is written to the bucket once per content
 * and, like a stored file, sent by a presigned URL; files written for the package (captions as
 * SubRip, texts) are sent by the app.
 */
async function sendPackage(req: Request, res: Response, slug: string, fileName: string | null) {
  let delivery: PackageDelivery;
  try {
    const origin = new URL(getEnv().APP_URL ?? `${req.protocol}://${req.get("host")}`).origin;
    delivery = await getPackageDelivery(slug, fileName, { cookie: req.headers.cookie, authorization: req.headers.authorization }, origin);
  } catch (error) {
    logger.error({ err: error, slug }, "package access check failed");
    res.status(500).set("Cache-Control", "no-store").json({ message: "Something went wrong" });
    return;
  }
  if (!delivery.ok) {
    res.status(delivery.status).set("Cache-Control", "private, no-store").json({ message: delivery.message });
    return;
  }
  const { pkg, file, cacheControl } = delivery;
  const name = file ? file.name : pkg.fileName;
  const contentDisposition = `attachment; filename="${name.replace(/[^A-Za-z0-9._-]/g, "_")}"`;
  const record = (sent: { bytes: number; rangeStart: number | null; complete: boolean }) =>
    void recordDownload(delivery.record, sent).catch((error) => logger.error({ err: error, slug }, "recording a download failed"));

  const source = file?.source;
  if (storageBackend() === "s3" && req.method === "GET" && !(source && "text" in source)) {
    const url = source
      ? "set" in source
        ? await presignedSetFileUrl(source.set, source.file, { contentDisposition, cacheControl }, PRESIGNED_GET_SECONDS)
        : await presignedObjectUrl(source.object, { contentDisposition, cacheControl, contentType: file!.contentType })
      : await bucketPackageUrl(
          `packages/${pkg.animation.id}/${pkg.contentHash}.zip`,
          pkg.plan.size,
          () => Readable.from(zipRange(pkg.plan, 0, pkg.plan.size - 1, (index, start, end) => openSource(pkg.files[index]!.source, start, end))),
          { contentDisposition },
          PRESIGNED_GET_SECONDS,
        );
    record({ bytes: file?.size ?? pkg.plan.size, rangeStart: null, complete: true });
    res.set("Cache-Control", "private, no-store").redirect(302, url);
    return;
  }

  const size = file ? file.size : pkg.plan.size;
  const plan = planResponse(req, res, {
    size,
    etag: file ? `"${file.sha256.slice(0, 32)}"` : pkg.etag,
    modified: pkg.modified,
    contentType: file ? file.contentType : "application/zip",
    cacheControl,
    contentDisposition,
    // The whole representation's SHA-256 (RFC 9530) where it is known before sending: a single file's.
    extraHeaders: file ? { "Repr-Digest": `sha-256=:${Buffer.from(file.sha256, "hex").toString("base64")}:` } : undefined,
  });
  if (!plan) return;
  const { start, end } = plan;
  res.writeHead(plan.status, plan.headers);
  if (req.method === "HEAD" || size === 0) {
    res.end();
    return;
  }
  const chunks = file
    ? await openSource(file.source, start, end)
    : zipRange(pkg.plan, start, end, (index, from, to) => openSource(pkg.files[index]!.source, from, to));
  const sent = await pump(chunks, res, slug);
  record({ bytes: sent, rangeStart: plan.ranged ? start : null, complete: sent === end - start + 1 });
}

/**
 * Writes the chunks with backpressure (waiting for 'drain'), stopping when the client goes away;
 * returns the bytes written. One 'close' listener for the whole response: a stream pipeline adds
 * its own beside those of every middleware, past Node's warning threshold.
 */
async function pump(chunks: AsyncIterable<Buffer | Uint8Array> | Iterable<Buffer | Uint8Array>, res: Response, slug: string) {
  let sent = 0;
  let drained: (() => void) | null = null;
  const gone = new Promise<void>((resolve) => res.once("close", resolve));
  const onDrain = () => drained?.();
  res.on("drain", onDrain);
  try {
    for await (const chunk of chunks) {
      if (res.destroyed) break;
      sent += chunk.length;
      if (!res.write(chunk)) {
        const drain = new Promise<void>((resolve) => (drained = resolve));
        await Promise.race([drain, gone]);
        drained = null;
        if (res.destroyed) break;
      }
    }
    if (!res.destroyed) res.end();
  } catch (error) {
    // The headers are out: all that is left is to cut the response short.
    logger.warn({ err: error, slug }, "streaming a package failed");
    res.destroy();
  } finally {
    res.off("drain", onDrain);
  }
  return sent;
}

function isPlaybackStart(range: string | undefined) {
  return range === undefined || /^bytes=0-$/.test(range.trim());
}

/** Bytes read from disk per step; at most two steps of one response are in flight. */
const STREAM_CHUNK = 256 * 1024;

/**
 * Streams bytes start..end of an open file, never holding more than two chunks. Each of two
 * buffers is read into in turn and reused only once the socket has taken its previous chunk,
 * which is also the backpressure. Measured against fs.createReadStream().pipe(res), this keeps
 * short range requests near the speed of a bare server behind Express (see bench/stream.ts):
 * two allocations per response instead of one per 64 KiB chunk. Buffers are never shared
 * between responses. A client that goes away ends the loop.
 */
async function sendFileRange(res: Response, handle: fs.promises.FileHandle, start: number, end: number, id: string) {
  const chunkSize = Math.min(STREAM_CHUNK, end - start + 1);
  const buffers = [Buffer.allocUnsafe(chunkSize), Buffer.allocUnsafe(chunkSize)] as const;
  const taken: [Promise<boolean> | null, Promise<boolean> | null] = [null, null];
  const gone = new Promise<boolean>((resolve) => res.once("close", () => resolve(false)));
  let position = start;
  try {
    for (let turn: 0 | 1 = 0; position <= end; turn = turn === 0 ? 1 : 0) {
      if (taken[turn] && !(await Promise.race([taken[turn], gone]))) return;
      if (res.destroyed) return;
      const buffer = buffers[turn];
      const { bytesRead } = await handle.read(buffer, 0, Math.min(chunkSize, end - position + 1), position);
      if (bytesRead === 0) throw new Error("the file is shorter than its recorded size");
      position += bytesRead;
      taken[turn] = new Promise((resolve) => res.write(buffer.subarray(0, bytesRead), (error) => resolve(!error)));
    }
    res.end();
  } catch (error) {
    // The headers are out: all that is left is to cut the response short.
    logger.warn({ err: error, id }, "streaming an object failed");
    res.destroy();
  } finally {
    await handle.close().catch(() => undefined);
  }
}

/** An object never changes under its id: its size and creation time name its one version. */
function objectEtag(size: number, createdAt: Date) {
  return `"${size.toString(16)}-${createdAt.getTime().toString(16)}"`;
}

/** If-None-Match wins over If-Modified-Since (RFC 9110 13.2.2). */
function isNotModified(req: Request, etag: string, modified: number) {
  const ifNoneMatch = req.headers["if-none-match"];
  if (ifNoneMatch) {
    return ifNoneMatch
      .split(",")
      .map((tag) => tag.trim())
      .some((tag) => tag === "*" || tag === etag || tag === `W/${etag}`);
  }
  const ifModifiedSince = req.headers["if-modified-since"];
  if (ifModifiedSince) {
    const since = Date.parse(ifModifiedSince);
    return !Number.isNaN(since) && modified <= since;
  }
  return false;
}

/** If-Range: the range applies only to the same representation (strong ETag or exact date). */
function rangeApplies(req: Request, etag: string, modified: number) {
  const ifRange = req.get("if-range");
  if (!ifRange) return true;
  if (ifRange.startsWith('"') || ifRange.startsWith("W/")) return ifRange === etag;
  const date = Date.parse(ifRange);
  return !Number.isNaN(date) && date === modified;
}

/**
 * One byte range: `bytes=a-b`, open-ended `bytes=a-`, suffix `bytes=-n`. A malformed or
 * multi-range header is ignored (the whole object is sent, as RFC 9110 allows); a range
 * starting past the end is unsatisfiable.
 */
export function parseRange(header: string | undefined, size: number): { start: number; end: number } | "unsatisfiable" | null {
  if (!header) return null;
  const match = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!match) return null;
  const [, first, last] = match;
  if (first === "" && last === "") return null;
  if (first === "") {
    const suffix = Number(last);
    if (suffix === 0 || size === 0) return "unsatisfiable";
    return { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(first);
  if (last !== "" && Number(last) < start) return null;
  if (start >= size) return "unsatisfiable";
  return { start, end: last === "" ? size - 1 : Math.min(Number(last), size - 1) };
}

async function receiveUpload(req: Request, res: Response) {
  const id = req.params.id as string;
  if (!isObjectId(id)) return notFound(res);
  res.set("Cache-Control", "no-store");
  try {
    const stored = await receiveSignedUpload(req, {
      id,
      query: req.query as Record<string, unknown>,
      contentLength: req.headers["content-length"],
    });
    res.status(200).json({ path: stored.path, size: stored.size });
  } catch (error) {
    if (error instanceof ServiceError) {
      // Unread bytes of a refused body are drained by Node after the answer.
      res.status(error.status).json({ message: error.message });
      return;
    }
    logger.error({ err: error, id }, "upload failed");
    if (!res.headersSent) res.status(500).json({ message: "Upload failed" });
  }
}
