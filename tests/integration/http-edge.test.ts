import http from "node:http";
import net from "node:net";
import type { AddressInfo } from "node:net";
import pino from "pino";
import type { RouterContextProvider } from "react-router";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { resetEnv } from "~/lib/env.server.ts";
import { logger } from "~/lib/logger.server.ts";
import { createUploadUrl } from "~/lib/upload.server.ts";
import { clientAddress } from "~/lib/rate-limit.server.ts";
import { createApp } from "~/server/app.ts";
import { fileBytes } from "./media-helpers.ts";
import { testServerBuild } from "../helpers/server-build.ts";

// The app factory (createApp: every middleware, the route table, the edge adapter), isolating the
// edge on purpose: its build holds a few routes made for this test that report what reached
// them (the address in the load context, the fields an action read, the bytes an /api action
// read), hold a response open or stream it. The real routes meet the same edge through
// tests/helpers/app.ts in every other integration test.

const reached: string[] = [];
let releaseStream: (value?: unknown) => void = () => undefined;

const route = (path: string, module: Record<string, unknown>) => ({ path, module });
const build = testServerBuild({
  whoami: route("whoami", {
    loader: ({ context }: { context: Readonly<RouterContextProvider> }) => Response.json({ clientIp: clientAddress(context) }),
  }),
  contact: route("contact", {
    loader: () => Response.json({ page: "contact" }),
    action: async ({ request }: { request: Request }) => {
      const form = await request.formData();
      reached.push(`contact:${form.get("message")?.toString().length ?? 0}`);
      return Response.json({ fields: [...form.keys()] });
    },
  }),
  slow: route("slow", {
    // Holds the response until the client goes away, then says whether the route was told.
    loader: ({ request }: { request: Request }) =>
      new Promise((resolve) => request.signal.addEventListener("abort", () => resolve(reached.push("slow:aborted")))),
  }),
  stream: route("stream", {
    loader: () =>
      new Response(
        new ReadableStream({
          async start(controller) {
            controller.enqueue(new TextEncoder().encode("first "));
            await new Promise((resolve) => (releaseStream = resolve));
            controller.enqueue(new TextEncoder().encode("last"));
            controller.close();
          },
        }),
        { headers: { "Content-Type": "text/plain" } },
      ),
  }),
  "api-echo": route("api/echo", {
    action: async ({ request }: { request: Request }) => {
      const text = await request.text();
      reached.push(`api:${text.length}`);
      return Response.json({ bytes: text.length });
    },
  }),
});

async function listen(app: http.RequestListener) {
  const server = http.createServer(app);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { server, port: (server.address() as AddressInfo).port };
}

let server: http.Server;
let port: number;
let base: string;

beforeAll(async () => {
  const app = await createApp({ mode: "production", build, routeRules: {} });
  ({ server, port } = await listen(app));
  base = `http://127.0.0.1:${port}`;
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
afterEach(() => void reached.splice(0));

/**
 * A refusal's message: `{ message }` on /api, the HTML page's paragraph on pages (a browser's
 * page request never gets a raw JSON error).
 */
function refusal(body: string): { message: string } {
  if (body.trimStart().startsWith("{")) return JSON.parse(body) as { message: string };
  const html = /<main><h1>[^<]*<\/h1><p>([^<]*)<\/p>/.exec(body);
  if (!html) throw new Error(`neither JSON nor the edge's HTML page: ${body.slice(0, 120)}`);
  return { message: html[1]!.replace(/&#(\d+);/g, (_, code: string) => String.fromCharCode(Number(code))) };
}

/** Writes the request bytes as given and reads the answer until the server closes. */
function rawRequest(bytes: string, to = port): Promise<{ status: number; headers: string; body: string }> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(to, "127.0.0.1", () => socket.write(bytes));
    const chunks: Buffer[] = [];
    socket.on("data", (chunk) => chunks.push(chunk));
    socket.on("error", reject);
    socket.on("end", () => {
      const text = Buffer.concat(chunks).toString("latin1");
      const split = text.indexOf("\r\n\r\n");
      const head = text.slice(0, split);
      resolve({ status: Number(head.split(" ")[1]), headers: head, body: text.slice(split + 4) });
    });
  });
}

const form = (body: string, headers: Record<string, string> = {}) => ({
  method: "POST",
  headers: { "Content-Type": "application/x-www-form-urlencoded", ...headers },
  body,
});

describe("methods", () => {
  // TRACK and CONNECT never get this far: Node's parser answers 400 to a method it does not
  // know, and closes a CONNECT (a tunnel request) when nothing listens for one.
  it("answers 405 with Allow to TRACE on pages and /api alike", async () => {
    for (const [method, path] of [
      ["TRACE", "/"],
      ["TRACE", "/api/echo"],
      ["TRACE", "/whoami?x=1"],
    ]) {
      const res = await rawRequest(`${method} ${path} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n`);
      expect(res.status, `${method} ${path}`).toBe(405);
      expect(res.headers).toMatch(/\r\nAllow: GET, HEAD, POST/);
      expect(refusal(res.body)).toEqual({ message: "Method not allowed" });
    }
  });

  it("answers 405 with Allow: GET, HEAD, POST to PUT, PATCH and DELETE on a page, and lets /api decide", async () => {
    for (const method of ["PUT", "PATCH", "DELETE"]) {
      const res = await fetch(`${base}/contact`, { ...form("a=1"), method });
      expect(res.status).toBe(405);
      expect(res.headers.get("allow")).toBe("GET, HEAD, POST");
      expect(refusal(await res.text())).toEqual({ message: "Method not allowed" });
    }
    expect((await fetch(`${base}/healthz`, { method: "DELETE" })).headers.get("allow")).toBe("GET, HEAD");
    // /api routes answer their own 405s; the edge lets the method through.
    const api = await fetch(`${base}/api/echo`, { method: "PUT", body: "{}" });
    expect(api.status).toBe(200);
    expect(reached).toEqual(["api:2"]);
  });

  it("answers 415 to a page POST that is not a form encoding, and keeps forms and .data posts working", async () => {
    const json = await fetch(`${base}/contact`, { method: "POST", headers: { "Content-Type": "application/json" }, body: '{"message":"hi"}' });
    expect(json.status).toBe(415);
    expect(refusal(await json.text())).toEqual({ message: "Forms must be sent as application/x-www-form-urlencoded or multipart/form-data" });
    const untyped = await rawRequest("POST /contact HTTP/1.1\r\nHost: localhost\r\nContent-Length: 9\r\nConnection: close\r\n\r\nmessage=x");
    expect(untyped.status).toBe(415);
    expect(reached).toEqual([]);

    expect((await fetch(`${base}/contact`, form("message=hello"))).status).toBe(200);
    const multipart = new FormData();
    multipart.set("message", "hello");
    expect((await fetch(`${base}/contact`, { method: "POST", body: multipart })).status).toBe(200);
    // React Router's client submits to /path.data with the form's own encoding.
    expect((await fetch(`${base}/contact.data`, form("message=hello"))).status).toBe(200);
    expect(reached).toEqual(["contact:5", "contact:5", "contact:5"]);
  });
});

describe("NUL characters and malformed URLs", () => {
  it("answers 400 to an encoded NUL in the path or query", async () => {
    for (const path of ["/animations/%00", "/api/animations/%00", "/search?q=%00", "/api/animations?search=a%00b", "/help?q=%00"]) {
      const res = await fetch(`${base}${path}`);
      expect(res.status, path).toBe(400);
      expect(refusal(await res.text())).toEqual({ message: "Request contains a NUL character" });
    }
  });

  it("answers 400 to a NUL in a url-encoded form body, encoded or raw, before the action sees it", async () => {
    for (const body of ["message=a%00b", "message=a\0b", `message=${"x".repeat(200_000)}%00`]) {
      const res = await fetch(`${base}/contact`, form(body));
      expect(res.status).toBe(400);
      expect(refusal(await res.text())).toEqual({ message: "Request contains a NUL character" });
    }
    // "%00" split over three chunks of a chunked body.
    const split = await rawRequest(
      "POST /contact HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/x-www-form-urlencoded\r\n" +
        "Transfer-Encoding: chunked\r\nConnection: close\r\n\r\n9\r\nmessage=%\r\n1\r\n0\r\n2\r\n0x\r\n0\r\n\r\n",
    );
    expect(split.status).toBe(400);
    const api = await fetch(`${base}/api/echo`, form("message=%00"));
    expect(api.status).toBe(400);
    expect(reached).toEqual([]);
  });

  it("answers 400 to broken percent-encoding and to dot segments in the path", async () => {
    for (const path of ["/api/%C0%AF", "/%E0%A4%A", "/api/..", "/api/./x", "/api/%2e%2E", "/api/x/%2E./y", "/a/.%2e/api/echo"]) {
      const res = await rawRequest(`GET ${path} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n`);
      expect(res.status, path).toBe(400);
      expect(refusal(res.body)).toEqual({ message: "Malformed URL" });
    }
    // Only the path's segments count: a query may hold "../".
    expect((await fetch(`${base}/whoami?file=../x`)).status).toBe(200);
  });
});

describe("Host and request target", () => {
  it("answers 400 to an empty or invalid Host, or an HTTP/1.0 request without one", async () => {
    for (const head of [
      "GET /whoami HTTP/1.1\r\nHost: \r\n",
      "GET /whoami HTTP/1.0\r\n",
      "GET /whoami HTTP/1.1\r\nHost: a b\r\n",
      "GET /whoami HTTP/1.1\r\nHost: x:99999\r\n",
    ]) {
      const res = await rawRequest(`${head}Connection: close\r\n\r\n`);
      expect(res.status, head).toBe(400);
      expect(refusal(res.body)).toEqual({ message: "A valid Host header is required" });
    }
  });

  it("answers 400 to a request with two Host headers (RFC 9112 section 3.2)", async () => {
    for (const hosts of ["Host: localhost\r\nHost: evil.example\r\n", "Host: localhost\r\nhost: localhost\r\n"]) {
      const res = await rawRequest(`GET /whoami HTTP/1.1\r\n${hosts}Connection: close\r\n\r\n`);
      expect(res.status, hosts).toBe(400);
      expect(res.body).toContain("exactly one Host header");
    }
  });

  it("serves an absolute-form target's path on the Host header's site", async () => {
    const res = await rawRequest("GET http://other.example/whoami HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n");
    expect(res.status).toBe(200);
    expect(res.body).toContain('{"clientIp":"127.0.0.1"}');
  });
});

describe("body limits", () => {
  it("answers 413 to a declared length over 1 MB on pages and /api, before reading it", async () => {
    const big = "x".repeat(1024 * 1024 + 10);
    const json = await fetch(`${base}/api/echo`, { method: "POST", headers: { "Content-Type": "application/json" }, body: big });
    expect(json.status).toBe(413);
    expect(refusal(await json.text())).toEqual({ message: "Request body must be at most 1 MB" });
    expect((await fetch(`${base}/contact`, form(`message=${big}`))).status).toBe(413);
    expect(reached).toEqual([]);
  });

  it("reads the rest of a body it refused before going on: the client's next request on the connection is answered", async () => {
    const body = "x".repeat(5 * 1024 * 1024);
    const declared = await rawRequest(
      `POST /api/echo HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body}` +
        "GET /whoami HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n",
    );
    expect(declared.status).toBe(413);
    expect(declared.body).toContain('{"clientIp":"127.0.0.1"}');
    const frames = Array.from({ length: 80 }, () => `10000\r\n${"x".repeat(0x10000)}\r\n`).join("");
    const chunked = await rawRequest(
      `POST /api/echo HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n${frames}0\r\n\r\n` +
        "GET /whoami HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n",
    );
    expect(chunked.status).toBe(413);
    expect(chunked.body).toContain('{"clientIp":"127.0.0.1"}');
    expect(reached).toEqual([]);
  });

  it("stops reading a refused body 16 MB later: a client that goes on sending is cut off after its answer", async () => {
    const declared = 1024 * 1024 * 1024;
    const { answer, sent } = await new Promise<{ answer: string; sent: number }>((resolve) => {
      const socket = net.connect(port, "127.0.0.1");
      let answer = "";
      let sent = 0;
      const chunk = Buffer.alloc(256 * 1024, "x");
      socket.on("data", (data) => (answer += data.toString("latin1")));
      const finish = () => resolve({ answer, sent });
      socket.on("error", finish);
      socket.on("close", finish);
      socket.write(`POST /api/echo HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: ${declared}\r\n\r\n`);
      const pump = () => {
        while (!socket.destroyed && sent < declared) {
          sent += chunk.length;
          if (!socket.write(chunk)) return void socket.once("drain", pump);
        }
      };
      pump();
    });
    expect(answer).toMatch(/^HTTP\/1\.1 413 /);
    expect(sent).toBeLessThan(64 * 1024 * 1024);
  });

  it("lets a client still sending read its 413: Node's fetch sends 5 MB thirty times and reads thirty 413s", async () => {
    const body = Buffer.alloc(5 * 1024 * 1024, "x");
    const statuses: number[] = [];
    for (let i = 0; i < 30; i++) {
      const answer = await fetch(`${base}/api/echo`, { method: "POST", headers: { "Content-Type": "application/json" }, body });
      statuses.push(answer.status);
      expect(refusal(await answer.text())).toEqual({ message: "Request body must be at most 1 MB" });
    }
    expect(statuses).toEqual(Array(30).fill(413));
    expect(reached).toEqual([]);
  });

  it("counts a chunked body as it streams: 413 once past 1 MB, fine below", async () => {
    const chunked = (path: string, type: string, bytes: number) => {
      const parts = [Buffer.from("message="), Buffer.alloc(bytes, "x")];
      return fetch(`${base}${path}`, {
        method: "POST",
        headers: { "Content-Type": type },
        body: new ReadableStream({ pull: (c) => (parts.length ? c.enqueue(parts.shift()) : c.close()) }),
        duplex: "half",
      } as RequestInit);
    };
    const over = await chunked("/contact", "application/x-www-form-urlencoded", 1024 * 1024);
    expect(over.status).toBe(413);
    expect(refusal(await over.text())).toEqual({ message: "Request body must be at most 1 MB" });
    expect((await chunked("/api/echo", "application/json", 1024 * 1024)).status).toBe(413);
    expect(reached).toEqual([]);
    expect((await chunked("/contact", "application/x-www-form-urlencoded", 1000)).status).toBe(200);
    expect(reached).toEqual(["contact:1000"]);
  });

  it("leaves uploads under /objects/ to the media router's own per-kind limits", async () => {
    const size = 3 * 1024 * 1024;
    const { uploadURL } = await createUploadUrl({ kind: "cover", fileName: "cover.png", size }, base);
    const res = await fetch(uploadURL, { method: "PUT", headers: { "Content-Type": "image/png" }, body: fileBytes("png", size) });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ size });
  });

  it("drops the unread body of a request answered without reading it, and serves the next one on the connection", async () => {
    const frames = Array.from({ length: 4 }, () => `4000\r\n${"x".repeat(0x4000)}\r\n`).join("");
    const res = await rawRequest(
      "POST /whoami HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/x-www-form-urlencoded\r\n" +
        `Transfer-Encoding: chunked\r\n\r\n${frames}0\r\n\r\n` +
        "GET /whoami HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n",
    );
    // /whoami has no action: React Router answers 405, then the second request is answered.
    expect(res.status).toBe(405);
    expect(res.body).toContain('{"clientIp":"127.0.0.1"}');
  });

  it("answers 413 to a 20 MB multipart body sent to a page before the client has sent it all", async () => {
    const total = 20 * 1024 * 1024;
    const { status, sent } = await new Promise<{ status: number; sent: number }>((resolve, reject) => {
      const req = http.request(`${base}/contact`, {
        method: "POST",
        headers: { "Content-Type": "multipart/form-data; boundary=b", Origin: base },
      });
      let sent = 0;
      let answered = false;
      const chunk = Buffer.alloc(64 * 1024, "x");
      req.on("response", (res) => {
        answered = true;
        res.resume();
        resolve({ status: res.statusCode!, sent });
      });
      // The server closes the connection after its answer: the rest of the body has nowhere to go.
      req.on("error", (error) => (answered ? undefined : reject(error)));
      req.write('--b\r\nContent-Disposition: form-data; name="file"; filename="a.bin"\r\n\r\n');
      const pump = () => {
        while (!answered && sent < total) {
          sent += chunk.length;
          if (!req.write(chunk)) return void req.once("drain", pump);
        }
        if (!answered) req.end("\r\n--b--\r\n");
      };
      pump();
    });
    expect(status).toBe(413);
    expect(sent).toBeLessThan(total);
    expect(reached).toEqual([]);
  });
});

describe("responses", () => {
  it("streams a response as the route produces it", async () => {
    const first = await new Promise<string>((resolve, reject) => {
      http
        .get(`${base}/stream`, (res) => {
          res.setEncoding("utf8");
          res.once("data", (chunk: string) => {
            resolve(chunk);
            releaseStream();
            res.resume();
          });
        })
        .on("error", reject);
    });
    expect(first).toBe("first ");
  });

  it("aborts the route's request when the client goes away", async () => {
    const req = http.get(`${base}/slow`);
    req.on("error", () => undefined);
    await new Promise((resolve) => setTimeout(resolve, 100));
    req.destroy();
    await expect.poll(() => reached).toEqual(["slow:aborted"]);
  });
});

describe("client address (TRUST_PROXY)", () => {
  const whoami = (at: string) => fetch(`${at}/whoami`, { headers: { "X-Forwarded-For": "203.0.113.7" } }).then((r) => r.json());

  it("ignores a forged X-Forwarded-For when TRUST_PROXY is unset", async () => {
    expect(await whoami(base)).toEqual({ clientIp: "127.0.0.1" });
  });

  async function whoamiWith(trustProxy: string) {
    process.env.TRUST_PROXY = trustProxy;
    resetEnv();
    try {
      const app = await createApp({ mode: "production", build, routeRules: {} });
      const proxied = await listen(app);
      try {
        return await whoami(`http://127.0.0.1:${proxied.port}`);
      } finally {
        await new Promise((resolve) => proxied.server.close(resolve));
      }
    } finally {
      delete process.env.TRUST_PROXY;
      resetEnv();
    }
  }

  it("takes the address a trusted proxy forwards: a hop count, or the proxy's address or subnet", async () => {
    expect(await whoamiWith("1")).toEqual({ clientIp: "203.0.113.7" });
    expect(await whoamiWith("10.0.0.0/8, 127.0.0.1")).toEqual({ clientIp: "203.0.113.7" });
    // The request comes from 127.0.0.1, which is not in 10.0.0.0/8: its header is not believed.
    expect(await whoamiWith("10.0.0.0/8")).toEqual({ clientIp: "127.0.0.1" });
  });

  it("refuses to start with a TRUST_PROXY it cannot read", async () => {
    await expect(whoamiWith("the load balancer")).rejects.toThrow(/TRUST_PROXY: expected a hop count/);
  });
});

describe("logs", () => {
  it("logs a refused or unmatched request as one warning line, without a stack", async () => {
    const stream = (logger as unknown as Record<symbol, { write: (line: string) => void }>)[pino.symbols.streamSym]!;
    const write = stream.write;
    const lines: Array<{ level: number; msg: string; err?: { stack?: string } }> = [];
    stream.write = (line: string) => void lines.push(JSON.parse(line));
    logger.level = "info";
    try {
      await rawRequest("TRACE / HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n");
      for (const res of [await fetch(`${base}/api/%C0%AF`), await fetch(`${base}/contact`, form("message=%00")), await fetch(`${base}/no-such-page`)]) {
        await res.text();
      }
    } finally {
      logger.level = "silent";
      stream.write = write;
    }
    expect(lines.map((line) => line.level)).toEqual([40, 40, 40, 40]);
    expect(lines.some((line) => line.err?.stack)).toBe(false);
  });
});
