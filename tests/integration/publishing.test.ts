import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { prisma } from "~/lib/db.server.ts";
import { stopJobQueue } from "~/lib/jobs.server.ts";
import { SYSTEM_PUBLISHER } from "~/services/catalogue/publishing.server.ts";
import { claimJob, runTranscodeJob } from "~/services/media/media-jobs.server.ts";
import { multipartForm, sendToApp } from "../helpers/app.ts";
import { accessTokenFor, createPaidSubscription, createUser, sessionCookieFor } from "../helpers/factories.ts";
import { fileBytes, makeTestVideo, storeFile } from "./media-helpers.ts";

// Decision 032, through the front door: an animation made on the admin form is a draft (on no
// public page, call, search, sitemap or count) until its video is processed — the real
// transcode job on a tiny ffmpeg-made master — and its medical review is recorded; "Publish
// when ready" publishes it in the transaction of whichever comes last; publishing too early is a
// 409 naming what is missing; the list filters by state; unpublished, its licensee keeps it.

const ORIGIN = new URL(process.env.APP_URL ?? "http://localhost:3000").origin;
const workDir = fs.mkdtempSync(path.join(os.tmpdir(), "medanim-publishing-"));
let master: Buffer;

type World = Awaited<ReturnType<typeof createWorld>>;
let world: World;

async function createWorld() {
  const n = crypto.randomUUID().slice(0, 8);
  const main = await prisma.category.create({ data: { name: `Spine ${n}`, slug: `spine-${n}` } });
  const sub = await prisma.category.create({ data: { name: `Discs ${n}`, slug: `discs-${n}`, parentId: main.id, yearlyPrice: 199 } });
  const doctor = await prisma.doctor.create({ data: { name: `Dr. Vera Stone ${n}`, slug: `vera-stone-${n}`, specialty: "Spine Surgery" } });
  // One published, reviewed animation already: the home page's review headline counts from it.
  await prisma.animation.create({
    data: {
      title: `Disc Basics ${n}`,
      slug: `disc_basics_${n}`,
      description: "The spine's discs.",
      categoryId: sub.id,
      isActive: true,
      medicalReviewerId: doctor.id,
      medicallyReviewedAt: new Date(Date.now() - 86_400_000),
      reviewDueAt: new Date(Date.now() + 300 * 86_400_000),
    },
  });
  const admin = await createUser({ role: "admin" });
  return { n, main, sub, doctor, adminCookie: await sessionCookieFor(admin.id), adminToken: await accessTokenFor(admin.id) };
}

beforeAll(async () => {
  const file = path.join(workDir, "master.mp4");
  makeTestVideo(file, "320x180", 3, false);
  master = fs.readFileSync(file);
  world = await createWorld();
});

afterAll(async () => {
  await stopJobQueue();
  fs.rmSync(workDir, { recursive: true, force: true });
});

/** The admin's create form, without JavaScript: the three files streamed with the fields. */
async function createOnForm(title: string, { publishWhenReady }: { publishWhenReady: boolean }) {
  const form = multipartForm(
    {
      title,
      description: `${title}, step by step.`,
      individualPrice: "149",
      duration: "",
      categoryId: world.sub.id,
      doctorIds: world.doctor.id,
      ...(publishWhenReady ? { publishWhenReady: "on" } : {}),
    },
    {
      coverImage: { name: "cover.jpg", type: "image/jpeg", bytes: fileBytes("jpg") },
      fullVideo: { name: "master.mp4", type: "video/mp4", bytes: master },
      downloadFile: { name: "extras.zip", type: "application/zip", bytes: fileBytes("zip") },
    },
  );
  const saved = await sendToApp("/admin/animations/new", {
    method: "POST",
    headers: new Headers({ "Content-Type": form.type, Origin: ORIGIN, Cookie: world.adminCookie }),
    body: form.body,
  });
  expect(saved.status, saved.body.toString("utf8").slice(0, 500)).toBe(302);
  return prisma.animation.findFirstOrThrow({ where: { title } });
}

const get = (target: string, headers: Record<string, string> = {}) => sendToApp(target, { headers: new Headers(headers) });
const text = (response: { body: Buffer }) => response.body.toString("utf8").replaceAll("<!-- -->", "").replaceAll("&amp;", "&");

function postForm(target: string, fields: Record<string, string>, cookie = world.adminCookie) {
  return sendToApp(target, {
    method: "POST",
    headers: new Headers({ "Content-Type": "application/x-www-form-urlencoded", Origin: ORIGIN, Cookie: cookie }),
    body: new URLSearchParams(fields).toString(),
  });
}

const publishApi = (id: string, action: "publish" | "unpublish" = "publish") =>
  sendToApp(`/api/admin/animations/${id}/${action}`, { method: "POST", headers: new Headers({ Authorization: `Bearer ${world.adminToken}` }) });

/** Runs the animation's queued transcode as the queue's worker would: ffmpeg, the set, its transaction. */
async function runTranscode(animationId: string) {
  const queued = await prisma.mediaJob.findFirstOrThrow({ where: { animationId, status: "queued" }, orderBy: { createdAt: "desc" } });
  const job = await claimJob(queued.id, "publishing-test");
  expect(job).not.toBeNull();
  expect(await runTranscodeJob(job!, "publishing-test")).toBe("done");
}

const today = () => new Date().toISOString().slice(0, 10);
const saveReview = (id: string) => postForm(`/admin/animations/${id}/medical`, { intent: "review", reviewerId: world.doctor.id, reviewedAt: today() });

/** "N of M animations medically reviewed" (or "All M ...") from the home page. */
async function headline() {
  const html = text(await get("/"));
  const some = /(\d+) of (\d+) animations? medically reviewed/.exec(html);
  if (some) return { reviewed: Number(some[1]), published: Number(some[2]) };
  const all = /All (\d+) animations? medically reviewed/.exec(html);
  expect(all, "the home page's review headline").not.toBeNull();
  return { reviewed: Number(all![1]), published: Number(all![1]) };
}

/** Where a visitor could meet the animation: its page, its call, the API list, search, the sitemap. */
async function publicPresence(animation: { slug: string; title: string }) {
  const [page, call, list, search, sitemap] = await Promise.all([
    get(`/animations/${animation.slug}`),
    get(`/api/animations/${animation.slug}`),
    get(`/api/animations?search=${encodeURIComponent(animation.title)}`),
    get(`/search?q=${encodeURIComponent(animation.title)}`),
    get("/sitemap-animations.xml?page=1"),
  ]);
  return {
    page: page.status,
    call: call.status,
    list: text(list).includes(animation.slug),
    search: text(search).includes(`/animations/${animation.slug}`),
    sitemap: text(sitemap).includes(`/animations/${animation.slug}`),
  };
}
const ABSENT = { page: 404, call: 404, list: false, search: false, sitemap: false };
const PRESENT = { page: 200, call: 200, list: true, search: true, sitemap: true };

/** The admin list's HTML for a query, as a browser without JavaScript gets it. */
async function listPage(query: string) {
  return text(await get(`/admin/animations?${query}`, { Cookie: world.adminCookie }));
}

describe("a new animation is a draft until its video and its review are done", () => {
  let animation: Awaited<ReturnType<typeof createOnForm>>;

  it("created on the form (publish when ready): a draft, processing, on no public page or count; its duration and size are the video's", async () => {
    const before = await headline();
    const categoryCount = async () => (await prisma.category.findUniqueOrThrow({ where: { id: world.sub.id } })).animationCount;
    const countBefore = await categoryCount();
    animation = await createOnForm(`Disc Repair ${world.n}`, { publishWhenReady: true });
    // The category's count (its pages and cards print it) leaves drafts out too.
    expect(await categoryCount()).toBe(countBefore);
    expect(animation).toMatchObject({ isActive: false, publishWhenReady: true, duration: 3, durationProbed: true, videoWidth: 320, videoHeight: 180 });
    expect(await publicPresence(animation)).toEqual(ABSENT);
    expect(await headline()).toEqual(before);

    // The list shows its state; the state filter (a GET query) finds it with the other filters.
    expect(await listPage(`search=${encodeURIComponent(animation.title)}`)).toContain("Processing");
    expect(await listPage(`state=processing&category=${world.sub.id}`)).toContain(animation.title);
    expect(await listPage(`state=draft&category=${world.sub.id}`)).not.toContain(animation.title);
    expect(await listPage(`state=published&category=${world.sub.id}`)).not.toContain(animation.title);

    // The edit form shows the probed duration read-only, with its m:ss from the server.
    const form = text(await get(`/admin/animations/${animation.id}`, { Cookie: world.adminCookie }));
    expect(form).toMatch(/<input[^>]*name="duration"[^>]*readOnly|<input[^>]*readOnly[^>]*name="duration"/i);
    expect(form).toContain("Shown as 0:03. Read from the full video (320×180).");
  });

  it("publishing it now is refused: 409 naming what is missing (API), the same message on the list (HTML)", async () => {
    const message = `Cannot publish “${animation.title}” yet: its video is still processing and it has no current medical review.`;
    const refused = await publishApi(animation.id);
    expect(refused.status).toBe(409);
    expect(JSON.parse(refused.body.toString("utf8"))).toEqual({ message });
    const fromList = await postForm("/admin/animations", { intent: "publish", id: animation.id });
    expect(fromList.status).toBe(409);
    expect(text(fromList)).toContain(message);
    expect((await prisma.animation.findUniqueOrThrow({ where: { id: animation.id } })).isActive).toBe(false);
  });

  it("its ladder done by the real transcode job: ready for review, still a draft; then the review publishes it, with the system's audit row", async () => {
    await runTranscode(animation.id);
    expect(await prisma.animation.findUniqueOrThrow({ where: { id: animation.id } })).toMatchObject({ isActive: false, publishWhenReady: true });
    expect(await listPage(`state=review&category=${world.sub.id}`)).toContain(animation.title);
    const refused = await publishApi(animation.id);
    expect(JSON.parse(refused.body.toString("utf8")).message).toBe(`Cannot publish “${animation.title}” yet: it has no current medical review.`);
    expect(await publicPresence(animation)).toEqual(ABSENT);

    const before = await headline();
    const saved = await saveReview(animation.id);
    expect(saved.status).toBe(302);
    expect(await prisma.animation.findUniqueOrThrow({ where: { id: animation.id } })).toMatchObject({ isActive: true, publishWhenReady: false });
    const audit = await prisma.auditLog.findFirstOrThrow({ where: { entityId: animation.id, action: "animation.publish" } });
    expect(audit).toMatchObject({ actorId: null, actorEmail: SYSTEM_PUBLISHER.email });
    expect(await publicPresence(animation)).toEqual(PRESENT);
    expect(await headline()).toEqual({ reviewed: before.reviewed + 1, published: before.published + 1 });
    expect((await prisma.category.findUniqueOrThrow({ where: { id: world.sub.id } })).animationCount).toBe(2);
    expect(await listPage(`state=published&category=${world.sub.id}`)).toContain(animation.title);
  });

  it("the review first, the ladder last: the transcode job's transaction publishes it", async () => {
    const other = await createOnForm(`Disc Fusion ${world.n}`, { publishWhenReady: true });
    expect((await saveReview(other.id)).status).toBe(302);
    expect((await prisma.animation.findUniqueOrThrow({ where: { id: other.id } })).isActive).toBe(false);
    await runTranscode(other.id);
    expect((await prisma.animation.findUniqueOrThrow({ where: { id: other.id } })).isActive).toBe(true);
    expect(await prisma.auditLog.count({ where: { entityId: other.id, action: "animation.publish", actorEmail: SYSTEM_PUBLISHER.email } })).toBe(1);
  });

  it("without publish when ready, a ready draft waits for the admin's Publish", async () => {
    const manual = await createOnForm(`Disc Graft ${world.n}`, { publishWhenReady: false });
    await runTranscode(manual.id);
    expect((await saveReview(manual.id)).status).toBe(302);
    expect((await prisma.animation.findUniqueOrThrow({ where: { id: manual.id } })).isActive).toBe(false);
    expect(await listPage(`state=ready&category=${world.sub.id}`)).toContain(manual.title);
    expect(await publicPresence(manual)).toEqual(ABSENT);
    const published = await publishApi(manual.id);
    expect(published.status).toBe(200);
    expect(JSON.parse(published.body.toString("utf8"))).toMatchObject({ isActive: true });

    // The probed duration is the video's: an edit that sends another one keeps it.
    const row = await prisma.animation.findUniqueOrThrow({ where: { id: manual.id } });
    const edited = await sendToApp(`/api/animations/${manual.id}`, {
      method: "PUT",
      headers: new Headers({ Authorization: `Bearer ${world.adminToken}`, "Content-Type": "application/json" }),
      body: JSON.stringify({
        title: row.title,
        description: "Edited.",
        coverImage: row.coverImage,
        fullVideo: row.fullVideo,
        downloadFile: row.downloadFile,
        individualPrice: "149.00",
        duration: 999,
        categoryId: row.categoryId,
        doctorIds: [world.doctor.id],
      }),
    });
    expect(edited.status, edited.body.toString("utf8")).toBe(200);
    expect(JSON.parse(edited.body.toString("utf8"))).toMatchObject({ description: "Edited.", duration: 3, durationProbed: true, isActive: true });
  });

  it("a draft with no video says so", async () => {
    const bare = await prisma.animation.create({ data: { title: `Bare ${world.n}`, slug: `bare_${world.n}`, description: "x", isActive: false } });
    const refused = await publishApi(bare.id);
    expect(refused.status).toBe(409);
    expect(JSON.parse(refused.body.toString("utf8")).message).toBe(
      `Cannot publish “Bare ${world.n}” yet: it has no full video and it has no current medical review.`,
    );
  });
});

describe("unpublished: its licensee keeps it, the catalogue does not", () => {
  it("an individual licensee still watches (the signed stream), downloads, and their patient link plays; a category licensee and premium no longer; no public page, search or sitemap", async () => {
    const animation = await prisma.animation.findFirstOrThrow({ where: { title: `Disc Repair ${world.n}` } });
    expect(animation.isActive).toBe(true);
    const licensee = await createUser();
    const { subscription: licence } = await createPaidSubscription(licensee.id, { type: "individual", animationId: animation.id });
    // A patient link the licensee sent before the animation was withdrawn.
    const link = await prisma.patientLink.create({
      data: {
        token: crypto.randomBytes(32).toString("base64url"),
        subscriptionId: licence.id,
        createdById: licensee.id,
        expiresAt: new Date(Date.now() + 30 * 86_400_000),
        animations: { create: { animationId: animation.id, position: 0 } },
      },
    });
    const categoryHolder = await createUser();
    await createPaidSubscription(categoryHolder.id, { type: "category", categoryId: world.sub.id });
    const premium = await createUser({ accountType: "premium" });
    const [licenseeCookie, categoryCookie, premiumCookie] = await Promise.all([licensee, categoryHolder, premium].map((u) => sessionCookieFor(u.id)));
    const caption = await storeFile("caption", "mp4", "text/vtt", 120);
    await prisma.animationCaption.create({ data: { animationId: animation.id, language: "en", label: "English", path: caption.path } });
    expect((await get(caption.path)).status, "published: its captions are public").toBe(200);

    const unpublished = await publishApi(animation.id, "unpublish");
    expect(unpublished.status).toBe(200);
    expect(await publicPresence(animation)).toEqual(ABSENT);

    const watch = await get(`/watch/${animation.id}`, { Cookie: licenseeCookie });
    expect(watch.status).toBe(200);
    const html = text(watch);
    const playlist = /\/media\/[0-9a-f-]{36}\/[^"\s]+\/hls\/master\.m3u8/.exec(html)?.[0];
    expect(playlist, "the watch page's signed stream").toBeTruthy();
    expect((await get(playlist!, { Cookie: licenseeCookie })).status).toBe(200);
    expect(html).toContain(`/packages/${animation.slug}.zip`);
    // The captions go with the video: the licensee's player keeps them, the public does not.
    expect((await get(caption.path, { Cookie: licenseeCookie })).status).toBe(200);
    expect((await get(caption.path)).status).toBe(401);
    expect((await get(caption.path, { Cookie: categoryCookie })).status).toBe(403);
    const library = await get("/my-animations", { Cookie: licenseeCookie });
    expect(text(library), "My Animations still lists it").toContain(`/watch/${animation.id}`);
    expect(text(await get("/my-animations", { Cookie: categoryCookie }))).not.toContain(`/watch/${animation.id}`);
    const zip = await get(`/packages/${animation.slug}.zip`, { Cookie: licenseeCookie });
    expect(zip.status).toBe(200);
    expect(zip.body.subarray(0, 2).toString("latin1")).toBe("PK");

    const patientPage = await get(`/p/${link.token}`);
    expect(patientPage.status).toBe(200);
    expect(text(patientPage)).toContain(animation.title);
    expect(text(patientPage)).toContain("<video");

    for (const cookie of [categoryCookie, premiumCookie]) expect((await get(`/watch/${animation.id}`, { Cookie: cookie })).status).toBe(404);
    expect((await get(`/packages/${animation.slug}.zip`, { Cookie: categoryCookie })).status).toBe(403);
  });
});
