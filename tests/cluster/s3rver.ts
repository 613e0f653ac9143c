import fs from "node:fs";
import os from "node:os";
import path from "node:path";
// s3rver ships no types; its constructor and run/close are all this uses.
// @ts-expect-error -- untyped CommonJS package
import S3rver from "s3rver";

// A real S3-compatible server (s3rver) on this machine, with the bucket and the CORS rule a
// deployment's bucket has: browsers PUT to presigned URLs and play from presigned GETs.
const CORS = `<?xml version="1.0" encoding="UTF-8"?>
<CORSConfiguration>
  <CORSRule>
    <AllowedOrigin>*</AllowedOrigin>
    <AllowedMethod>GET</AllowedMethod>
    <AllowedMethod>HEAD</AllowedMethod>
    <AllowedMethod>PUT</AllowedMethod>
    <AllowedHeader>*</AllowedHeader>
    <ExposeHeader>ETag</ExposeHeader>
    <ExposeHeader>Content-Range</ExposeHeader>
    <MaxAgeSeconds>3000</MaxAgeSeconds>
  </CORSRule>
</CORSConfiguration>`;

/** s3rver's fixed credentials: it checks signatures made with them. */
export const S3RVER_KEY = "S3RVER";

export async function startS3rver({ port, bucket }: { port: number; bucket: string }) {
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), "medanim-s3rver-"));
  const server = new S3rver({ address: "127.0.0.1", port, silent: true, directory, configureBuckets: [{ name: bucket, configs: [CORS] }] });
  await server.run();
  return {
    endpoint: `http://127.0.0.1:${port}`,
    env: {
      S3_BUCKET: bucket,
      S3_REGION: "us-east-1",
      S3_ENDPOINT: `http://127.0.0.1:${port}`,
      S3_ACCESS_KEY_ID: S3RVER_KEY,
      S3_SECRET_ACCESS_KEY: S3RVER_KEY,
      S3_FORCE_PATH_STYLE: "true",
    },
    async close() {
      await server.close();
      fs.rmSync(directory, { recursive: true, force: true });
    },
  };
}
