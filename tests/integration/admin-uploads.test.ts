import fs from "node:fs";
import http from "node:http";
import net from "node:net";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { prisma } from "~/lib/db.server.ts";
import { getEnv } from "~/lib/env.server.ts";
import { objectIdFromPath, saveObject } from "~/lib/storage.server.ts";
import { streamMultipartUpload } from "~/lib/upload.server.ts";
import { ROUTE_RULES } from "~/route-rules.ts";
import * as doctorForm from "~/routes/admin/doctor-form.tsx";
import { createApp } from "~/server/app.ts";
import { createUser, sessionCookieFor } from "../helpers/factories.ts";
import { testServerBuild, type TestRoute } from "../helpers/server-build.ts";
import { fileBytes } from "./media-helpers.ts";

// The doctor form without JavaScript through the real Express app: the route table's body cap
// for upload forms (app/route-rules.ts), the edge's bounded body and the multipart stream into
// storage, in front of the real action. Every other path the rules name is a stub route (the
// server refuses to start when a rule names no route).

// Storage itself, watched: which files of a request were written at all.
vi.mock("~/lib/storage.server.ts", async (importOriginal) => {
  const storage = await importOriginal<typeof import("~/lib/storage.server.ts")>();
  return { ...storage, saveObject: vi.fn(storage.saveObject) };
});

const MB = 1024 * 1024;
const answers: unknown[] = [];

const routes: Record<string, TestRoute> = Object.fromEntries(
  Object.keys(ROUTE_RULES).map((routePath) => [routePath, { path: routePath, module: { action: () => Response.json({ stub: routePath }) } }]),
);
routes["admin/doctors/new"] = {
  path: "admin/doctors/new",
  module: {
    // The real action; its answer is kept, since the test build renders no screen.
    action: async (args: Parameters<typeof doctorForm.action>[0]) => {
      const answer = await doctorForm.action(args);
      answers.push(answer);
      return answer;
    },
  },
};

let server: http.Server;
let base: string;
let cookie: string;

beforeAll(async () => {
  // Its build holds only the routes with upload rules: none of the page cache's shared ones.
  const app = await createApp({ mode: "production", build: testServerBuild(routes), sharedAnswers: [] });
  server = http.createServer(app);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  cookie = await sessionCookieFor((await createUser({ role: "admin" })).id);
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

function doctorPost(photo: Buffer, fields: Record<string, string> = {}) {
  const form = new FormData();
  for (const [key, value] of Object.entries({ name: "Dr. Stream", specialty: "Radiology", isActive: "on", photo: "", ...fields })) form.append(key, value);
  form.append("photo", new Blob([new Uint8Array(photo)], { type: "image/jpeg" }), "photo.jpg");
  return fetch(`${base}/admin/doctors/new`, { method: "POST", headers: { Cookie: cookie }, body: form, redirect: "manual" });
}

/** Every file of the local object store, temporary parts included. */
function storedFiles() {
  const objects = path.resolve(getEnv().DATA_DIR, "objects");
  if (!fs.existsSync(objects)) return [];
  return fs
    .readdirSync(objects, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => entry.name);
}

describe("the doctor form's photo without JavaScript, through the real app", () => {
  it("stores a 4 MB photo and attaches it", async () => {
    const photo = fileBytes("jpg", 4 * MB);
    const res = await doctorPost(photo, { name: "Dr. Four" });
    expect(res.status).toBe(302);
    const doctor = await prisma.doctor.findFirstOrThrow({ where: { name: "Dr. Four" } });
    const id = objectIdFromPath(doctor.photo)!;
    expect(fs.readFileSync(path.resolve(getEnv().DATA_DIR, "objects", id)).equals(photo)).toBe(true);
  });

  it("reads a 20 MB photo to the end and answers the form with the message beside the field, keeping nothing", async () => {
    const files = storedFiles();
    const rows = await prisma.storedObject.count();
    answers.splice(0);
    const res = await doctorPost(fileBytes("jpg", 20 * MB), { name: "Dr. Twenty" });
    expect(res.status).toBe(400);
    expect(answers).toHaveLength(1);
    expect(answers[0]).toMatchObject({ data: { result: { error: { photo: ["File size must be less than 5MB."] } } } });
    expect(storedFiles()).toEqual(files);
    expect(await prisma.storedObject.count()).toBe(rows);
    expect(await prisma.doctor.count({ where: { name: "Dr. Twenty" } })).toBe(0);
  });

  it("answers a body over the form's cap at the edge with an HTML page, before reading it", async () => {
    const limit = 5 * MB + 64 * MB + MB;
    const answer = await new Promise<string>((resolve, reject) => {
      const socket = net.connect(Number(new URL(base).port), "127.0.0.1", () =>
        socket.write(
          `POST /admin/doctors/new HTTP/1.1\r\nHost: localhost\r\nCookie: ${cookie}\r\n` +
            `Content-Type: multipart/form-data; boundary=x\r\nContent-Length: ${limit + 1}\r\n\r\n--x\r\n`,
        ),
      );
      const chunks: Buffer[] = [];
      socket.on("data", (chunk) => chunks.push(chunk));
      socket.on("error", reject);
      socket.on("end", () => resolve(Buffer.concat(chunks).toString("latin1")));
    });
    expect(answer).toMatch(/^HTTP\/1\.1 413 /);
    expect(answer).toMatch(/\r\nContent-Type: text\/html/i);
    expect(answer).toContain("Request body must be at most 70 MB");
  });
});

describe("a client that goes away in the middle of a photo", () => {
  it("leaves nothing in storage, and the app keeps answering", async () => {
    const files = storedFiles();
    const head =
      `POST /admin/doctors/new HTTP/1.1\r\nHost: localhost\r\nCookie: ${cookie}\r\n` +
      `Content-Type: multipart/form-data; boundary=x\r\nContent-Length: ${10 * MB}\r\n\r\n` +
      `--x\r\nContent-Disposition: form-data; name="photo"; filename="photo.jpg"\r\nContent-Type: image/jpeg\r\n\r\n`;
    await new Promise<void>((resolve, reject) => {
      const socket = net.connect(Number(new URL(base).port), "127.0.0.1", () => {
        socket.write(head);
        socket.write(fileBytes("jpg", 2 * MB), () => setTimeout(() => socket.destroy(), 200));
      });
      socket.on("close", () => resolve());
      socket.on("error", reject);
    });
    await expect.poll(storedFiles).toEqual(files);
    const page = await doctorPost(fileBytes("jpg", MB), { name: "Dr. After" });
    expect(page.status).toBe(302);
  });
});

describe("the animation form's files after a refused one", () => {
  it("are checked, each beside its field, but never written to storage", async () => {
    const form = new FormData();
    form.append("coverImage", new File([new Uint8Array(fileBytes("jpg", 11 * MB))], "cover.jpg"));
    form.append("fullVideo", new File([new Uint8Array(fileBytes("mp4", 2 * MB))], "full.mp4"));
    form.append("downloadFile", new File([new Uint8Array(fileBytes("jpg"))], "pack.zip"));
    vi.mocked(saveObject).mockClear();
    const result = await streamMultipartUpload(new Request(`${base}/admin/animations/new`, { method: "POST", body: form }), {
      fields: { coverImage: "cover", fullVideo: "video", downloadFile: "download" },
    });
    expect(result.errors).toEqual({
      coverImage: ["File size must be less than 10MB."],
      downloadFile: ["The file's content is not a valid .zip file"],
    });
    expect(result.files).toEqual({});
    expect(vi.mocked(saveObject)).toHaveBeenCalledTimes(1);
  });
});
