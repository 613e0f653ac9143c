import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { prisma } from "~/lib/db.server.ts";
import { getEnv } from "~/lib/env.server.ts";
import { MISUSE_REPORT_RULE, sendMisuseDigest } from "~/services/admin/misuse-reports.server.ts";
import { jobQueue, QUEUES } from "~/lib/jobs.server.ts";
import { startJobWorkers } from "~/services/job-workers.server.ts";
import { jsonBody as json, pageText as text, sendToApp } from "../helpers/app.ts";
import { createAnimation } from "../helpers/catalogue.ts";
import { accessTokenFor, createUser, sessionCookieFor } from "../helpers/factories.ts";
import { useMailCapture } from "../helpers/mail-capture.ts";

// The misuse inbox through the front door (decision 033): a report from the API or the
// animation page's form reaches /admin/misuse and GET /api/admin/misuse-reports; an admin moves
// it between states with a note (page form or PUT), every change audited and in its history;
// replies reach the reporter; the admins' digest lists each report once; the 11th report in an
// hour is refused with when to retry and the abuse mailbox; members and visitors are refused.

const mail = useMailCapture();
const ORIGIN = new URL(process.env.APP_URL ?? "http://localhost:3000").origin;
const ABUSE = "abuse@medanim-clinic.example";

const ip = () => `198.51.100.${crypto.randomInt(1, 250)}`;
let ipCounter = 0;
/** A client address of its own per report, so only the limit's own test reaches the limit. */
const nextIp = () => `203.0.113.${(ipCounter = (ipCounter % 250) + 1)}`;

function reportViaApi(body: Record<string, unknown>, clientIp = nextIp()) {
  return sendToApp("/api/report-misuse", {
    method: "POST",
    headers: new Headers({ "Content-Type": "application/json", "X-Forwarded-For": clientIp }),
    body: JSON.stringify(body),
  });
}

function postForm(path: string, cookie: string | null, form: Record<string, string>, clientIp = nextIp()) {
  const headers = new Headers({ "Content-Type": "application/x-www-form-urlencoded", Origin: ORIGIN, "X-Forwarded-For": clientIp });
  if (cookie) headers.set("Cookie", cookie);
  return sendToApp(path, { method: "POST", headers, body: new URLSearchParams(form).toString() });
}

const get = (path: string, headers: Record<string, string> = {}) => sendToApp(path, { headers: new Headers(headers) });

let world: {
  animation: Awaited<ReturnType<typeof createAnimation>>;
  admin: Awaited<ReturnType<typeof createUser>>;
  cookie: string;
  token: string;
  member: Awaited<ReturnType<typeof createUser>>;
};

beforeAll(async () => {
  (getEnv() as { ABUSE_EMAIL?: string }).ABUSE_EMAIL = ABUSE;
  const animation = await createAnimation({ title: `Knee Arthroscopy ${crypto.randomBytes(3).toString("hex")}` });
  const admin = await createUser({ role: "admin" });
  const member = await createUser();
  world = { animation, admin, cookie: await sessionCookieFor(admin.id), token: await accessTokenFor(admin.id), member };
});
afterAll(() => {
  (getEnv() as { ABUSE_EMAIL?: string }).ABUSE_EMAIL = undefined;
});

async function newReport(overrides: Record<string, unknown> = {}) {
  const reporterEmail = `reporter-${crypto.randomBytes(4).toString("hex")}@example.com`;
  const res = await reportViaApi({
    animationId: world.animation.id,
    animationTitle: world.animation.title,
    reporterEmail,
    message: "Your animation plays on a clinic's site with no licence notice.",
    link: "https://clinic.example.com/videos/knee",
    ...overrides,
  });
  expect(res.status, text(res)).toBe(201);
  return { id: json(res).id as string, reporterEmail };
}

describe("a report reaches the inbox", () => {
  it("appears in /admin/misuse and in GET /api/admin/misuse-reports, new, with its animation, link, reporter and date", async () => {
    const { id, reporterEmail } = await newReport();
    const page = await get("/admin/misuse?status=new", { Cookie: world.cookie });
    expect(page.status).toBe(200);
    const html = text(page);
    expect(html).toContain(reporterEmail);
    expect(html).toContain(`href="/animations/${world.animation.slug}"`);
    expect(html).toContain('href="https://clinic.example.com/videos/knee"');
    expect(html).toContain(`href="/admin/misuse/${id}"`);

    const api = await get("/api/admin/misuse-reports?status=new&limit=100", { Authorization: `Bearer ${world.token}` });
    expect(api.status).toBe(200);
    const body = json(api);
    expect(body).toMatchObject({ page: 1, limit: 100 });
    expect(body.total).toBeGreaterThanOrEqual(1);
    expect(body.reports.find((r: { id: string }) => r.id === id)).toMatchObject({
      id,
      animationId: world.animation.id,
      animationTitle: world.animation.title,
      animationSlug: world.animation.slug,
      reporterEmail,
      link: "https://clinic.example.com/videos/knee",
      status: "new",
      createdAt: expect.any(String),
    });
    // Another state's filter leaves it out.
    const resolved = json(await get("/api/admin/misuse-reports?status=resolved", { Authorization: `Bearer ${world.token}` }));
    expect(resolved.reports.map((r: { id: string }) => r.id)).not.toContain(id);
  });

  it("groups reports of the same page however its address was spelled", async () => {
    const key = `copycat-${crypto.randomBytes(3).toString("hex")}.example`;
    const a = await newReport({ link: `https://www.${key}/Knee/` });
    const b = await newReport({ link: `http://${key}/knee#player` });
    const lone = await newReport({ link: `https://${key}/other` });
    const api = json(await get(`/api/admin/misuse-reports?link=${encodeURIComponent(`${key}/knee`)}`, { Authorization: `Bearer ${world.token}` }));
    expect(api.reports.map((r: { id: string }) => r.id).sort()).toEqual([a.id, b.id].sort());
    expect(api.reports.every((r: { sameLinkCount: number }) => r.sameLinkCount === 2)).toBe(true);
    const html = text(await get("/admin/misuse?limit=100", { Cookie: world.cookie }));
    expect(html).toContain(`href="/admin/misuse?link=${encodeURIComponent(`${key}/knee`)}"`);
    expect(html).toContain("2 reports of this link");
    const group = text(await get(`/admin/misuse?link=${encodeURIComponent(`${key}/knee`)}`, { Cookie: world.cookie }));
    expect(group).toContain(a.reporterEmail);
    expect(group).toContain(b.reporterEmail);
    expect(group).not.toContain(lone.reporterEmail);
    // The report's page names the other report of its link.
    const detail = text(await get(`/admin/misuse/${a.id}`, { Cookie: world.cookie }));
    expect(detail).toContain("Other reports of this link (1)");
    expect(detail).toContain(b.reporterEmail);
  });

  it("the dashboard counts the new reports and links to them", async () => {
    await newReport();
    const count = await prisma.misuseReport.count({ where: { status: "new" } });
    const html = text(await get("/admin", { Cookie: world.cookie }));
    expect(html).toMatch(new RegExp(`<a[^>]*href="/admin/misuse\\?status=new"[^>]*>${count} new misuse reports?</a>`));
  });
});

describe("triage", () => {
  it("a state change from the report page is audited and shows in the history with who, when and the note", async () => {
    const { id } = await newReport();
    const changed = await postForm(`/admin/misuse/${id}`, world.cookie, {
      intent: "status",
      status: "investigating",
      note: "Asked the clinic for its licence.",
    });
    expect(changed.status, text(changed)).toBe(302);
    expect(changed.headers.get("location")).toBe(`/admin/misuse/${id}`);
    expect((await prisma.misuseReport.findUniqueOrThrow({ where: { id } })).status).toBe("investigating");
    const audit = await prisma.auditLog.findMany({ where: { entityType: "misuse_report", entityId: id } });
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ action: "misuse_report.status", actorId: world.admin.id, actorEmail: world.admin.email });
    expect(audit[0]!.changes).toMatchObject({ status: ["new", "investigating"] });
    const html = text(await get(`/admin/misuse/${id}`, { Cookie: world.cookie }));
    expect(html).toContain("New → Investigating");
    expect(html).toContain("Asked the clinic for its licence.");
    expect(html).toContain(world.admin.email);

    // The same state again, or no note: refused beside the field, nothing written.
    const same = await postForm(`/admin/misuse/${id}`, world.cookie, { intent: "status", status: "investigating", note: "Again" });
    expect(same.status).toBe(409);
    expect(text(same)).toContain("This report is already Investigating");
    const noNote = await postForm(`/admin/misuse/${id}`, world.cookie, { intent: "status", status: "resolved", note: " " });
    expect(noNote.status).toBe(400);
    expect(text(noNote)).toContain("A note is required");
    expect(await prisma.auditLog.count({ where: { entityType: "misuse_report", entityId: id } })).toBe(1);
  });

  it("PUT /api/admin/misuse-reports/{id} changes the state with a note, audited and in the history", async () => {
    const { id } = await newReport();
    const put = (body: unknown, token = world.token, target = id) =>
      sendToApp(`/api/admin/misuse-reports/${target}`, {
        method: "PUT",
        headers: new Headers({ Authorization: `Bearer ${token}`, "Content-Type": "application/json" }),
        body: JSON.stringify(body),
      });
    const res = await put({ status: "dismissed", note: "A licensed partner's site." });
    expect(res.status, text(res)).toBe(200);
    expect(json(res)).toMatchObject({ id, status: "dismissed" });
    const audit = await prisma.auditLog.findFirstOrThrow({ where: { entityType: "misuse_report", entityId: id } });
    expect(audit).toMatchObject({ action: "misuse_report.status", actorEmail: world.admin.email });
    const html = text(await get(`/admin/misuse/${id}`, { Cookie: world.cookie }));
    expect(html).toContain("New → Dismissed");
    expect(html).toContain("A licensed partner's site.");

    expect((await put({ status: "closed", note: "x" })).status).toBe(400);
    expect((await put({ status: "resolved" })).status).toBe(400);
    expect((await put({ status: "resolved", note: "x" }, world.token, "00000000-0000-4000-8000-000000000000")).status).toBe(404);
  });

  it("the reply reaches the reporter and enters the history and the audit log", async () => {
    const { id, reporterEmail } = await newReport();
    const replied = await postForm(`/admin/misuse/${id}`, world.cookie, { intent: "reply", reply: "Thank you: the clinic has taken the video down." });
    expect(replied.status, text(replied)).toBe(302);
    const [message] = mail.to(reporterEmail);
    expect(message).toBeDefined();
    expect(message!.subject).toBe(`About your report on ${world.animation.title}`);
    expect(message!.text).toContain("Thank you: the clinic has taken the video down.");
    expect(message!.text).toContain("https://clinic.example.com/videos/knee");
    const html = text(await get(`/admin/misuse/${id}`, { Cookie: world.cookie }));
    expect(html).toContain("Replied to the reporter");
    expect(html).toContain("Thank you: the clinic has taken the video down.");
    expect(await prisma.auditLog.count({ where: { entityType: "misuse_report", entityId: id, action: "misuse_report.reply" } })).toBe(1);
    const blank = await postForm(`/admin/misuse/${id}`, world.cookie, { intent: "reply", reply: "" });
    expect(blank.status).toBe(400);
    expect(mail.to(reporterEmail)).toHaveLength(1);
  });
});

describe("the admins' digest", () => {
  it("lists new reports once, even run twice at the same time, and sends nothing when nothing is new", async () => {
    // Whatever the file reported before is digested first, so the count below is this test's.
    await sendMisuseDigest();
    const before = mail.to(world.admin.email).length;
    const abuseBefore = mail.to(ABUSE).length;
    const { id, reporterEmail } = await newReport();
    const [first, second] = await Promise.all([sendMisuseDigest(), sendMisuseDigest()]);
    expect(first.reports + second.reports).toBe(1);
    const digests = mail.to(world.admin.email).slice(before);
    expect(digests).toHaveLength(1);
    expect(digests[0]!.subject).toMatch(/^1 new misuse report on /);
    expect(digests[0]!.text).toContain(reporterEmail);
    expect(digests[0]!.text).toContain(`/admin/misuse/${id}`);
    // ABUSE_EMAIL hears of them too.
    expect(mail.to(ABUSE).length).toBe(abuseBefore + 1);

    // Retried, or the next hour with nothing new: no mail.
    expect(await sendMisuseDigest()).toEqual({ reports: 0, sent: 0 });
    expect(mail.to(world.admin.email).length).toBe(before + 1);
    // Members are not admins: they never get it.
    expect(mail.to(world.member.email)).toHaveLength(0);
  });
});

describe("the digest's job", () => {
  let workers: Awaited<ReturnType<typeof startJobWorkers>> | undefined;
  afterAll(async () => {
    await workers?.stop();
  });

  it("runs on the job queue (queue misuse-digest): one mail to each admin for the new reports", async () => {
    await sendMisuseDigest();
    const before = mail.to(world.admin.email).length;
    const { reporterEmail } = await newReport();
    workers = await startJobWorkers({ pollingIntervalSeconds: 0.5 });
    await (await jobQueue()).send(QUEUES.misuseDigest, {});
    await expect.poll(() => mail.to(world.admin.email).length, { timeout: 20_000, interval: 200 }).toBe(before + 1);
    expect(mail.to(world.admin.email).at(-1)!.text).toContain(reporterEmail);
    expect(await prisma.misuseReport.count({ where: { digestedAt: null } })).toBe(0);
  }, 30_000);
});

describe("the limit", () => {
  it("the 11th report in an hour gets 429, Retry-After and a message naming ABUSE_EMAIL and when to retry: from the API and the page's form", async () => {
    const client = ip();
    await prisma.rateLimit.deleteMany({ where: { key: `misuse-report:${client}` } });
    for (let i = 0; i < MISUSE_REPORT_RULE.limit; i++) {
      const ok = await reportViaApi({ animationId: world.animation.id, reporterEmail: "busy@example.com", message: `Report ${i}` }, client);
      expect(ok.status).toBe(201);
    }
    const refused = await reportViaApi({ animationId: world.animation.id, reporterEmail: "busy@example.com", message: "Once more" }, client);
    expect(refused.status).toBe(429);
    const retryAfter = Number(refused.headers.get("Retry-After"));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(3600);
    const minutes = Math.ceil(retryAfter / 60);
    expect(json(refused).message).toBe(
      `Too many reports from your address. Please try again in ${minutes} minute${minutes === 1 ? "" : "s"} or contact ${ABUSE} directly.`,
    );

    const page = await postForm(
      `/animations/${world.animation.slug}`,
      null,
      {
        intent: "report-misuse",
        animationId: world.animation.id,
        animationTitle: world.animation.title,
        reporterEmail: "busy@example.com",
        message: "From the page",
        link: "",
      },
      client,
    );
    expect(page.status).toBe(429);
    expect(Number(page.headers.get("Retry-After"))).toBeGreaterThan(0);
    const html = text(page);
    expect(html).toContain("Error submitting report");
    expect(html).toMatch(new RegExp(`Please try again in \\d+ minutes? or contact ${ABUSE.replace(/\./g, "\\.")} directly\\.`));
    // The form is open again with the visitor's words.
    expect(html).toContain("From the page");
    expect(await prisma.misuseReport.count({ where: { message: { in: ["Once more", "From the page"] } } })).toBe(0);
  });
});

describe("who may", () => {
  it("members and visitors are refused the inbox, its report pages and its calls", async () => {
    const { id } = await newReport();
    const memberCookie = await sessionCookieFor(world.member.id);
    const memberToken = await accessTokenFor(world.member.id);
    for (const path of ["/admin/misuse", `/admin/misuse/${id}`]) {
      const asMember = await get(path, { Cookie: memberCookie });
      expect([asMember.status, asMember.headers.get("location")]).toEqual([302, "/"]);
      const anonymous = await get(path);
      expect(anonymous.status).toBe(302);
      expect(anonymous.headers.get("location")).toMatch(/^\/auth\?redirectTo=/);
    }
    const posted = await postForm(`/admin/misuse/${id}`, memberCookie, { intent: "status", status: "resolved", note: "Not mine to close" });
    expect(posted.status).toBe(302);
    expect((await get("/api/admin/misuse-reports", { Authorization: `Bearer ${memberToken}` })).status).toBe(403);
    expect((await get("/api/admin/misuse-reports")).status).toBe(401);
    const put = await sendToApp(`/api/admin/misuse-reports/${id}`, {
      method: "PUT",
      headers: new Headers({ Authorization: `Bearer ${memberToken}`, "Content-Type": "application/json" }),
      body: JSON.stringify({ status: "resolved", note: "Not mine to close" }),
    });
    expect(put.status).toBe(403);
    expect((await prisma.misuseReport.findUniqueOrThrow({ where: { id } })).status).toBe("new");
    expect(await prisma.auditLog.count({ where: { entityType: "misuse_report", entityId: id } })).toBe(0);
  });
});

describe("the migration's link key", () => {
  // Last in the file: the migration's backfill marks the rows it touches as digested.
  it("is the one the code computes, for reports stored before the inbox", async () => {
    const links = [
      "https://WWW.Example.com/Page/",
      "http://example.com/page#top",
      "https://example.com/page?x=1",
      "https://sub.example.com//",
      "HTTPS://Files.Example.com/A/B/",
    ];
    for (const link of links) await newReport({ link });
    const computed = await prisma.misuseReport.findMany({ where: { link: { not: null } }, select: { id: true, linkKey: true } });
    const sql = fs.readFileSync(path.join("prisma", "migrations", "20261129171000_misuse_inbox", "migration.sql"), "utf8");
    const backfill = /UPDATE "MisuseReport"\s+SET "linkKey"[\s\S]*?;/.exec(sql)![0];
    await prisma.misuseReport.updateMany({ data: { linkKey: null } });
    await prisma.$executeRawUnsafe(backfill);
    const migrated = new Map((await prisma.misuseReport.findMany({ select: { id: true, linkKey: true } })).map((r) => [r.id, r.linkKey]));
    for (const row of computed) expect(migrated.get(row.id), row.id).toBe(row.linkKey);
    expect(computed.length).toBeGreaterThan(links.length);
  });
});
