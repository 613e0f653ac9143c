import { http, HttpResponse } from "msw";

// A private S3 bucket at S3's HTTP edge (path-style URLs), for msw's setupServer. Requests
// without a SigV4 signature (header or presigned query) are refused, as S3 would for a
// private bucket. Objects live in memory; every request is recorded.

export type S3Object = { body: Buffer; contentType: string | null };

/** The S3_* variables that point the app at this mock (a file sets them, then deletes them after). */
export function s3MockEnv(endpoint: string, bucket: string) {
  return {
    S3_BUCKET: bucket,
    S3_ENDPOINT: endpoint,
    S3_REGION: "eu-west-1",
    S3_ACCESS_KEY_ID: "AKIATESTTESTTEST",
    S3_SECRET_ACCESS_KEY: "test-secret-key",
    S3_FORCE_PATH_STYLE: "true",
  };
}

export function createS3Mock(endpoint: string, bucket: string) {
  const objects = new Map<string, S3Object>();
  const requests: { method: string; url: URL; headers: Headers }[] = [];
  const base = `${endpoint}/${bucket}`;

  const keyOf = (url: URL) => decodeURIComponent(url.pathname.slice(`/${bucket}/`.length));
  const isSigned = (request: Request, url: URL) =>
    url.searchParams.has("X-Amz-Signature") || /^AWS4-HMAC-SHA256 /.test(request.headers.get("authorization") ?? "");
  const accessDenied = () =>
    new HttpResponse("<Error><Code>AccessDenied</Code><Message>Access Denied</Message></Error>", {
      status: 403,
      headers: { "Content-Type": "application/xml" },
    });
  const noSuchKey = () =>
    new HttpResponse("<Error><Code>NoSuchKey</Code><Message>The specified key does not exist.</Message></Error>", {
      status: 404,
      headers: { "Content-Type": "application/xml" },
    });

  function record(request: Request) {
    const url = new URL(request.url);
    requests.push({ method: request.method, url, headers: new Headers(request.headers) });
    return url;
  }

  /** The headers and body S3 would send for a GET (with an optional single range). */
  function objectResponse(request: Request, url: URL, object: S3Object, headOnly: boolean) {
    const size = object.body.length;
    const headers = new Headers({
      "Content-Type": url.searchParams.get("response-content-type") ?? object.contentType ?? "binary/octet-stream",
      "Accept-Ranges": "bytes",
      ETag: `"${size}"`,
    });
    const disposition = url.searchParams.get("response-content-disposition");
    if (disposition) headers.set("Content-Disposition", disposition);
    const cacheControl = url.searchParams.get("response-cache-control");
    if (cacheControl) headers.set("Cache-Control", cacheControl);
    const range = /^bytes=(\d+)-(\d*)$/.exec(request.headers.get("range") ?? "");
    if (range) {
      const start = Number(range[1]);
      const end = Math.min(range[2] ? Number(range[2]) : size - 1, size - 1);
      headers.set("Content-Range", `bytes ${start}-${end}/${size}`);
      headers.set("Content-Length", String(end - start + 1));
      return new HttpResponse(headOnly ? null : object.body.subarray(start, end + 1), { status: 206, headers });
    }
    headers.set("Content-Length", String(size));
    return new HttpResponse(headOnly ? null : object.body, { status: 200, headers });
  }

  const xmlText = (text: string) => text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
  /** ListObjectsV2: keys in order, a page of max-keys, continued after the token (the last key of the page before). */
  const list = ({ request }: { request: Request }) => {
    const url = record(request);
    if (!isSigned(request, url)) return accessDenied();
    const prefix = url.searchParams.get("prefix") ?? "";
    const after = url.searchParams.get("continuation-token") ?? "";
    const max = Number(url.searchParams.get("max-keys") ?? 1000);
    const keys = [...objects.keys()].filter((key) => key.startsWith(prefix) && key > after).sort();
    const page = keys.slice(0, max);
    const truncated = keys.length > page.length;
    const contents = page
      .map(
        (key) =>
          `<Contents><Key>${xmlText(key)}</Key><Size>${objects.get(key)!.body.length}</Size><ETag>&quot;${objects.get(key)!.body.length}&quot;</ETag></Contents>`,
      )
      .join("");
    const body = `<?xml version="1.0" encoding="UTF-8"?><ListBucketResult><Name>${bucket}</Name><Prefix>${xmlText(prefix)}</Prefix><KeyCount>${page.length}</KeyCount><MaxKeys>${max}</MaxKeys><IsTruncated>${truncated}</IsTruncated>${truncated ? `<NextContinuationToken>${xmlText(page.at(-1)!)}</NextContinuationToken>` : ""}${contents}</ListBucketResult>`;
    return new HttpResponse(body, { status: 200, headers: { "Content-Type": "application/xml" } });
  };

  const handlers = [
    http.get(base, list),
    http.get(`${base}/`, list),
    http.put(`${base}/*`, async ({ request }) => {
      const url = record(request);
      if (!isSigned(request, url)) return accessDenied();
      objects.set(keyOf(url), { body: Buffer.from(await request.arrayBuffer()), contentType: request.headers.get("content-type") });
      return new HttpResponse(null, { status: 200, headers: { ETag: '"stored"' } });
    }),
    http.get(`${base}/*`, ({ request }) => {
      const url = record(request);
      if (!isSigned(request, url)) return accessDenied();
      const object = objects.get(keyOf(url));
      return object ? objectResponse(request, url, object, false) : noSuchKey();
    }),
    http.head(`${base}/*`, ({ request }) => {
      const url = record(request);
      if (!isSigned(request, url)) return accessDenied();
      const object = objects.get(keyOf(url));
      return object ? objectResponse(request, url, object, true) : new HttpResponse(null, { status: 404 });
    }),
    http.delete(`${base}/*`, ({ request }) => {
      const url = record(request);
      if (!isSigned(request, url)) return accessDenied();
      objects.delete(keyOf(url));
      return new HttpResponse(null, { status: 204 });
    }),
  ];

  return { handlers, objects, requests, base };
}
