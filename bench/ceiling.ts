// The machine's ceiling: a bare node:http server answering fixed bytes (the app's responses,
// captured by bench/run.ts), gzipped once up front when the client accepts gzip.
import fs from "node:fs";
import http from "node:http";
import zlib from "node:zlib";

type Payload = { contentType: string; body: string };
const payloads: Record<string, Payload> = JSON.parse(fs.readFileSync(process.env.CEILING_PAYLOADS!, "utf8"));
const prepared = new Map(
  Object.entries(payloads).map(([name, p]) => {
    const raw = Buffer.from(p.body);
    return [`/${name}`, { type: p.contentType, raw, gzip: zlib.gzipSync(raw) }] as const;
  }),
);

const server = http.createServer((req, res) => {
  const hit = prepared.get((req.url ?? "") as `/${string}`);
  if (!hit) {
    res.writeHead(404).end();
    return;
  }
  const gzip = /\bgzip\b/.test(String(req.headers["accept-encoding"] ?? ""));
  const body = gzip ? hit.gzip : hit.raw;
  res.writeHead(200, { "Content-Type": hit.type, "Content-Length": body.length, ...(gzip ? { "Content-Encoding": "gzip" } : {}) });
  res.end(body);
});
server.keepAliveTimeout = 65_000;
server.listen(Number(process.env.PORT ?? 3298), () => console.log("ceiling listening"));
process.on("SIGTERM", () => server.close(() => process.exit(0)));
