import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { prisma } from "~/lib/db.server.ts";
import { getEnv } from "~/lib/env.server.ts";
import { RENDITION_WIDTHS, type RenditionFormat } from "~/lib/image-renditions.ts";
import { objectIdFromPath, saveObject } from "~/lib/storage.server.ts";
import * as upload from "~/routes/api/objects.upload.ts";
import { createUser, sessionCookieFor } from "../helpers/factories.ts";
import { callRoute } from "../helpers/route.ts";
import { fileBytes, startMediaApp } from "./media-helpers.ts";

// /objects/uploads/{id}/{aspect}-{width}.{format} and .../og.jpg: real images through sharp.

let app: Awaited<ReturnType<typeof startMediaApp>>;
let cover: { path: string };
let photo: { path: string };
let animation: { id: string; slug: string | null };

/** A real picture (a gradient, so the encoders have something to do) of the given size. */
async function picture(width: number, height: number, format: "jpeg" | "png") {
  const pixels = Buffer.alloc(width * height * 3);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) pixels.set([(x * 255) / width, (y * 255) / height, 128], (y * width + x) * 3);
  }
  const image = sharp(pixels, { raw: { width, height, channels: 3 } });
  return image[format]().toBuffer();
}

beforeAll(async () => {
  app = await startMediaApp();
  cover = await saveObject({ body: await picture(1000, 600, "jpeg"), contentType: "image/jpeg", kind: "cover" });
  photo = await saveObject({ body: await picture(300, 400, "png"), contentType: "image/png", kind: "doctor-photo" });
  const category = await prisma.category.create({ data: { name: "Renditions", slug: `renditions-${crypto.randomUUID()}` } });
  animation = await prisma.animation.create({
    data: {
      title: "Knee scope",
      slug: `knee_scope_${crypto.randomBytes(3).toString("hex")}`,
      description: "A look inside.",
      coverImage: cover.path,
      categoryId: category.id,
    },
  });
  await prisma.doctor.create({ data: { name: "Dr. Pixel", slug: `dr-${crypto.randomUUID()}`, specialty: "Radiology", photo: photo.path } });
});

afterAll(async () => {
  await app.close();
});

function get(url: string, headers: Record<string, string> = {}) {
  return fetch(`${app.url}${url}`, { headers, redirect: "manual" });
}

const PUBLIC = "public, max-age=31536000, immutable";
const SHARP_FORMAT: Record<RenditionFormat, string> = { avif: "heif", webp: "webp", jpg: "jpeg" };

describe("renditions", () => {
  it("makes every width in AVIF, WebP and JPEG, 16:9, never wider than the source", async () => {
    for (const width of RENDITION_WIDTHS) {
      for (const format of ["avif", "webp", "jpg"] as const) {
        const response = await get(`${cover.path}/16x9-${width}.${format}`);
        expect(response.status, `${width} ${format}`).toBe(200);
        expect(response.headers.get("cache-control")).toBe(PUBLIC);
        expect(response.headers.get("content-type")).toBe({ avif: "image/avif", webp: "image/webp", jpg: "image/jpeg" }[format]);
        const meta = await sharp(Buffer.from(await response.arrayBuffer())).metadata();
        expect(meta.format).toBe(SHARP_FORMAT[format]);
        // The source is 1000 px wide: 1280 answers its full width, never an enlargement.
        expect(meta.width).toBe(Math.min(width, 1000));
        expect(meta.height).toBe(Math.round((Math.min(width, 1000) * 9) / 16));
      }
    }
    const kept = fs.readdirSync(path.join(getEnv().DATA_DIR, "objects", ".renditions", objectIdFromPath(cover.path)!));
    expect(kept.sort()).toEqual(RENDITION_WIDTHS.flatMap((w) => ["avif", "jpg", "webp"].map((f) => `16x9-${w}.${f}`)).sort());
  });

  it("crops portraits square and answers a repeat from what it kept (304 on a match)", async () => {
    const first = await get(`${photo.path}/1x1-160.webp`);
    const meta = await sharp(Buffer.from(await first.arrayBuffer())).metadata();
    expect([meta.width, meta.height]).toEqual([160, 160]);
    const again = await get(`${photo.path}/1x1-160.webp`, { "If-None-Match": first.headers.get("etag")! });
    expect(again.status).toBe(304);
    // The 300 px wide source caps the 320 rendition.
    const wide = await sharp(Buffer.from(await (await get(`${photo.path}/1x1-320.jpg`)).arrayBuffer())).metadata();
    expect([wide.width, wide.height]).toEqual([300, 300]);
  });

  it("makes a 1200×630 social preview, linked from the animation page", async () => {
    const response = await get(`${cover.path}/og.jpg`);
    expect(response.headers.get("content-type")).toBe("image/jpeg");
    const meta = await sharp(Buffer.from(await response.arrayBuffer())).metadata();
    expect([meta.width, meta.height]).toEqual([1200, 630]);
    const page = await (await get(`/animations/${animation.slug}`)).text();
    const origin = getEnv().APP_URL ?? app.url;
    expect(page).toContain(`property="og:image" content="${new URL(`${cover.path}/og.jpg`, origin).href}"`);
  });

  it("lists the renditions in the page's markup, and a replaced cover gets new URLs", async () => {
    const before = await (await get(`/animations/${animation.slug}`)).text();
    // Without a preview video the player shows the cover: three widths in each format.
    expect(before).toContain(`${cover.path}/16x9-320.avif 320w, ${cover.path}/16x9-640.avif 640w, ${cover.path}/16x9-1280.avif 1280w`);
    expect(before).toContain(`${cover.path}/16x9-320.jpg 320w`);
    const replacement = await saveObject({ body: await picture(640, 360, "jpeg"), contentType: "image/jpeg", kind: "cover" });
    await prisma.animation.update({ where: { id: animation.id }, data: { coverImage: replacement.path } });
    const after = await (await get(`/animations/${animation.slug}`)).text();
    expect(after).toContain(`${replacement.path}/16x9-640.avif 640w`);
    expect(after).not.toContain(cover.path);
    // The old cover is attached nowhere now: its renditions follow the original's rule.
    expect((await get(`${cover.path}/16x9-320.avif`)).status).toBe(401);
    await prisma.animation.update({ where: { id: animation.id }, data: { coverImage: cover.path } });
  });

  it("refuses names it does not make, and what is not an image", async () => {
    for (const name of ["16x9-500.avif", "4x3-320.jpg", "16x9-320.gif", "og.png"]) {
      expect((await get(`${cover.path}/${name}`)).status, name).toBe(404);
    }
    const video = await saveObject({ body: fileBytes("mp4"), contentType: "video/mp4", kind: "preview" });
    await prisma.animation.update({ where: { id: animation.id }, data: { previewVideo: video.path } });
    expect((await get(`${video.path}/16x9-320.jpg`)).status).toBe(404);
  });

  it("sends the original when an image's bytes only look like one, never a 500", async () => {
    const fake = await saveObject({ body: fileBytes("jpg"), contentType: "image/jpeg", kind: "cover" });
    await prisma.animation.update({ where: { id: animation.id }, data: { coverImage: fake.path } });
    const response = await get(`${fake.path}/16x9-320.avif`);
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe(fake.path);
    await prisma.animation.update({ where: { id: animation.id }, data: { coverImage: cover.path } });
  });

  it("refuses an upload that is not an image with the upload message", async () => {
    const admin = await sessionCookieFor((await createUser({ role: "admin" })).id);
    const asked = await callRoute(upload, "/api/objects/upload", {
      json: { kind: "cover", fileName: "cover.jpg", contentType: "image/jpeg" },
      cookie: admin,
      headers: { Host: new URL(app.url).host },
    });
    const response = await fetch(asked.body.uploadURL as string, {
      method: "PUT",
      body: "not a picture at all",
      headers: { Origin: app.url },
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ message: "The file's content is not a valid .jpg file" });
  });
});
