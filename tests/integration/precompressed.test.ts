import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import zlib from "node:zlib";
import compression from "compression";
import express from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { precompressedAssets } from "~/lib/precompressed.server.ts";
import { precompress } from "../../vite.precompress.ts";

// The build writes .gz (zopfli) and .br beside each script and stylesheet; the server sends
// them to browsers that take them, and the plain file to the others.

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "medanim-assets-"));
const script = `export const words = ${JSON.stringify("doctor verified medical animation ".repeat(200))};\n`;
let server: http.Server;
let base: string;

beforeAll(async () => {
  fs.writeFileSync(path.join(dir, "app-abc123.js"), script);
  fs.writeFileSync(path.join(dir, "tiny-abc123.js"), "export {};\n");
  const plugin = precompress();
  const writeBundle = plugin.writeBundle as (this: unknown, options: { dir: string }, bundle: Record<string, unknown>) => Promise<void>;
  await writeBundle.call({ environment: { name: "client" } }, { dir }, { "app-abc123.js": {}, "tiny-abc123.js": {} });

  const app = express();
  app.use(compression());
  app.use("/assets", precompressedAssets(dir));
  app.use("/assets", express.static(dir, { immutable: true, maxAge: "1y" }));
  server = app.listen(0);
  await new Promise((resolve) => server.once("listening", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
  fs.rmSync(dir, { recursive: true, force: true });
});

/** A raw GET: headers and the bytes as sent. */
function get(file: string, acceptEncoding?: string) {
  return new Promise<{ headers: http.IncomingHttpHeaders; body: Buffer }>((resolve, reject) => {
    http
      .get(`${base}/assets/${file}`, { headers: acceptEncoding ? { "accept-encoding": acceptEncoding } : {} }, (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c)).on("end", () => resolve({ headers: res.headers, body: Buffer.concat(chunks) }));
      })
      .on("error", reject);
  });
}

describe("precompressed scripts", () => {
  it("the build writes a gzip smaller than zlib's best and a brotli file, for files over 1 KB only", () => {
    const gz = fs.readFileSync(path.join(dir, "app-abc123.js.gz"));
    expect(zlib.gunzipSync(gz).toString()).toBe(script);
    expect(gz.length).toBeLessThanOrEqual(zlib.gzipSync(script, { level: 9 }).length);
    expect(zlib.brotliDecompressSync(fs.readFileSync(path.join(dir, "app-abc123.js.br"))).toString()).toBe(script);
    expect(fs.existsSync(path.join(dir, "tiny-abc123.js.gz"))).toBe(false);
  });

  it("sends brotli to browsers that take it, gzip to the others, with the script's type and caching", async () => {
    const br = await get("app-abc123.js", "gzip, deflate, br");
    expect(br.headers["content-encoding"]).toBe("br");
    expect(br.headers["content-type"]).toBe("text/javascript; charset=utf-8");
    expect(br.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
    expect(br.headers.vary).toMatch(/Accept-Encoding/);
    expect(zlib.brotliDecompressSync(br.body).toString()).toBe(script);

    const gz = await get("app-abc123.js", "gzip");
    expect(gz.headers["content-encoding"]).toBe("gzip");
    expect(gz.body).toEqual(fs.readFileSync(path.join(dir, "app-abc123.js.gz")));
  });

  it("sends the plain file without Accept-Encoding, and small files compressed on the fly", async () => {
    const plain = await get("app-abc123.js");
    expect(plain.headers["content-encoding"]).toBeUndefined();
    expect(plain.body.toString()).toBe(script);
    const tiny = await get("tiny-abc123.js", "br");
    expect(tiny.body.length).toBeGreaterThan(0);
    expect((await get("missing.js", "br")).headers["content-encoding"]).toBeUndefined();
  });
});
