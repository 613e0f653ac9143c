import crypto from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { prisma } from "~/lib/db.server.ts";
import { FORM_KEPT } from "~/services/auth/step-up.server.ts";
import { downloadsNotConfirmed, refundAnywayLabel } from "~/validation/admin-refunds.ts";
import { jsonBody as json, pageText as text, sendToApp } from "../helpers/app.ts";
import { accessTokenFor, createPaidSubscription, createUser, sessionCookieFor, totpCode, totpSecrets } from "../helpers/factories.ts";
import { useMailCapture } from "../helpers/mail-capture.ts";
import { storeFile } from "./media-helpers.ts";

// The refund decision through the front door (issue 47): the page and GET /api/admin/refund-requests/{id}
// show what the refund would take back; the licence's files are downloaded through the real
// /packages route (so the Download rows are the ones production writes). Plays, embeds and patient
// links are rows as the playback rollup, the embed player and the licence page leave them (those
// writers have their own tests: playback-analytics, embeds, patient-links). Approving a refund of
// downloaded files needs a confirmation, on the page and in the API; a decision sent without a
// recent second factor keeps its notes through the step-up detour.

useMailCapture();

const ORIGIN = new URL(process.env.APP_URL ?? "http://localhost:3000").origin;
const DAY = 24 * 60 * 60 * 1000;
let animation: { id: string; slug: string; title: string };

const someAddress = () => `10.47.${crypto.randomInt(0, 255)}.${crypto.randomInt(1, 255)}`;

const post = (path: string, cookie: string, form: Record<string, string>, ip = someAddress()) =>
  sendToApp(path, {
    method: "POST",
    headers: new Headers({ "Content-Type": "application/x-www-form-urlencoded", Origin: ORIGIN, Cookie: cookie, "X-Forwarded-For": ip }),
    body: new URLSearchParams(form).toString(),
  });
const get = (path: string, headers: Record<string, string>) => sendToApp(path, { headers: new Headers(headers) });

beforeAll(async () => {
  const n = crypto.randomUUID().slice(0, 8);
  const category = await prisma.category.create({ data: { name: `Spine ${n}`, slug: `spine-${n}` } });
  const master = await storeFile("video", "mp4", "video/mp4", 16 * 1024);
  animation = await prisma.animation.create({
    data: {
      title: `Spinal fusion ${n}`,
      slug: `spinal_fusion_${n}`,
      description: "How vertebrae are joined.",
      fullVideo: master.path,
      categoryId: category.id,
    },
    select: { id: true, slug: true, title: true },
  });
});

/** A member's individual licence, paid yesterday, with a pending refund request. */
async function refundCase({ downloads = true } = {}) {
  const member = await createUser();
  const { subscription, payment } = await createPaidSubscription(member.id, { type: "individual", animationId: animation.id, amount: 49 });
  const request = await prisma.refundRequest.create({
    data: {
      userId: member.id,
      paymentId: payment.id,
      reason: "not-satisfied",
      description: "Not what my clinic needed after all.",
      contactEmail: member.email,
    },
  });
  if (downloads) {
    const cookie = await sessionCookieFor(member.id);
    // The whole package, then one file of it: two files, as the library's links fetch them.
    expect((await get(`/packages/${animation.slug}.zip`, { Cookie: cookie })).status).toBe(200);
    expect((await get(`/packages/${animation.slug}/LICENSE.txt`, { Cookie: cookie })).status).toBe(200);
    // The route records a download after the response is sent.
    await expect.poll(() => prisma.download.count({ where: { subscriptionId: subscription.id } })).toBe(2);
  }
  return { member, subscription, payment, request };
}

async function admin(stepUp: "now" | "earlier" = "now") {
  const user = await createUser({ role: "admin" });
  return { user, cookie: await sessionCookieFor(user.id, { stepUp }), token: await accessTokenFor(user.id) };
}

describe("what the refund takes back", () => {
  it("the decision page and the API's detail list the licence's downloads, plays, embeds, patient links and the refund window", async () => {
    const c = await refundCase();
    const today = new Date().toISOString().slice(0, 10);
    await prisma.playbackDaily.create({
      data: {
        day: new Date(Date.now() - DAY),
        subscriptionId: c.subscription.id,
        animationId: animation.id,
        sourceKind: "site",
        source: "clinic.example",
        plays: 5,
        viewers: 4,
        watchedSum: 3.5,
        reached25: 5,
        reached50: 4,
        reached75: 3,
        reached100: 2,
      },
    });
    await prisma.playbackEvent.createMany({
      data: ["play", "q25"].map((kind) => ({
        subscriptionId: c.subscription.id,
        animationId: animation.id,
        sourceKind: "link",
        source: crypto.randomUUID(),
        viewerHash: "v1",
        playId: "00000000-0000-4000-8000-0000000000aa",
        kind,
        fraction: kind === "play" ? 0 : 0.25,
      })),
    });
    await prisma.licenceEmbedDomain.create({ data: { subscriptionId: c.subscription.id, host: "clinic.example" } });
    await prisma.embedPlay.createMany({
      data: [
        { subscriptionId: c.subscription.id, animationId: animation.id, host: "clinic.example", plays: 6 },
        // A site taken off the licence's list since: its plays still count.
        { subscriptionId: c.subscription.id, animationId: animation.id, host: "old.example", plays: 2 },
      ],
    });
    await prisma.patientLink.create({
      data: {
        token: crypto.randomBytes(32).toString("base64url"),
        subscriptionId: c.subscription.id,
        createdById: c.member.id,
        label: "Mr F.",
        expiresAt: new Date(Date.now() + 30 * DAY),
        sentAt: new Date(),
        firstOpenedAt: new Date(),
      },
    });
    const { cookie, token } = await admin();

    const page = await get(`/admin/refunds/${c.request.id}`, { Cookie: cookie });
    expect(page.status).toBe(200);
    const html = text(page);
    expect(html).toContain(`Individual license: ${animation.title}`);
    expect(html).toContain("2 files downloaded (2 downloads)");
    expect(html).toContain("Whole package (ZIP)");
    expect(html).toContain("LICENSE.txt");
    expect(html).toContain("6 plays: 5 on the clinic's sites (embeds), 1 through patient links.");
    expect(html).toContain("clinic.example: 6 plays in all");
    expect(html).toContain("old.example: 2 plays in all (not on the license's list now)");
    expect(html).toContain("1 link created, 1 e-mailed, 1 opened by a patient, 0 watched to the end.");
    expect(html).toMatch(
      /the 30-day refund window ends [A-Z][a-z]{2} \d{1,2}, \d{4}\. The request came on [A-Z][a-z]{2} \d{1,2}, \d{4}, <strong>inside the window<\/strong>/,
    );
    expect(html).toContain(refundAnywayLabel(2));

    const detail = await get(`/api/admin/refund-requests/${c.request.id}`, { Authorization: `Bearer ${token}` });
    expect(detail.status).toBe(200);
    const body = json(detail);
    expect(body.request).toMatchObject({ id: c.request.id, status: "pending", paymentAmount: 49 });
    expect(body.evidence.window).toMatchObject({ days: 30, requestedWithin: true, openNow: true });
    expect(Date.parse(body.evidence.window.endsAt) - Date.parse(body.evidence.window.paidAt)).toBe(30 * DAY);
    expect(body.evidence.licence).toMatchObject({ id: c.subscription.id, type: "individual", label: `Individual license: ${animation.title}` });
    expect(body.evidence.downloads).toMatchObject({ files: 2, downloads: 2 });
    expect(body.evidence.downloads.listed.map((f: { file: string }) => f.file).sort()).toEqual(["LICENSE.txt", "package"]);
    expect(body.evidence.plays).toEqual({ fromDay: c.payment.createdAt.toISOString().slice(0, 10), site: 5, link: 1, total: 6 });
    expect(today >= body.evidence.plays.fromDay).toBe(true);
    expect(body.evidence.embeds).toEqual({
      sites: [
        { host: "clinic.example", allowed: true, plays: 6 },
        { host: "old.example", allowed: false, plays: 2 },
      ],
      plays: 8,
    });
    expect(body.evidence.patientLinks).toEqual({ created: 1, sent: 1, opened: 1, completed: 0 });

    expect((await get("/api/admin/refund-requests/00000000-0000-4000-8000-000000000000", { Authorization: `Bearer ${token}` })).status).toBe(404);
  });

  it("a licence with nothing downloaded says so and asks for no confirmation", async () => {
    const c = await refundCase({ downloads: false });
    const { cookie } = await admin();
    const html = text(await get(`/admin/refunds/${c.request.id}`, { Cookie: cookie }));
    expect(html).toContain("Nothing downloaded under this license since the payment.");
    expect(html).not.toContain("refund anyway");
    const approved = await post(`/admin/refunds/${c.request.id}`, cookie, { adminNotes: "Nothing was taken.", intent: "approve" });
    expect(approved.status).toBe(302);
    expect((await prisma.refundRequest.findUniqueOrThrow({ where: { id: c.request.id } })).status).toBe("processed");
  });
});

describe("approving a refund of downloaded files", () => {
  it("page: refused beside the checkbox without the confirmation, nothing changed; approved with it", async () => {
    const c = await refundCase();
    const { cookie } = await admin();
    const refused = await post(`/admin/refunds/${c.request.id}`, cookie, { adminNotes: "Refund despite the download.", intent: "approve" });
    expect(refused.status).toBe(409);
    const html = text(refused);
    // The message is the checkbox's own error (conform's `<form id>-confirmDownloads-error`), and the notes stay typed.
    expect(html).toMatch(new RegExp(`id="[^"]*-confirmDownloads-error"[^>]*>(?:<[^>]+>)*${downloadsNotConfirmed(2).replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}`));
    expect(html).toContain("Refund despite the download.</textarea>");
    expect(await prisma.refundRequest.findUniqueOrThrow({ where: { id: c.request.id } })).toMatchObject({ status: "pending", adminNotes: null });
    expect(await prisma.payment.findUniqueOrThrow({ where: { id: c.payment.id } })).toMatchObject({ status: "completed" });

    const approved = await post(`/admin/refunds/${c.request.id}`, cookie, {
      adminNotes: "Refund despite the download.",
      confirmDownloads: "on",
      intent: "approve",
    });
    expect(approved.status).toBe(302);
    expect(approved.headers.get("location")).toBe("/admin/refunds");
    expect(await prisma.refundRequest.findUniqueOrThrow({ where: { id: c.request.id } })).toMatchObject({
      status: "processed",
      adminNotes: "Refund despite the download.",
    });
    expect(await prisma.payment.findUniqueOrThrow({ where: { id: c.payment.id } })).toMatchObject({ status: "refunded" });
  });

  it("API: 409 with the message on confirmDownloads unless it is true; rejecting needs none", async () => {
    const c = await refundCase();
    const { token } = await admin();
    const put = (path: string, body: object) =>
      sendToApp(path, {
        method: "PUT",
        headers: new Headers({ Authorization: `Bearer ${token}`, "Content-Type": "application/json" }),
        body: JSON.stringify(body),
      });
    const refused = await put(`/api/admin/refund-requests/${c.request.id}/approve`, { adminNotes: "Refund." });
    expect(refused.status).toBe(409);
    expect(json(refused)).toEqual({ message: downloadsNotConfirmed(2), errors: { confirmDownloads: [downloadsNotConfirmed(2)] } });
    expect((await prisma.refundRequest.findUniqueOrThrow({ where: { id: c.request.id } })).status).toBe("pending");

    const approved = await put(`/api/admin/refund-requests/${c.request.id}/approve`, { adminNotes: "Refund.", confirmDownloads: true });
    expect(approved.status).toBe(200);
    expect(json(approved)).toMatchObject({ id: c.request.id, status: "processed" });

    const other = await refundCase();
    const rejected = await put(`/api/admin/refund-requests/${other.request.id}/reject`, { adminNotes: "Files were downloaded." });
    expect(rejected.status).toBe(200);
    expect(json(rejected)).toMatchObject({ status: "rejected" });
  });
});

describe("the step-up detour keeps what was typed", () => {
  it("a decision without a recent second factor goes to the step-up form and comes back with its notes, once", async () => {
    const c = await refundCase();
    const { user, cookie } = await admin("earlier");
    const ip = someAddress();
    const notes = "Downloaded both files the day after buying: no refund.";

    const detour = await post(`/admin/refunds/${c.request.id}`, cookie, { adminNotes: notes, confirmDownloads: "on", code: "123456", intent: "reject" }, ip);
    expect(detour.status).toBe(302);
    expect(detour.headers.get("location")).toBe(`/auth/step-up?redirectTo=${encodeURIComponent(`/admin/refunds/${c.request.id}`)}`);
    expect(detour.headers.get("set-cookie")).toBeTruthy();
    expect((await prisma.refundRequest.findUniqueOrThrow({ where: { id: c.request.id } })).status).toBe("pending");
    // Kept on the session's row: the notes and the checkbox, never a field that looks like a secret.
    const session = await prisma.session.findFirstOrThrow({ where: { userId: user.id }, select: { keptForm: true } });
    expect(session.keptForm).toMatchObject({ path: `/admin/refunds/${c.request.id}`, fields: { adminNotes: notes, confirmDownloads: "on" } });
    expect(JSON.stringify(session.keptForm)).not.toContain("123456");
    // The detour's toast (a flash cookie) says the notes are kept.
    const flash = detour.headers.get("set-cookie")!.split(";")[0]!;
    const stepUpPage = await get(detour.headers.get("location")!, { Cookie: `${cookie}; ${flash}` });
    expect(text(stepUpPage)).toContain(FORM_KEPT);

    const confirmed = await post(
      "/auth/step-up",
      cookie,
      { code: await totpCode(totpSecrets.get(user.id)!), redirectTo: `/admin/refunds/${c.request.id}` },
      ip,
    );
    expect(confirmed.status).toBe(302);
    expect(confirmed.headers.get("location")).toBe(`/admin/refunds/${c.request.id}`);

    const back = text(await get(`/admin/refunds/${c.request.id}`, { Cookie: cookie }));
    expect(back).toContain(`${notes}</textarea>`);
    expect(back).toMatch(/<input[^>]*type="checkbox"[^>]*name="confirmDownloads"[^>]*checked=""|<input[^>]*checked=""[^>]*name="confirmDownloads"/);
    // Taken once: a reload shows the form as stored.
    expect(text(await get(`/admin/refunds/${c.request.id}`, { Cookie: cookie }))).not.toContain(notes);

    const rejected = await post(`/admin/refunds/${c.request.id}`, cookie, { adminNotes: notes, intent: "reject" }, ip);
    expect(rejected.status).toBe(302);
    expect(rejected.headers.get("location")).toBe("/admin/refunds");
    expect(await prisma.refundRequest.findUniqueOrThrow({ where: { id: c.request.id } })).toMatchObject({ status: "rejected", adminNotes: notes });
  });

  it("another page does not take the kept fields; ten minutes later they are gone", async () => {
    const a = await refundCase({ downloads: false });
    const b = await refundCase({ downloads: false });
    const { user, cookie } = await admin("earlier");
    await post(`/admin/refunds/${a.request.id}`, cookie, { adminNotes: "Kept for A.", intent: "approve" });
    expect(text(await get(`/admin/refunds/${b.request.id}`, { Cookie: cookie }))).not.toContain("Kept for A.");
    const session = await prisma.session.findFirstOrThrow({ where: { userId: user.id }, select: { id: true, keptForm: true } });
    expect(session.keptForm).toMatchObject({ fields: { adminNotes: "Kept for A." } });
    await prisma.session.update({
      where: { id: session.id },
      data: { keptForm: { ...(session.keptForm as object), savedAt: new Date(Date.now() - 11 * 60 * 1000).toISOString() } },
    });
    expect(text(await get(`/admin/refunds/${a.request.id}`, { Cookie: cookie }))).not.toContain("Kept for A.");
    expect((await prisma.session.findUniqueOrThrow({ where: { id: session.id } })).keptForm).toBeNull();
  });

  it("'Ask me again next time' ends this browser's step-up: the next decision goes through the detour", async () => {
    const c = await refundCase({ downloads: false });
    const { cookie } = await admin("now");
    const page = text(await get("/auth/step-up?redirectTo=%2Fadmin%2Frefunds", { Cookie: cookie }));
    expect(page).toContain("protected actions ask for nothing more until");
    const ended = await post("/auth/step-up", cookie, { intent: "end", redirectTo: "/admin/refunds" });
    expect(ended.status).toBe(302);
    expect(ended.headers.get("location")).toBe("/admin/refunds");
    // The back office stays open; the protected action asks again.
    expect((await get(`/admin/refunds/${c.request.id}`, { Cookie: cookie })).status).toBe(200);
    const detour = await post(`/admin/refunds/${c.request.id}`, cookie, { adminNotes: "Asked again.", intent: "reject" });
    expect(detour.headers.get("location")).toMatch(/^\/auth\/step-up\?redirectTo=/);
  });
});
