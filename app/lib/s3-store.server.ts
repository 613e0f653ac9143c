import type { Readable } from "node:stream";
import {
  DeleteObjectCommand,
  DeleteObjectsCommand,
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
} from "@aws-sdk/client-s3";
import { getSignedUrl } from "@aws-sdk/s3-request-presigner";
import { getEnv } from "./env.server.ts";

export type PresignedGetOptions = { method?: "GET" | "HEAD"; contentDisposition?: string; cacheControl?: string; contentType?: string };

// The S3 backend of app/lib/storage.server.ts, imported by it on first use in S3 mode only.
// Ids are checked there; keys are uploads/{id}.

let s3: { client: S3Client; signature: string } | undefined;

function s3Client(): S3Client {
  const env = getEnv();
  const signature = [env.S3_REGION, env.S3_ENDPOINT, env.S3_ACCESS_KEY_ID, env.S3_FORCE_PATH_STYLE].join("|");
  if (!s3 || s3.signature !== signature) {
    s3?.client.destroy();
    const client = new S3Client({
      region: env.S3_REGION,
      endpoint: env.S3_ENDPOINT,
      forcePathStyle: env.S3_FORCE_PATH_STYLE,
      credentials:
        env.S3_ACCESS_KEY_ID && env.S3_SECRET_ACCESS_KEY ? { accessKeyId: env.S3_ACCESS_KEY_ID, secretAccessKey: env.S3_SECRET_ACCESS_KEY } : undefined,
      // Checksums only where S3 requires them: S3-compatible stores often reject the newer
      // default trailers, and a checksum parameter in a presigned PUT breaks browser uploads.
      requestChecksumCalculation: "WHEN_REQUIRED",
      responseChecksumValidation: "WHEN_REQUIRED",
    });
    s3 = { client, signature };
  }
  return s3.client;
}

const key = (id: string) => `uploads/${id}`;
const bucket = () => getEnv().S3_BUCKET;

/** The bucket exists and these credentials reach it (/readyz). */
export async function headBucket(signal?: AbortSignal) {
  await s3Client().send(new HeadBucketCommand({ Bucket: bucket() }), { abortSignal: signal });
}

export function presignGet(id: string, options: PresignedGetOptions, expiresIn: number) {
  const command =
    options.method === "HEAD"
      ? new HeadObjectCommand({ Bucket: bucket(), Key: key(id) })
      : new GetObjectCommand({
          Bucket: bucket(),
          Key: key(id),
          ResponseContentDisposition: options.contentDisposition,
          ResponseCacheControl: options.cacheControl,
          ResponseContentType: options.contentType,
        });
  return getSignedUrl(s3Client(), command, { expiresIn });
}

export function presignPut(id: string, { contentType, size }: { contentType?: string; size?: number }, expiresIn: number) {
  const command = new PutObjectCommand({ Bucket: bucket(), Key: key(id), ContentType: contentType, ContentLength: size });
  return getSignedUrl(s3Client(), command, {
    expiresIn,
    signableHeaders: new Set([...(contentType ? ["content-type"] : []), ...(size === undefined ? [] : ["content-length"])]),
  });
}

export async function readHead(id: string, length: number) {
  try {
    const head = await s3Client().send(new HeadObjectCommand({ Bucket: bucket(), Key: key(id) }));
    const size = Number(head.ContentLength ?? 0);
    if (size === 0) return { size, bytes: Buffer.alloc(0), contentType: head.ContentType };
    const got = await s3Client().send(new GetObjectCommand({ Bucket: bucket(), Key: key(id), Range: `bytes=0-${length - 1}` }));
    const bytes = Buffer.from(await got.Body!.transformToByteArray());
    return { size, bytes: bytes.subarray(0, length), contentType: head.ContentType };
  } catch (error) {
    const status = (error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
    const name = (error as { name?: string }).name;
    if (status === 404 || name === "NotFound" || name === "NoSuchKey") return null;
    throw error;
  }
}

/** `length` bytes from `start` (an archive's directory at its end, without reading the rest). */
export async function readRange(id: string, start: number, length: number) {
  const got = await s3Client().send(new GetObjectCommand({ Bucket: bucket(), Key: key(id), Range: `bytes=${start}-${start + length - 1}` }));
  return Buffer.from(await got.Body!.transformToByteArray());
}

export async function put(id: string, body: Readable, contentType: string, size: number) {
  await s3Client().send(new PutObjectCommand({ Bucket: bucket(), Key: key(id), Body: body, ContentLength: size, ContentType: contentType }));
}

export async function remove(id: string) {
  await s3Client().send(new DeleteObjectCommand({ Bucket: bucket(), Key: key(id) }));
}

// ---- media sets (media-store.server.ts): keys media/{setId}/{file}, written once, never changed ----

export async function putKey(key: string, body: Readable, contentType: string, size: number, cacheControl: string) {
  await s3Client().send(
    new PutObjectCommand({ Bucket: bucket(), Key: key, Body: body, ContentLength: size, ContentType: contentType, CacheControl: cacheControl }),
  );
}

export function presignGetKey(key: string, options: PresignedGetOptions, expiresIn: number) {
  const command =
    options.method === "HEAD"
      ? new HeadObjectCommand({ Bucket: bucket(), Key: key })
      : new GetObjectCommand({
          Bucket: bucket(),
          Key: key,
          ResponseContentDisposition: options.contentDisposition,
          ResponseCacheControl: options.cacheControl,
          ResponseContentType: options.contentType,
        });
  return getSignedUrl(s3Client(), command, { expiresIn });
}

/** Bytes `start`..`end` (inclusive) of a key, as a stream: a package reads its files this way. */
export async function streamKey(key: string, start: number, end: number): Promise<Readable> {
  const got = await s3Client().send(new GetObjectCommand({ Bucket: bucket(), Key: key, Range: `bytes=${start}-${end}` }));
  return got.Body as Readable;
}

export async function readKey(key: string): Promise<Buffer | null> {
  try {
    const got = await s3Client().send(new GetObjectCommand({ Bucket: bucket(), Key: key }));
    return Buffer.from(await got.Body!.transformToByteArray());
  } catch (error) {
    const status = (error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
    if (status === 404 || (error as { name?: string }).name === "NoSuchKey") return null;
    throw error;
  }
}

/** Deletes every key under a prefix, a page of 1,000 at a time. */
export async function removePrefix(prefix: string) {
  for (;;) {
    const listed = await s3Client().send(new ListObjectsV2Command({ Bucket: bucket(), Prefix: prefix, MaxKeys: 1000 }));
    const keys = (listed.Contents ?? []).map((object) => ({ Key: object.Key! }));
    if (keys.length === 0) return;
    await s3Client().send(new DeleteObjectsCommand({ Bucket: bucket(), Delete: { Objects: keys, Quiet: true } }));
    if (!listed.IsTruncated) return;
  }
}

/** Deletes one key (a backup archive past the number kept); a key already gone is not an error. */
export async function removeKey(key: string) {
  await s3Client().send(new DeleteObjectCommand({ Bucket: bucket(), Key: key }));
}

/** A key's size (a HEAD), or null when there is no such key. */
export async function keySize(key: string): Promise<number | null> {
  try {
    const head = await s3Client().send(new HeadObjectCommand({ Bucket: bucket(), Key: key }));
    return Number(head.ContentLength ?? 0);
  } catch (error) {
    const status = (error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
    if (status === 404 || (error as { name?: string }).name === "NotFound") return null;
    throw error;
  }
}

/** Whether a key exists (a HEAD). */
export async function hasKey(key: string) {
  try {
    await s3Client().send(new HeadObjectCommand({ Bucket: bucket(), Key: key }));
    return true;
  } catch (error) {
    const status = (error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
    if (status === 404 || (error as { name?: string }).name === "NotFound") return false;
    throw error;
  }
}

/** Every key of the bucket with its size and ETag, a page of 1,000 at a time (a backup's list of the store). */
export async function* listKeys(): AsyncGenerator<{ key: string; size: number; etag: string }> {
  let token: string | undefined;
  do {
    const listed = await s3Client().send(new ListObjectsV2Command({ Bucket: bucket(), ContinuationToken: token, MaxKeys: 1000 }));
    for (const object of listed.Contents ?? []) yield { key: object.Key!, size: Number(object.Size ?? 0), etag: object.ETag ?? "" };
    token = listed.IsTruncated ? listed.NextContinuationToken : undefined;
  } while (token);
}
