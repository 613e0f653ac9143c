import fs from "node:fs";
import http from "node:http";
import path from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { prisma } from "~/lib/db.server.ts";
import { getEnv } from "~/lib/env.server.ts";
import { confirmUpload, streamMultipartUpload } from "~/lib/upload.server.ts";
import { objectIdFromPath } from "~/lib/storage.server.ts";
import * as upload from "~/routes/api/objects.upload.ts";
import { accessTokenFor, createUser, sessionCookieFor } from "../helpers/factories.ts";
import { callRoute } from "../helpers/route.ts";
import { fileBytes, startMediaApp } from "./media-helpers.ts";

// POST /api/objects/upload, the PUT to the signed URL it answers, and the multipart helper.

let app: Awaited<ReturnType<typeof startMediaApp>>;
let adminCookie: string;
let userCookie: string;
const MB = 1024 * 1024;

beforeAll(async () => {
  app = await startMediaApp();
  const admin = await createUser({ role: "admin" });
  adminCookie = await sessionCookieFor(admin.id);
  userCookie = await sessionCookieFor((await createUser()).id);
});

afterAll(async () => {
  await app.close();
});

afterEach(() => {
  vi.useRealTimers();
});

function askUploadUrl(json: unknown, auth: { cookie?: string; token?: string } = { cookie: adminCookie }) {
  return callRoute(upload, "/api/objects/upload", { json, ...auth, headers: { Host: new URL(app.url).host } });
}

async function uploadUrlFor(kind: string, fileName: string) {
  const result = await askUploadUrl({ kind, fileName, contentType: "application/octet-stream" });
  expect(result.status).toBe(200);
  return result.body.uploadURL as string;
}

function put(url: string, body: BodyInit, headers: Record<string, string> = {}) {
  return fetch(url, { method: "PUT", body, headers: { Origin: app.url, ...headers }, duplex: "half" } as RequestInit);
}

/** Nothing half-written stays behind: no object file, no row, no temporary part. */
async function expectNoObject(uploadURL: string) {
  const id = objectIdFromPath(new URL(uploadURL).pathname)!;
  expect(await prisma.storedObject.findUnique({ where: { id } })).toBeNull();
  const dir = path.join(getEnv().DATA_DIR, "objects");
  expect(fs.existsSync(path.join(dir, id))).toBe(false);
  const tmp = path.join(dir, ".tmp");
  expect(fs.existsSync(tmp) ? fs.readdirSync(tmp) : []).toEqual([]);
}

describe("POST /api/objects/upload", () => {
  it("answers 401 signed out and 403 to a non-admin", async () => {
    const json = { kind: "cover", fileName: "a.jpg", contentType: "image/jpeg" };
    expect((await askUploadUrl(json, {})).status).toBe(401);
    expect((await askUploadUrl(json, { cookie: userCookie })).status).toBe(403);
  });

  it("answers an admin with a signed, expiring URL whose last segment is the new object's id", async () => {
    const result = await askUploadUrl({ kind: "cover", fileName: "My Photo.JPG", contentType: "image/jpeg" });
    expect(result.status).toBe(200);
    const url = new URL(result.body.uploadURL);
    expect(url.origin).toBe(app.url);
    expect(url.pathname).toMatch(/^\/objects\/uploads\/[0-9a-f-]{36}$/);
    expect(url.searchParams.get("sig")).toBeTruthy();
    expect(Number(url.searchParams.get("expires"))).toBeGreaterThan(Date.now() / 1000);
    // The user's file name is never part of the path.
    expect(result.body.uploadURL).not.toContain("Photo");
    expect(result.body.path).toBe(url.pathname);
  });

  it("works with a bearer token and the form's field names", async () => {
    const admin = await createUser({ role: "admin" });
    const result = await askUploadUrl({ kind: "fullVideo", fileName: "clip.mov" }, { token: await accessTokenFor(admin.id) });
    expect(result.status).toBe(200);
    expect(new URL(result.body.uploadURL).searchParams.get("kind")).toBe("video");
  });

  it("refuses a wrong extension (400) and a declared oversize (413) up front", async () => {
    const wrong = await askUploadUrl({ kind: "cover", fileName: "cover.gif" });
    expect(wrong.status).toBe(400);
    expect(wrong.body.message).toBe("Cover image must be a .jpg, .jpeg or .png file");
    const video = await askUploadUrl({ kind: "video", fileName: "clip.avi" });
    expect(video.body.message).toBe("Video must be a .mp4 or .mov file");
    const big = await askUploadUrl({ kind: "doctor-photo", fileName: "me.png", size: 6 * MB });
    expect(big.status).toBe(413);
    expect(big.body.message).toBe("File size must be less than 5MB.");
    const unknown = await askUploadUrl({ kind: "script", fileName: "x.sh" });
    expect(unknown.status).toBe(400);
  });
});

describe("PUT to the signed URL", () => {
  it("stores the file, which an admin can then GET", async () => {
    const url = await uploadUrlFor("cover", "cover.png");
    const body = fileBytes("png", 20_000);
    const response = await put(url, body, { "Content-Type": "image/png" });
    expect(response.status).toBe(200);
    const { path: stored } = await response.json();
    expect(stored).toBe(new URL(url).pathname);
    const row = await prisma.storedObject.findUnique({ where: { id: objectIdFromPath(stored)! } });
    expect(row).toMatchObject({ kind: "cover", contentType: "image/png", size: BigInt(20_000) });

    const got = await fetch(`${app.url}${stored}`, { headers: { Cookie: adminCookie } });
    expect(got.status).toBe(200);
    expect(got.headers.get("content-type")).toBe("image/png");
    expect(Buffer.from(await got.arrayBuffer()).equals(body)).toBe(true);
    // Not attached to anything yet: admins only.
    expect((await fetch(`${app.url}${stored}`)).status).toBe(401);
  });

  it("refuses a URL used a second time", async () => {
    const url = await uploadUrlFor("download", "pack.zip");
    expect((await put(url, fileBytes("zip"))).status).toBe(200);
    const again = await put(url, fileBytes("zip"));
    expect(again.status).toBe(409);
  });

  it("answers 403 to a forged or tampered signature", async () => {
    const url = new URL(await uploadUrlFor("cover", "a.jpg"));
    const forged = new URL(url);
    forged.searchParams.set("sig", "A".repeat(43));
    expect((await put(forged.toString(), fileBytes("jpg"))).status).toBe(403);
    // A signature cannot be moved to another kind (a bigger limit) or another id.
    const otherKind = new URL(url);
    otherKind.searchParams.set("kind", "download");
    expect((await put(otherKind.toString(), fileBytes("jpg"))).status).toBe(403);
    const otherId = new URL(url);
    otherId.pathname = `/objects/uploads/${crypto.randomUUID()}`;
    expect((await put(otherId.toString(), fileBytes("jpg"))).status).toBe(403);
    const unsigned = new URL(url);
    unsigned.search = "";
    const response = await put(unsigned.toString(), fileBytes("jpg"));
    expect(response.status).toBe(403);
    expect(await response.json()).toEqual({ message: "This upload URL is invalid or has expired" });
    await expectNoObject(url.toString());
  });

  it("answers 403 once the URL has expired", async () => {
    const url = await uploadUrlFor("cover", "a.jpg");
    vi.useFakeTimers({ toFake: ["Date"], now: Date.now() + 16 * 60_000 });
    const response = await put(url, fileBytes("jpg"));
    expect(response.status).toBe(403);
    await expectNoObject(url);
  });

  it("answers 400 when the content's magic bytes do not match the extension", async () => {
    for (const [kind, name, body] of [
      ["cover", "a.jpg", fileBytes("png")],
      ["cover", "a.png", Buffer.from("<svg xmlns='http://www.w3.org/2000/svg'></svg>")],
      ["video", "a.mp4", fileBytes("zip")],
      ["download", "a.zip", fileBytes("rar")],
      ["download", "a.rar", Buffer.from("MZ\x90\x00 executable", "latin1")],
    ] as const) {
      const url = await uploadUrlFor(kind, name);
      const response = await put(url, body);
      expect(response.status, name).toBe(400);
      expect((await response.json()).message).toMatch(/is not a valid \.\w+ file/);
      await expectNoObject(url);
    }
  });

  it("accepts each allowed kind with the right content", async () => {
    for (const [kind, name, body, type] of [
      ["cover", "a.jpeg", fileBytes("jpg"), "image/jpeg"],
      ["doctor-photo", "me.png", fileBytes("png"), "image/png"],
      ["video", "clip.mp4", fileBytes("mp4"), "video/mp4"],
      ["video", "clip.mov", fileBytes("mp4"), "video/quicktime"],
      ["download", "pack.rar", fileBytes("rar"), "application/vnd.rar"],
    ] as const) {
      const url = await uploadUrlFor(kind, name);
      const response = await put(url, body);
      expect(response.status, name).toBe(200);
      const row = await prisma.storedObject.findUnique({ where: { id: objectIdFromPath(new URL(url).pathname)! } });
      expect(row?.contentType, name).toBe(type);
    }
  });

  it("answers 400 to an empty file", async () => {
    const url = await uploadUrlFor("cover", "a.jpg");
    const response = await put(url, Buffer.alloc(0));
    expect(response.status).toBe(400);
    await expectNoObject(url);
  });

  it("answers 413 with the product's message to a declared length over the limit, before reading the body", async () => {
    const url = new URL(await uploadUrlFor("cover", "big.jpg"));
    // Declares 20 MB but sends a few bytes: the answer must come without the rest.
    const answer = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = http.request(
        { hostname: url.hostname, port: url.port, path: `${url.pathname}${url.search}`, method: "PUT", headers: { "Content-Length": String(20 * MB) } },
        (res) => {
          let body = "";
          res.on("data", (chunk) => (body += chunk));
          res.on("end", () => {
            req.destroy();
            resolve({ status: res.statusCode!, body });
          });
        },
      );
      req.on("error", reject);
      req.write(fileBytes("jpg", 1024));
    });
    expect(answer.status).toBe(413);
    expect(JSON.parse(answer.body)).toEqual({ message: "File size must be less than 10MB." });
    await expectNoObject(url.toString());
  });

  it("answers 413 when an undeclared (chunked) body goes over the limit while streaming", async () => {
    const url = await uploadUrlFor("doctor-photo", "big.jpg");
    const chunk = fileBytes("jpg", MB);
    let sent = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent >= 8) return controller.close();
        controller.enqueue(sent === 0 ? chunk : new Uint8Array(MB));
        sent++;
      },
    });
    const response = await put(url, body);
    expect(response.status).toBe(413);
    expect(await response.json()).toEqual({ message: "File size must be less than 5MB." });
    await expectNoObject(url);
  });

  it("applies MAX_DOWNLOAD_FILE_MB to download files", async () => {
    const env = getEnv() as { MAX_DOWNLOAD_FILE_MB: number };
    const before = env.MAX_DOWNLOAD_FILE_MB;
    env.MAX_DOWNLOAD_FILE_MB = 1;
    try {
      const url = await uploadUrlFor("download", "pack.zip");
      const response = await put(url, fileBytes("zip", 2 * MB));
      expect(response.status).toBe(413);
      expect((await response.json()).message).toBe("File size must be less than 1MB.");
    } finally {
      env.MAX_DOWNLOAD_FILE_MB = before;
    }
  });

  it("goes through the CSRF guard: a cross-site PUT is refused", async () => {
    const url = await uploadUrlFor("cover", "a.jpg");
    const response = await put(url, fileBytes("jpg"), { Origin: "https://evil.example" });
    expect(response.status).toBe(403);
    await expectNoObject(url);
  });
});

describe("confirmUpload (before a form attaches a path)", () => {
  it("accepts a finished upload of the kind, or an image for another image use within its limit", async () => {
    const url = await uploadUrlFor("cover", "big.jpg");
    expect((await put(url, fileBytes("jpg", 6 * MB))).status).toBe(200);
    const stored = new URL(url).pathname;
    expect(await confirmUpload(stored, "cover")).toMatchObject({ kind: "cover", size: 6 * MB });
    expect(await confirmUpload(stored, "thumbnail")).toMatchObject({ kind: "cover" });
    await expect(confirmUpload(stored, "doctor-photo")).rejects.toMatchObject({ status: 413, message: "File size must be less than 5MB." });
    await expect(confirmUpload(stored, "video")).rejects.toMatchObject({ status: 404 });
    await expect(confirmUpload(`/objects/uploads/${crypto.randomUUID()}`, "cover")).rejects.toMatchObject({ status: 404 });
    await expect(confirmUpload("https://elsewhere.example/x.jpg", "cover")).rejects.toMatchObject({ status: 404 });
  });
});

describe("streamMultipartUpload (forms without JavaScript)", () => {
  const fields = { coverImage: "cover", fullVideo: "video", downloadFile: "download" } as const;

  function formRequest(form: FormData) {
    return new Request("http://localhost:3000/admin/animations/new", { method: "POST", body: form });
  }

  it("streams each file to storage and returns the text fields with the stored paths", async () => {
    const form = new FormData();
    form.append("title", "Knee arthroscopy");
    form.append("doctorIds", "a");
    form.append("doctorIds", "b");
    const cover = fileBytes("jpg", 50_000);
    form.append("coverImage", new File([cover], "knee.jpg", { type: "image/jpeg" }));
    form.append("fullVideo", new File([fileBytes("mp4", 300_000)], "knee.mp4", { type: "video/mp4" }));
    form.append("downloadFile", new File([fileBytes("zip")], "knee.zip", { type: "application/zip" }));
    const result = await streamMultipartUpload(formRequest(form), { fields });
    expect(result.errors).toEqual({});
    expect(Object.keys(result.files).sort()).toEqual(["coverImage", "downloadFile", "fullVideo"]);
    expect(result.formData.get("title")).toBe("Knee arthroscopy");
    expect(result.formData.getAll("doctorIds")).toEqual(["a", "b"]);
    expect(result.formData.get("coverImage")).toBe(result.files.coverImage);
    const id = objectIdFromPath(result.files.coverImage)!;
    expect(fs.readFileSync(path.join(getEnv().DATA_DIR, "objects", id)).equals(cover)).toBe(true);
    const row = await prisma.storedObject.findUnique({ where: { id } });
    expect(row).toMatchObject({ kind: "cover", contentType: "image/jpeg", size: BigInt(50_000) });
  });

  it("keeps an edit form's current path when a file input is left empty", async () => {
    const form = new FormData();
    form.append("coverImage", "/objects/uploads/11111111-1111-4111-8111-111111111111");
    form.append("coverImage", new File([], "", { type: "application/octet-stream" }));
    const result = await streamMultipartUpload(formRequest(form), { fields });
    expect(result.errors).toEqual({});
    expect(result.files).toEqual({});
    expect(result.formData.get("coverImage")).toBe("/objects/uploads/11111111-1111-4111-8111-111111111111");
  });

  it("reports field errors and keeps no file of a refused request", async () => {
    const before = await prisma.storedObject.count();
    const form = new FormData();
    form.append("title", "x");
    form.append("fullVideo", new File([fileBytes("mp4")], "ok.mp4"));
    form.append("coverImage", new File([fileBytes("png")], "fake.jpg"));
    form.append("downloadFile", new File([fileBytes("zip")], "pack.exe"));
    const result = await streamMultipartUpload(formRequest(form), { fields });
    expect(result.errors).toEqual({
      coverImage: ["The file's content is not a valid .jpg file"],
      downloadFile: ["Download file must be a .zip or .rar file"],
    });
    expect(result.files).toEqual({});
    expect(await prisma.storedObject.count()).toBe(before);
  });

  it("refuses an oversize file with the product's message", async () => {
    const form = new FormData();
    form.append("coverImage", new File([fileBytes("jpg", 10 * MB + 1)], "huge.jpg"));
    const result = await streamMultipartUpload(formRequest(form), { fields });
    expect(result.errors).toEqual({ coverImage: ["File size must be less than 10MB."] });
    const tmp = path.join(getEnv().DATA_DIR, "objects", ".tmp");
    expect(fs.readdirSync(tmp)).toEqual([]);
  });

  it("ignores file fields it was not asked for and refuses a non-multipart body", async () => {
    const form = new FormData();
    form.append("avatar", new File([fileBytes("jpg")], "me.jpg"));
    const result = await streamMultipartUpload(formRequest(form), { fields });
    expect(result.files).toEqual({});
    await expect(
      streamMultipartUpload(
        new Request("http://localhost/", { method: "POST", body: "a=b", headers: { "Content-Type": "application/x-www-form-urlencoded" } }),
        { fields },
      ),
    ).rejects.toThrow("Expected a multipart/form-data body");
  });
});
