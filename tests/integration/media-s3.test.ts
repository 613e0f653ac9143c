import { execFileSync } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { setupServer } from "msw/node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ServiceError } from "~/lib/errors.server.ts";
import { prisma } from "~/lib/db.server.ts";
import { getEnv, resetEnv } from "~/lib/env.server.ts";
import { objectIdFromPath, saveObject, storageOrigin } from "~/lib/storage.server.ts";
import { confirmUpload } from "~/lib/upload.server.ts";
import { publishSet } from "~/lib/media-store.server.ts";
import { setFileCacheControl, signGrant } from "~/services/media/media-urls.server.ts";
import * as upload from "~/routes/api/objects.upload.ts";
import { callRoute } from "../helpers/route.ts";
import { createS3Mock, s3MockEnv } from "../mocks/s3.ts";
import { createMediaWorld, fileBytes, startMediaApp } from "./media-helpers.ts";

// S3 mode: the SDK talks to a private bucket at S3's HTTP edge (answered by msw). Uploads get a
// presigned PUT; permitted GETs a 302 to a presigned GET; saveObject PUTs to the bucket.

const ENDPOINT = "https://s3.test.local";
const BUCKET = "medanim-test";
const s3 = createS3Mock(ENDPOINT, BUCKET);
const S3_ENV = s3MockEnv(ENDPOINT, BUCKET);
const mockServer = setupServer(...s3.handlers);

let app: Awaited<ReturnType<typeof startMediaApp>>;
let world: Awaited<ReturnType<typeof createMediaWorld>>;

beforeAll(async () => {
  Object.assign(process.env, S3_ENV);
  resetEnv();
  // The local test app is reached for real; only S3 is answered by the mock.
  mockServer.listen({ onUnhandledRequest: "bypass" });
  app = await startMediaApp();
  world = await createMediaWorld();
});

afterAll(async () => {
  await app.close();
  mockServer.close();
  for (const name of Object.keys(S3_ENV)) delete process.env[name];
  resetEnv();
});

describe("saveObject in S3 mode", () => {
  it("PUTs the bytes to the bucket under uploads/{id} and records the object", async () => {
    const body = fileBytes("mp4", 10_000);
    const stored = await saveObject({ body, contentType: "video/mp4", kind: "video" });
    const object = s3.objects.get(`uploads/${stored.id}`);
    expect(object?.body.equals(body)).toBe(true);
    expect(object?.contentType).toBe("video/mp4");
    const put = s3.requests.find((r) => r.method === "PUT" && r.url.pathname === `/${BUCKET}/uploads/${stored.id}`);
    expect(put?.headers.get("authorization")).toMatch(/^AWS4-HMAC-SHA256 Credential=AKIATESTTESTTEST\//);
    const row = await prisma.storedObject.findUnique({ where: { id: stored.id } });
    expect(row).toMatchObject({ kind: "video", contentType: "video/mp4", size: BigInt(10_000) });
    // Nothing is kept on the local disk.
    expect(fs.existsSync(path.join(getEnv().DATA_DIR, "objects", stored.id))).toBe(false);
    expect(fs.readdirSync(path.join(getEnv().DATA_DIR, "objects", ".tmp"))).toEqual([]);
  });
});

describe("POST /api/objects/upload in S3 mode", () => {
  it("answers a presigned PUT at the S3 endpoint whose last segment is the object id", async () => {
    const result = await callRoute(upload, `${app.url}/api/objects/upload`, {
      json: { kind: "cover", fileName: "heart.png", contentType: "image/png", size: 20_000 },
      cookie: world.cookies.admin,
    });
    expect(result.status).toBe(200);
    const url = new URL(result.body.uploadURL);
    expect(url.origin).toBe(ENDPOINT);
    expect(url.pathname).toMatch(new RegExp(`^/${BUCKET}/uploads/[0-9a-f-]{36}$`));
    expect(url.searchParams.get("X-Amz-Signature")).toMatch(/^[0-9a-f]{64}$/);
    expect(url.searchParams.get("X-Amz-Expires")).toBe("900");
    // The declared type and size are signed: S3 refuses a different one.
    expect(url.searchParams.get("X-Amz-SignedHeaders")?.split(";")).toEqual(expect.arrayContaining(["content-type", "host"]));
    const id = url.pathname.split("/").at(-1)!;
    expect(result.body.path).toBe(`/objects/uploads/${id}`);
    expect(storageOrigin()).toBe(url.origin);

    // The browser PUTs the file there, then the form confirms the upload before attaching it.
    const body = fileBytes("png", 20_000);
    const put = await fetch(url, { method: "PUT", body, headers: { "Content-Type": "image/png" } });
    expect(put.status).toBe(200);
    expect(s3.objects.get(`uploads/${id}`)?.body.equals(body)).toBe(true);
    const info = await confirmUpload(result.body.path, "cover");
    expect(info).toMatchObject({ id, kind: "cover", contentType: "image/png", size: 20_000 });
  });

  it("refuses a presigned upload whose content does not match, and deletes it", async () => {
    const result = await callRoute(upload, `${app.url}/api/objects/upload`, {
      json: { kind: "download", fileName: "pack.zip", contentType: "application/zip" },
      cookie: world.cookies.admin,
    });
    const url = new URL(result.body.uploadURL);
    await fetch(url, { method: "PUT", body: Buffer.from("MZ not a zip"), headers: { "Content-Type": "application/zip" } });
    const id = url.pathname.split("/").at(-1)!;
    expect(s3.objects.has(`uploads/${id}`)).toBe(true);
    await expect(confirmUpload(result.body.path, "download")).rejects.toBeInstanceOf(ServiceError);
    expect(s3.objects.has(`uploads/${id}`)).toBe(false);
    expect(await prisma.storedObject.findUnique({ where: { id } })).toBeNull();
  });

  it("still refuses non-admins", async () => {
    const json = { kind: "cover", fileName: "a.jpg" };
    expect((await callRoute(upload, `${app.url}/api/objects/upload`, { json })).status).toBe(401);
    expect((await callRoute(upload, `${app.url}/api/objects/upload`, { json, cookie: world.cookies.premium })).status).toBe(403);
  });
});

describe("GET /objects/uploads/{id} in S3 mode", () => {
  // Redirects are followed by hand: the app is reached for real, S3 only through msw.
  function get(objectPath: string, cookie?: string) {
    return fetch(`${app.url}${objectPath}`, { headers: cookie ? { Cookie: cookie } : {}, redirect: "manual" });
  }

  it("keeps the bucket private: an unsigned request is refused by S3", async () => {
    const response = await fetch(`${ENDPOINT}/${BUCKET}/uploads/${world.objects.cover.id}`);
    expect(response.status).toBe(403);
  });

  it("redirects a public object to a presigned GET valid five minutes", async () => {
    const response = await get(world.objects.cover.path);
    expect(response.status).toBe(302);
    const location = new URL(response.headers.get("location")!);
    expect(location.origin).toBe(ENDPOINT);
    expect(location.pathname).toBe(`/${BUCKET}/uploads/${world.objects.cover.id}`);
    expect(location.searchParams.get("X-Amz-Signature")).toMatch(/^[0-9a-f]{64}$/);
    expect(location.searchParams.get("X-Amz-Expires")).toBe("300");
    expect(location.searchParams.get("response-cache-control")).toBe("public, max-age=31536000, immutable");
    expect(response.headers.get("cache-control")).toBe("public, max-age=60");

    const followed = await fetch(location);
    expect(followed.status).toBe(200);
    expect(followed.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    expect(Buffer.from(await followed.arrayBuffer()).equals(world.objects.cover.body)).toBe(true);
  });

  it("redirects only those with the right, with private caching", async () => {
    expect((await get(world.objects.full.path)).status).toBe(401);
    expect((await get(world.objects.full.path, world.cookies.free)).status).toBe(403);
    const premium = await get(world.objects.full.path, world.cookies.premium);
    expect(premium.status).toBe(302);
    expect(premium.headers.get("cache-control")).toBe("private, no-store");
    const location = new URL(premium.headers.get("location")!);
    expect(location.searchParams.get("response-cache-control")).toBe("private, no-store");
  });

  it("names the download file after the animation in the presigned GET", async () => {
    expect((await get(world.objects.download.path, world.cookies.premium)).status).toBe(403);
    const response = await get(world.objects.download.path, world.cookies.individual);
    expect(response.status).toBe(302);
    const location = new URL(response.headers.get("location")!);
    expect(location.searchParams.get("response-content-disposition")).toBe(`attachment; filename="${world.slug}.zip"`);
    const followed = await fetch(location);
    expect(followed.headers.get("content-disposition")).toBe(`attachment; filename="${world.slug}.zip"`);
    expect(Buffer.from(await followed.arrayBuffer()).equals(world.objects.download.body)).toBe(true);
  });

  it("passes a viewer's Range through to the store", async () => {
    const location = (await get(world.objects.full.path, world.cookies.premium)).headers.get("location")!;
    const ranged = await fetch(location, { headers: { Range: "bytes=0-99" } });
    expect(ranged.status).toBe(206);
    expect(Buffer.from(await ranged.arrayBuffer()).equals(world.objects.full.body.subarray(0, 100))).toBe(true);
  });

  it("sends caption files itself: a <track> does not follow a redirect to the bucket's origin", async () => {
    const vtt = Buffer.from("WEBVTT\n\n00:00.000 --> 00:02.000\nThe nasal framework.\n");
    const stored = await saveObject({ body: vtt, contentType: "text/vtt", kind: "caption" });
    await prisma.animationCaption.create({ data: { animationId: world.animation.id, language: "en", label: "English", path: stored.path } });
    const response = await get(stored.path);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/vtt");
    expect(response.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    expect(Buffer.from(await response.arrayBuffer()).equals(vtt)).toBe(true);
    const again = await fetch(`${app.url}${stored.path}`, { headers: { "If-None-Match": response.headers.get("etag")! } });
    expect(again.status).toBe(304);
  });

  it("answers a missing object like a protected one", async () => {
    const missing = `/objects/uploads/${crypto.randomUUID()}`;
    expect((await get(missing)).status).toBe(401);
    expect((await get(missing, world.cookies.free)).status).toBe(403);
    expect(objectIdFromPath(missing)).not.toBeNull();
  });
});

describe("media pipeline sets in S3 mode", () => {
  it("are published to media/{set}/… in the bucket; playlists are relayed, everything else is a 302 to a presigned GET", async () => {
    const setId = crypto.randomUUID();
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "medanim-s3-set-"));
    const files: Record<string, string | Buffer> = {
      "hls/master.m3u8": '#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=900000,RESOLUTION=640x360,CODECS="avc1.64001e,mp4a.40.2"\n360p/index.m3u8\n',
      "hls/360p/index.m3u8": '#EXTM3U\n#EXT-X-MAP:URI="init.mp4"\n#EXTINF:4.0,\nseg-00000.m4s\n#EXT-X-ENDLIST\n',
      "hls/360p/init.mp4": fileBytes("mp4", 800),
      "hls/360p/seg-00000.m4s": crypto.randomBytes(2000),
      "preview.mp4": fileBytes("mp4", 1500),
      ".done/hls": "",
    };
    for (const [name, body] of Object.entries(files)) {
      fs.mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
      fs.writeFileSync(path.join(dir, name), body);
    }
    await publishSet(setId, dir, setFileCacheControl);
    expect(s3.objects.get(`media/${setId}/hls/master.m3u8`)?.contentType).toBe("application/vnd.apple.mpegurl");
    expect(s3.objects.get(`media/${setId}/hls/360p/seg-00000.m4s`)?.contentType).toBe("video/iso.segment");
    // The job's markers stay on the worker's disk.
    expect(s3.objects.has(`media/${setId}/.done/hls`)).toBe(false);
    await prisma.mediaSet.create({
      data: {
        id: setId,
        animationId: world.animation.id,
        sourcePath: world.animation.fullVideo!,
        sourceWidth: 640,
        sourceHeight: 360,
        duration: 4,
        frameRate: 25,
        hasAudio: true,
      },
    });

    const grant = signGrant(setId, { kind: "u", userId: world.users.premium.id }, 600);
    const master = await fetch(`${app.url}/media/${setId}/${grant}/hls/master.m3u8`, { redirect: "manual" });
    expect(master.status).toBe(200);
    expect(await master.text()).toContain("360p/index.m3u8");
    const segment = await fetch(`${app.url}/media/${setId}/${grant}/hls/360p/seg-00000.m4s`, { redirect: "manual" });
    expect(segment.status).toBe(302);
    const location = new URL(segment.headers.get("location")!);
    expect(location.origin + location.pathname).toBe(`${ENDPOINT}/${BUCKET}/media/${setId}/hls/360p/seg-00000.m4s`);
    expect(location.searchParams.get("X-Amz-Signature")).toBeTruthy();
    expect(segment.headers.get("cache-control")).toBe("private, no-store");
    const bytes = await fetch(location);
    expect(Buffer.from(await bytes.arrayBuffer()).equals(files["hls/360p/seg-00000.m4s"] as Buffer)).toBe(true);

    const preview = await fetch(`${app.url}/media/${setId}/public/preview.mp4`, { redirect: "manual" });
    expect(preview.status).toBe(302);
    expect(preview.headers.get("cache-control")).toBe("public, max-age=60");
    // Without the right, no redirect is handed out.
    const stranger = signGrant(setId, { kind: "u", userId: world.users.free.id }, 600);
    expect((await fetch(`${app.url}/media/${setId}/${stranger}/hls/360p/seg-00000.m4s`, { redirect: "manual" })).status).toBe(403);
    fs.rmSync(dir, { recursive: true, force: true });
  });
});

describe("image renditions in S3 mode", () => {
  it("are put in the bucket beside the original on first request and sent from there by a presigned 302", async () => {
    const { default: sharp } = await import("sharp");
    const jpeg = await sharp({ create: { width: 640, height: 360, channels: 3, background: "#336699" } })
      .jpeg()
      .toBuffer();
    const stored = await saveObject({ body: jpeg, contentType: "image/jpeg", kind: "cover" });
    await prisma.animation.update({ where: { id: world.animation.id }, data: { coverImage: stored.path } });

    const first = await fetch(`${app.url}${stored.path}/16x9-320.webp`, { redirect: "manual" });
    expect(first.status).toBe(302);
    expect(first.headers.get("cache-control")).toBe("public, max-age=60");
    const location = new URL(first.headers.get("location")!);
    expect(location.origin + location.pathname).toBe(`${ENDPOINT}/${BUCKET}/renditions/${stored.id}/16x9-320.webp`);
    expect(location.searchParams.get("X-Amz-Signature")).toBeTruthy();
    expect(location.searchParams.get("response-cache-control")).toBe("public, max-age=31536000, immutable");
    const object = s3.objects.get(`renditions/${stored.id}/16x9-320.webp`)!;
    expect(object.contentType).toBe("image/webp");
    expect(await sharp(object.body).metadata()).toMatchObject({ format: "webp", width: 320, height: 180 });

    // Made once: the next request is a redirect with no new PUT.
    const puts = s3.requests.filter((r) => r.method === "PUT").length;
    expect((await fetch(`${app.url}${stored.path}/16x9-320.webp`, { redirect: "manual" })).status).toBe(302);
    expect(s3.requests.filter((r) => r.method === "PUT").length).toBe(puts);
  });
});

describe("licence packages in S3 mode", () => {
  it("are written to packages/{animation}/{content hash}.zip once and sent by a presigned 302; a file the package writes is sent by the app", async () => {
    // The world's animation has no media set: its package is the master as uploaded, the extra, the terms and the README.
    const puts = () => s3.requests.filter((r) => r.method === "PUT" && r.url.pathname.includes("/packages/")).length;
    const first = await fetch(`${app.url}/packages/${world.slug}.zip`, { headers: { Cookie: world.cookies.individual }, redirect: "manual" });
    expect(first.status).toBe(302);
    expect(first.headers.get("cache-control")).toBe("private, no-store");
    const location = new URL(first.headers.get("location")!);
    expect(location.pathname).toMatch(new RegExp(`^/${BUCKET}/packages/${world.animation.id}/[0-9a-f]{64}\\.zip$`));
    expect(location.searchParams.get("response-content-disposition")).toBe(`attachment; filename="${world.slug}.zip"`);
    expect(puts()).toBe(1);
    const zip = Buffer.from(await (await fetch(location)).arrayBuffer());
    const file = path.join(os.tmpdir(), `medanim-s3-package-${crypto.randomUUID()}.zip`);
    fs.writeFileSync(file, zip);
    try {
      const entries = execFileSync("unzip", ["-Z1", file], { encoding: "utf8" }).trim().split("\n");
      expect(entries).toEqual(
        expect.arrayContaining([`${world.slug}/README.txt`, `${world.slug}/LICENSE.txt`, `${world.slug}/extras/${world.slug}-extras.zip`]),
      );
      expect(execFileSync("unzip", ["-p", file, `${world.slug}/extras/${world.slug}-extras.zip`]).equals(world.objects.download.body)).toBe(true);
    } finally {
      fs.rmSync(file, { force: true });
    }
    // Built once: the next download is a redirect to the same key with no new PUT.
    const again = await fetch(`${app.url}/packages/${world.slug}.zip`, { headers: { Cookie: world.cookies.individual }, redirect: "manual" });
    expect(new URL(again.headers.get("location")!).pathname).toBe(location.pathname);
    expect(puts()).toBe(1);
    // The licence terms are written by the app for each request, not stored in the bucket.
    const terms = await fetch(`${app.url}/packages/${world.slug}/LICENSE.txt`, { headers: { Cookie: world.cookies.individual }, redirect: "manual" });
    expect(terms.status).toBe(200);
    expect(await terms.text()).toMatch(/license terms, version \d+/);
    expect((await fetch(`${app.url}/packages/${world.slug}.zip`, { headers: { Cookie: world.cookies.premium }, redirect: "manual" })).status).toBe(403);
  });
});
