import fs from "node:fs";
import path from "node:path";
import crypto from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { prisma } from "~/lib/db.server.ts";
import { getEnv } from "~/lib/env.server.ts";
import { objectIdFromPath } from "~/lib/storage.server.ts";
import * as medical from "~/routes/admin/animation-medical.tsx";
import * as animationApi from "~/routes/api/animations.slug.ts";
import { listAnimationsDueForReview } from "~/services/catalogue/medical-review.server.ts";
import { createAnimation } from "../helpers/catalogue.ts";
import { createUser, sessionCookieFor } from "../helpers/factories.ts";
import { callRoute } from "../helpers/route.ts";
import { startMediaApp } from "./media-helpers.ts";

// /admin/animations/:id/medical: caption tracks (upload, refusals, replace, delete), who may
// read a caption file, the medical review dates, and the dashboard's list of due reviews.

let app: Awaited<ReturnType<typeof startMediaApp>>;
let admin: { id: string; email: string };
let adminCookie: string;
let userCookie: string;
/** Every animation made here is linked to this doctor, who records its reviews. */
let reviewer: { id: string };

const VTT = `WEBVTT

NOTE written by the team

1
00:00:00.000 --> 00:00:02.500
<v Dr. Lee>The knee joint &amp; its ligaments.

00:00:02.500 --> 00:00:05.000 align:start
The <b>meniscus</b> cushions the bone.
`;

beforeAll(async () => {
  app = await startMediaApp();
  const user = await createUser({ role: "admin" });
  admin = { id: user.id, email: user.email };
  adminCookie = await sessionCookieFor(user.id);
  userCookie = await sessionCookieFor((await createUser()).id);
  reviewer = await prisma.doctor.create({ data: { name: "Dr. Lee", slug: `dr-lee-${crypto.randomUUID().slice(0, 8)}`, specialty: "Orthopaedics" } });
});

afterAll(async () => {
  await app.close();
});

let counter = 0;
async function newAnimation(data: { isActive?: boolean; title?: string } = {}) {
  counter += 1;
  const title = data.title ?? `Knee Arthroscopy ${counter} ${crypto.randomUUID().slice(0, 6)}`;
  const animation = await createAnimation({ title, isActive: data.isActive ?? true });
  await prisma.animationDoctor.create({ data: { animationId: animation.id, doctorId: reviewer.id } });
  return animation;
}

function url(id: string) {
  return `http://localhost:3000/admin/animations/${id}/medical`;
}

function upload(animationId: string, file: { name: string; content: string | Buffer } | null, fields: Record<string, string> = {}) {
  const form = new FormData();
  form.append("language", fields.language ?? "en");
  if (fields.label !== undefined) form.append("label", fields.label);
  if (file) form.append("file", new File([typeof file.content === "string" ? file.content : new Uint8Array(file.content)], file.name, { type: "text/vtt" }));
  return callRoute(medical, url(animationId), { method: "POST", body: form, params: { id: animationId }, cookie: adminCookie });
}

/** A review form names its doctor: the animation's own, unless the test says otherwise. */
function post(animationId: string, form: Record<string, string>) {
  const withReviewer = form.intent === "review" ? { reviewerId: reviewer.id, ...form } : form;
  return callRoute(medical, url(animationId), { form: withReviewer, params: { id: animationId }, cookie: adminCookie });
}

function objectFileExists(storedPath: string) {
  return fs.existsSync(path.join(getEnv().DATA_DIR, "objects", objectIdFromPath(storedPath)!));
}

function fileErrors(result: { body: any }) {
  return result.body.result?.error?.file as string[] | undefined;
}

async function auditRows(entityId: string) {
  return prisma.auditLog.findMany({ where: { entityId }, orderBy: { createdAt: "asc" } });
}

async function storedObjectCount() {
  return prisma.storedObject.count({ where: { kind: "caption" } });
}

describe("caption upload", () => {
  it("stores a track with its transcript, cue count, size and an audit row", async () => {
    const animation = await newAnimation();
    const result = await upload(animation.id, { name: "knee.vtt", content: VTT }, { label: "English" });
    expect(result.status).toBe(302);
    expect(result.location).toBe(`/admin/animations/${animation.id}/medical`);
    const caption = await prisma.animationCaption.findFirstOrThrow({ where: { animationId: animation.id } });
    expect(caption).toMatchObject({ language: "en", label: "English", cueCount: 2, size: Buffer.byteLength(VTT) });
    expect(caption.transcript).toBe("The knee joint & its ligaments.\nThe meniscus cushions the bone.");
    expect(objectFileExists(caption.path)).toBe(true);
    const stored = await prisma.storedObject.findUniqueOrThrow({ where: { id: objectIdFromPath(caption.path)! } });
    expect(stored).toMatchObject({ kind: "caption", contentType: "text/vtt" });
    const [audit] = await auditRows(caption.id);
    expect(audit).toMatchObject({ action: "caption.create", entityType: "caption", actorEmail: admin.email });
    expect(audit!.changes).toMatchObject({ language: [null, "en"], cueCount: [null, 2] });
  });

  it("labels a track with its language's name when the label is blank, and accepts a BOM", async () => {
    const animation = await newAnimation();
    const result = await upload(
      animation.id,
      { name: "es.VTT", content: `\uFEFFWEBVTT - Spanish\n\n00:01.000 --> 00:02.000\nHola\n` },
      { language: "es", label: "" },
    );
    expect(result.status).toBe(302);
    const caption = await prisma.animationCaption.findFirstOrThrow({ where: { animationId: animation.id } });
    expect(caption).toMatchObject({ language: "es", label: "Spanish", transcript: "Hola", cueCount: 1 });
  });

  it.each([
    [
      "a file that does not start with WEBVTT",
      "notes.vtt",
      "1\n00:00.000 --> 00:01.000\nHello\n",
      "Caption file must be a WebVTT file (it must start with WEBVTT)",
    ],
    ["WEBVTT glued to another word", "x.vtt", "WEBVTTX\n\n00:00.000 --> 00:01.000\nHello\n", "Caption file must be a WebVTT file (it must start with WEBVTT)"],
    ["a file of another extension", "captions.srt", "WEBVTT\n\n00:00.000 --> 00:01.000\nHello\n", "Caption file must be a .vtt file"],
    ["a WebVTT file without cues", "empty.vtt", "WEBVTT\n\nNOTE nothing here yet\n", "Caption file has no cues"],
  ])("refuses %s with a 400 and keeps nothing", async (_name, fileName, content, message) => {
    const animation = await newAnimation();
    const before = await storedObjectCount();
    const result = await upload(animation.id, { name: fileName, content });
    expect(result.status).toBe(400);
    expect(fileErrors(result)).toEqual([message]);
    expect(await prisma.animationCaption.count({ where: { animationId: animation.id } })).toBe(0);
    expect(await storedObjectCount()).toBe(before);
    expect(await prisma.auditLog.count({ where: { action: { startsWith: "caption." }, summary: { contains: animation.title } } })).toBe(0);
  });

  it("refuses a file over 1 MB", async () => {
    const animation = await newAnimation();
    const cue = "00:00.000 --> 00:01.000\nThe knee joint and its ligaments, again and again.\n\n";
    const content = `WEBVTT\n\n${cue.repeat(Math.ceil((1024 * 1024) / cue.length) + 10)}`;
    const before = await storedObjectCount();
    const result = await upload(animation.id, { name: "long.vtt", content });
    expect(result.status).toBe(400);
    expect(fileErrors(result)).toEqual(["File size must be less than 1MB."]);
    expect(await storedObjectCount()).toBe(before);
  });

  it("asks for a file and a known language", async () => {
    const animation = await newAnimation();
    const result = await upload(animation.id, null, { language: "xx" });
    expect(result.status).toBe(400);
    expect(result.body.result.error.language).toEqual(["Choose a language"]);
    expect(result.body.result.error.file).toEqual(["Choose a .vtt caption file"]);
  });

  it("never attaches a path typed into the form instead of a file", async () => {
    const animation = await newAnimation();
    const other = await newAnimation();
    await upload(other.id, { name: "a.vtt", content: VTT });
    const existing = await prisma.animationCaption.findFirstOrThrow({ where: { animationId: other.id } });
    const form = new FormData();
    form.append("language", "en");
    form.append("file", existing.path);
    const result = await callRoute(medical, url(animation.id), { method: "POST", body: form, params: { id: animation.id }, cookie: adminCookie });
    expect(result.status).toBe(400);
    expect(await prisma.animationCaption.count({ where: { animationId: animation.id } })).toBe(0);
    expect(objectFileExists(existing.path)).toBe(true);
  });

  it("replaces the track of a language already present and deletes the old file after the commit", async () => {
    const animation = await newAnimation();
    await upload(animation.id, { name: "v1.vtt", content: VTT });
    const first = await prisma.animationCaption.findFirstOrThrow({ where: { animationId: animation.id } });
    const result = await upload(
      animation.id,
      { name: "v2.vtt", content: "WEBVTT\n\n00:00.000 --> 00:03.000\nSecond version.\n" },
      { label: "English (revised)" },
    );
    expect(result.status).toBe(302);
    const rows = await prisma.animationCaption.findMany({ where: { animationId: animation.id } });
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ id: first.id, label: "English (revised)", transcript: "Second version.", cueCount: 1 });
    expect(rows[0]!.path).not.toBe(first.path);
    expect(objectFileExists(first.path)).toBe(false);
    expect(objectFileExists(rows[0]!.path)).toBe(true);
    const audit = await auditRows(first.id);
    expect(audit.map((a) => a.action)).toEqual(["caption.create", "caption.replace"]);
    expect(audit[1]!.changes).toMatchObject({ label: ["English", "English (revised)"], path: [first.path, rows[0]!.path] });
  });

  it("answers 404 for an unknown animation and leaves no file", async () => {
    const id = crypto.randomUUID();
    const before = await storedObjectCount();
    const result = await upload(id, { name: "a.vtt", content: VTT });
    expect(result.status).toBe(404);
    expect(await storedObjectCount()).toBe(before);
  });
});

describe("caption delete", () => {
  it("shows the confirm step, deletes the track and its file, and audits it", async () => {
    const animation = await newAnimation();
    await upload(animation.id, { name: "a.vtt", content: VTT });
    const caption = await prisma.animationCaption.findFirstOrThrow({ where: { animationId: animation.id } });
    const page = await callRoute(medical, `${url(animation.id)}?confirm=${caption.id}&intent=delete`, { params: { id: animation.id }, cookie: adminCookie });
    expect(page.status).toBe(200);
    expect(page.body.confirm).toMatchObject({ id: caption.id, language: "en" });

    const result = await post(animation.id, { intent: "delete", id: caption.id });
    expect(result.status).toBe(302);
    expect(await prisma.animationCaption.findUnique({ where: { id: caption.id } })).toBeNull();
    expect(objectFileExists(caption.path)).toBe(false);
    const audit = await auditRows(caption.id);
    expect(audit.at(-1)).toMatchObject({ action: "caption.delete", entityType: "caption" });
    expect(audit.at(-1)!.changes).toMatchObject({ language: ["en", null] });
  });

  it("answers 404 for an unknown or another animation's caption, 400 for bad input, without audit rows", async () => {
    const animation = await newAnimation();
    const other = await newAnimation();
    await upload(other.id, { name: "a.vtt", content: VTT });
    const othersCaption = await prisma.animationCaption.findFirstOrThrow({ where: { animationId: other.id } });
    const auditsBefore = await prisma.auditLog.count();
    expect((await post(animation.id, { intent: "delete", id: crypto.randomUUID() })).status).toBe(404);
    expect((await post(animation.id, { intent: "delete", id: othersCaption.id })).status).toBe(404);
    expect((await post(animation.id, { intent: "delete", id: "nope" })).status).toBe(404);
    expect((await post(animation.id, {})).status).toBe(400);
    // A JSON body is no form: the edge refuses it before the page (415).
    expect((await callRoute(medical, url(animation.id), { json: {}, params: { id: animation.id }, cookie: adminCookie })).status).toBe(415);
    expect(await prisma.animationCaption.findUnique({ where: { id: othersCaption.id } })).not.toBeNull();
    expect(await prisma.auditLog.count()).toBe(auditsBefore);
  });
});

describe("who may read a caption file", () => {
  async function captionOf(isActive: boolean) {
    const animation = await newAnimation({ isActive });
    await upload(animation.id, { name: "a.vtt", content: VTT });
    return prisma.animationCaption.findFirstOrThrow({ where: { animationId: animation.id } });
  }

  it("serves the captions of an active animation to anyone, as text/vtt", async () => {
    const caption = await captionOf(true);
    const response = await fetch(`${app.url}${caption.path}`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/vtt");
    expect(await response.text()).toBe(VTT);
  });

  it("keeps the captions of an inactive animation for admins", async () => {
    const caption = await captionOf(false);
    expect((await fetch(`${app.url}${caption.path}`)).status).toBe(401);
    expect((await fetch(`${app.url}${caption.path}`, { headers: { Cookie: userCookie } })).status).toBe(403);
    const asAdmin = await fetch(`${app.url}${caption.path}`, { headers: { Cookie: adminCookie } });
    expect(asAdmin.status).toBe(200);
    expect(asAdmin.headers.get("cache-control")).toBe("private, no-store");
  });
});

describe("the public answer", () => {
  it("carries the tracks (English first) and the current medical review", async () => {
    const animation = await newAnimation();
    await upload(animation.id, { name: "es.vtt", content: "WEBVTT\n\n00:00.000 --> 00:01.000\nHola\n" }, { language: "es" });
    await upload(animation.id, { name: "en.vtt", content: VTT }, { language: "en", label: "English" });
    await post(animation.id, { intent: "review", reviewedAt: "2026-11-03", reviewDueAt: "" });
    const result = await callRoute(animationApi, `http://localhost:3000/api/animations/${animation.slug}`, { params: { slugOrId: animation.slug } });
    expect(result.status).toBe(200);
    const captions = await prisma.animationCaption.findMany({ where: { animationId: animation.id } });
    const pathOf = (language: string) => captions.find((c) => c.language === language)!.path;
    expect(result.body.captions).toEqual([
      { language: "en", label: "English", src: pathOf("en") },
      { language: "es", label: "Spanish", src: pathOf("es") },
    ]);
    expect(result.body.medicalReview).toEqual({
      doctor: { id: reviewer.id, slug: expect.any(String), name: "Dr. Lee", specialty: "Orthopaedics" },
      reviewedAt: "2026-11-03T00:00:00.000Z",
      nextReviewAt: "2027-11-03T00:00:00.000Z",
    });
    expect(result.body.transcript).toMatchObject({ language: "en", text: expect.stringContaining("meniscus") });
  });
});

describe("medical review", () => {
  it("saves the dates, the due date defaulting to twelve months later, with an audit row", async () => {
    const animation = await newAnimation();
    const result = await post(animation.id, { intent: "review", reviewedAt: "2026-02-28", reviewDueAt: "" });
    expect(result.status).toBe(302);
    const saved = await prisma.animation.findUniqueOrThrow({ where: { id: animation.id } });
    expect(saved.medicallyReviewedAt?.toISOString()).toBe("2026-02-28T00:00:00.000Z");
    expect(saved.reviewDueAt?.toISOString()).toBe("2027-02-28T00:00:00.000Z");
    const audit = (await auditRows(animation.id)).at(-1);
    expect(audit).toMatchObject({ action: "animation.review", entityType: "animation" });
    expect(audit!.changes).toEqual({
      medicallyReviewedAt: [null, "2026-02-28T00:00:00.000Z"],
      reviewDueAt: [null, "2027-02-28T00:00:00.000Z"],
      medicalReviewerId: [null, reviewer.id],
    });

    expect((await post(animation.id, { intent: "review", reviewedAt: "2026-03-01", reviewDueAt: "2026-09-01" })).status).toBe(302);
    const again = await prisma.animation.findUniqueOrThrow({ where: { id: animation.id } });
    expect(again.reviewDueAt?.toISOString()).toBe("2026-09-01T00:00:00.000Z");
  });

  it.each([
    [{ reviewedAt: "" }, "reviewedAt", "Reviewed on is required"],
    [{ reviewedAt: "2026-02-30" }, "reviewedAt", "Enter a valid date"],
    [{ reviewedAt: "2026-03-01", reviewDueAt: "2026-03-01" }, "reviewDueAt", "Next review must be after the review date"],
    [{ reviewedAt: "2099-01-01" }, "reviewedAt", "Reviewed on cannot be in the future"],
  ])("refuses %j with a 400 and no change", async (input, field, message) => {
    const animation = await newAnimation();
    const result = await post(animation.id, { intent: "review", ...input });
    expect(result.status).toBe(400);
    expect(result.body.result.error[field]).toEqual([message]);
    const saved = await prisma.animation.findUniqueOrThrow({ where: { id: animation.id } });
    expect(saved.medicallyReviewedAt).toBeNull();
    expect(await auditRows(animation.id)).toEqual([]);
  });

  it("answers 404 for an unknown animation", async () => {
    const id = crypto.randomUUID();
    expect((await post(id, { intent: "review", reviewedAt: "2026-01-01" })).status).toBe(404);
    expect((await callRoute(medical, url(id), { params: { id }, cookie: adminCookie })).status).toBe(404);
    expect((await callRoute(medical, url("not-a-uuid"), { params: { id: "not-a-uuid" }, cookie: adminCookie })).status).toBe(404);
  });

  it("lists the animations due for review: never reviewed first, then by due date, within 30 days", async () => {
    await prisma.animation.updateMany({ data: { medicallyReviewedAt: new Date("2026-01-01"), reviewDueAt: new Date("2030-01-01") } });
    const now = new Date("2026-11-24T00:00:00Z");
    const never = await newAnimation();
    const overdue = await newAnimation();
    const soon = await newAnimation();
    const later = await newAnimation();
    await prisma.animation.update({ where: { id: never.id }, data: { medicallyReviewedAt: null, reviewDueAt: null } });
    await prisma.animation.update({ where: { id: overdue.id }, data: { medicallyReviewedAt: new Date("2025-10-01"), reviewDueAt: new Date("2026-10-01") } });
    await prisma.animation.update({ where: { id: soon.id }, data: { medicallyReviewedAt: new Date("2025-12-10"), reviewDueAt: new Date("2026-12-10") } });
    await prisma.animation.update({ where: { id: later.id }, data: { medicallyReviewedAt: new Date("2026-06-01"), reviewDueAt: new Date("2027-06-01") } });
    const due = await listAnimationsDueForReview({ now, limit: 10 });
    expect(due.map((a) => a.id)).toEqual([never.id, overdue.id, soon.id]);
    expect((await listAnimationsDueForReview({ now, limit: 2 })).map((a) => a.id)).toEqual([never.id, overdue.id]);
  });
});
