import { execFileSync } from "node:child_process";
import crypto from "node:crypto";
import http from "node:http";
import { prisma } from "~/lib/db.server.ts";
import { saveObject, type ObjectKind } from "~/lib/storage.server.ts";
import { testApp } from "../helpers/app.ts";
import { createUser, sessionCookieFor } from "../helpers/factories.ts";

// Shared by the media-*.test.ts files: the app's front door (tests/helpers/app.ts, the media
// router behind the edge and CSRF guards), files with the right magic bytes, and a catalogue
// with one user per kind of right.

/** The app, listening; `url` is its origin (upload URLs are built on the Host a request names). */
export async function startMediaApp() {
  const { origin } = await testApp();
  return { url: origin, close: async () => undefined };
}

export const MAGIC = {
  jpg: Buffer.from([0xff, 0xd8, 0xff, 0xe0]),
  png: Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  mp4: Buffer.from("\x00\x00\x00\x18ftypisom", "latin1"),
  zip: Buffer.from("PK\x03\x04", "latin1"),
  rar: Buffer.from("Rar!\x1a\x07\x01\x00", "latin1"),
};

/** A file of `size` bytes that opens with the magic bytes of `ext`, the rest random. */
export function fileBytes(ext: keyof typeof MAGIC, size = 4096) {
  const body = crypto.randomBytes(size);
  MAGIC[ext].copy(body, 0);
  return body;
}

export async function storeFile(kind: ObjectKind, ext: keyof typeof MAGIC, contentType: string, size = 4096) {
  const body = fileBytes(ext, size);
  const stored = await saveObject({ body, contentType, kind });
  return { ...stored, body };
}

/**
 * An animation in a subcategory with every media field stored, a doctor photo, a category
 * thumbnail, an unattached object, and one signed-in user per kind of right.
 */
export async function createMediaWorld() {
  const parent = await prisma.category.create({ data: { name: `Main ${crypto.randomUUID()}`, slug: `main-${crypto.randomUUID()}` } });
  const child = await prisma.category.create({
    data: { name: `Sub ${crypto.randomUUID()}`, slug: `sub-${crypto.randomUUID()}`, parentId: parent.id },
  });
  const other = await prisma.category.create({ data: { name: `Other ${crypto.randomUUID()}`, slug: `other-${crypto.randomUUID()}` } });
  const cover = await storeFile("cover", "jpg", "image/jpeg");
  const preview = await storeFile("preview", "mp4", "video/mp4");
  const full = await storeFile("video", "mp4", "video/mp4", 64 * 1024);
  const download = await storeFile("download", "zip", "application/zip");
  const photo = await storeFile("doctor-photo", "png", "image/png");
  const thumbnail = await storeFile("thumbnail", "jpg", "image/jpeg");
  const unattached = await storeFile("video", "mp4", "video/mp4");
  const slug = `heart_valve_${crypto.randomBytes(3).toString("hex")}`;
  const animation = await prisma.animation.create({
    data: {
      title: "Heart valve",
      slug,
      description: "How a valve is repaired.",
      coverImage: cover.path,
      previewVideo: preview.path,
      fullVideo: full.path,
      downloadFile: download.path,
      categoryId: child.id,
    },
  });
  await prisma.doctor.create({ data: { name: "Dr. Media", slug: `dr-${crypto.randomUUID()}`, specialty: "Cardiology", photo: photo.path } });
  await prisma.category.update({ where: { id: other.id }, data: { thumbnail: thumbnail.path } });

  const active = { status: "active" as const, startDate: new Date(), endDate: new Date(Date.now() + 365 * 86400_000) };
  const free = await createUser();
  const premium = await createUser({ accountType: "premium" });
  const individual = await createUser();
  await prisma.subscription.create({ data: { userId: individual.id, type: "individual", animationId: animation.id, ...active } });
  const categoryLicence = await createUser();
  await prisma.subscription.create({ data: { userId: categoryLicence.id, type: "category", categoryId: child.id, ...active } });
  const parentLicence = await createUser();
  await prisma.subscription.create({ data: { userId: parentLicence.id, type: "category", categoryId: parent.id, ...active } });
  const expired = await createUser();
  await prisma.subscription.create({
    data: { userId: expired.id, type: "individual", animationId: animation.id, status: "active", endDate: new Date(Date.now() - 1000) },
  });
  const admin = await createUser({ role: "admin" });

  const users = { free, premium, individual, categoryLicence, parentLicence, expired, admin };
  const cookies = Object.fromEntries(
    await Promise.all(Object.entries(users).map(async ([name, user]) => [name, await sessionCookieFor(user.id)] as const)),
  ) as Record<keyof typeof users, string>;
  return { animation, slug, parent, child, objects: { cover, preview, full, download, photo, thumbnail, unattached }, users, cookies };
}

/** A raw HTTP GET with the path exactly as given (fetch would normalise `..` away). */
export function rawGet(baseUrl: string, rawPath: string) {
  const { hostname, port } = new URL(baseUrl);
  return new Promise<{ status: number; body: string }>((resolve, reject) => {
    const req = http.request({ hostname, port, path: rawPath, method: "GET" }, (res) => {
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (chunk: string) => (body += chunk));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on("error", reject);
    req.end();
  });
}

/** A tiny real video made by ffmpeg (a test pattern, with a tone unless `audio` is false), at `file`. */
export function makeTestVideo(file: string, size: string, seconds: number, audio = true) {
  execFileSync("ffmpeg", [
    "-hide_banner",
    "-loglevel",
    "error",
    "-y",
    "-f",
    "lavfi",
    "-i",
    `testsrc2=duration=${seconds}:size=${size}:rate=25`,
    ...(audio ? ["-f", "lavfi", "-i", `sine=frequency=440:duration=${seconds}`] : []),
    "-c:v",
    "libx264",
    "-preset",
    "ultrafast",
    ...(audio ? ["-c:a", "aac", "-shortest"] : []),
    file,
  ]);
  return file;
}
