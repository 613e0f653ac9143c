import { describe, expect, it } from "vitest";
import { prisma } from "~/lib/db.server.ts";
import { runCampaign } from "~/services/admin/email-campaigns.server.ts";
import { sendToApp } from "../helpers/app.ts";
import { createAnimation } from "../helpers/catalogue.ts";
import { accessTokenFor, createPaidSubscription, createUser, sessionCookieFor } from "../helpers/factories.ts";
import { useMailCapture } from "../helpers/mail-capture.ts";

// Campaign audiences picked in the form, through the app's front door: holders of a category's
// or an animation's licence (active, expired), account type and signup range, counted on the
// server before the admin confirms, then sent by the real campaign job to the SMTP capture: the
// count shown is exactly who gets it. And the audit log names a member as a member.

const mail = useMailCapture();
const ORIGIN = new URL(process.env.APP_URL ?? "http://localhost:3000").origin;
const DAY = 24 * 60 * 60 * 1000;

const tag = () => Math.random().toString(36).slice(2, 8);

function postForm(path: string, cookie: string, fields: Record<string, string>) {
  return sendToApp(path, {
    method: "POST",
    headers: new Headers({ "Content-Type": "application/x-www-form-urlencoded", Origin: ORIGIN, Cookie: cookie }),
    body: new URLSearchParams(fields).toString(),
  });
}

function api(path: string, token: string, json: unknown) {
  return sendToApp(path, {
    method: "POST",
    headers: new Headers({ "Content-Type": "application/json", Authorization: `Bearer ${token}`, Origin: ORIGIN }),
    body: JSON.stringify(json),
  });
}

/** The page's visible text, tags dropped (React splits text nodes with comments). */
function text(body: Buffer) {
  return body
    .toString("utf8")
    .replace(/<!-- -->/g, "")
    .replace(/<[^>]+>/g, " ")
    .replace(/&amp;/g, "&")
    .replace(/&#x27;/g, "'")
    .replace(/\s+/g, " ");
}

const FORM = "/admin/email-manager/campaigns/new";
const HTML = '<p>Hello {{firstName}}. Read <a href="https://medanim.test/news?from=mail&amp;x=1">the news</a> or visit https://medanim.test.</p>';

/** Counts on the form (the server-rendered step), then sends with the count shown; runs the campaign's job as its worker does. */
async function countThenSend(cookie: string, audience: Record<string, string>, subject: string) {
  const fields = { targetGroup: "all", kind: "newsletter", subject, htmlContent: HTML, ...audience };
  const counted = await postForm(FORM, cookie, { ...fields, intent: "count" });
  expect(counted.status).toBe(200);
  const shown = /(\d+) recipients? ·/.exec(text(counted.body));
  expect(shown, "the count step says 'N recipients'").not.toBeNull();
  const count = Number(shown![1]);
  expect(text(counted.body)).toContain(`Send Campaign to ${count} recipient`);

  const key = /name="countedAudience" value="([^"]*)"/.exec(counted.body.toString())?.[1];
  expect(key).toBeTruthy();
  const sent = await postForm(FORM, cookie, { ...fields, intent: "send", countedAudience: key! });
  expect(sent.status).toBe(302);
  const id = /\/admin\/email-manager\/campaigns\/([0-9a-f-]{36})$/.exec(sent.headers.get("location") ?? "")?.[1];
  expect(id).toBeTruthy();
  expect(await runCampaign(id!, { rate: 1000 })).toBe(false);
  const campaign = await prisma.emailCampaign.findUniqueOrThrow({ where: { id: id! } });
  expect(campaign.status).toBe("finished");
  const received = mail.received.filter((m) => m.subject === subject);
  // The count shown before sending is who was sent to.
  expect(campaign.total).toBe(count);
  expect(received).toHaveLength(count);
  return { count, campaign, to: received.map((m) => m.to[0]!).sort(), received };
}

async function holders() {
  const t = tag();
  const category = await prisma.category.create({ data: { name: `Audience ${t}`, slug: `audience-${t}` } });
  const other = await prisma.category.create({ data: { name: `Elsewhere ${t}`, slug: `elsewhere-${t}` } });
  const animation = await createAnimation({ title: `Audience animation ${t}`, categoryId: category.id });
  const user = (name: string, extra: Parameters<typeof createUser>[0] = {}) => createUser({ email: `${name}-${t}@example.com`, firstName: name, ...extra });
  const active = await user("active");
  const expired = await user("expired");
  const lapsed = await user("lapsed"); // still marked active, its end date passed: no longer counts
  const renewed = await user("renewed"); // an expired term and a running one: a holder now, not an expired one
  const elsewhere = await user("elsewhere");
  const optedOut = await user("optedout");
  const member = await user("member");
  const owner = await user("owner");
  const past = new Date(Date.now() - 10 * DAY);
  await createPaidSubscription(active.id, { type: "category", categoryId: category.id });
  await createPaidSubscription(expired.id, { type: "category", categoryId: category.id, status: "expired", endDate: past });
  await createPaidSubscription(lapsed.id, { type: "category", categoryId: category.id, status: "active", endDate: past });
  await createPaidSubscription(renewed.id, { type: "category", categoryId: category.id, status: "expired", endDate: past });
  await createPaidSubscription(renewed.id, { type: "category", categoryId: category.id });
  await createPaidSubscription(elsewhere.id, { type: "category", categoryId: other.id });
  await createPaidSubscription(optedOut.id, { type: "category", categoryId: category.id });
  await prisma.notificationPreferences.upsert({
    where: { userId: optedOut.id },
    create: { userId: optedOut.id, emailNewsletter: false },
    update: { emailNewsletter: false },
  });
  // A practice's licence is held by its current members (decision 030).
  const practice = await prisma.practice.create({
    data: { legalName: `Clinic ${t}`, address: "1 Main St", country: "US", billingEmail: `billing-${t}@example.com` },
  });
  await prisma.practiceMember.createMany({
    data: [
      { userId: owner.id, practiceId: practice.id, role: "owner" },
      { userId: member.id, practiceId: practice.id, role: "viewer" },
    ],
  });
  const bought = await createPaidSubscription(owner.id, { type: "individual", animationId: animation.id });
  await prisma.subscription.update({ where: { id: bought.subscription.id }, data: { practiceId: practice.id } });
  return { t, category, animation, active, expired, lapsed, renewed, elsewhere, optedOut, member, owner };
}

async function signedInAdmin() {
  const admin = await createUser({ role: "admin" });
  return { admin, cookie: await sessionCookieFor(admin.id), token: await accessTokenFor(admin.id) };
}

describe("a campaign to the holders of a licence", () => {
  it("to a category's active holders: counts them, and the job mails exactly them with links kept in the text part", async () => {
    const { cookie } = await signedInAdmin();
    const h = await holders();
    const subject = `Active holders ${h.t}`;
    const { count, campaign, to, received } = await countThenSend(cookie, { licenceCategoryId: h.category.id, licenceStatus: "active" }, subject);
    expect(to).toEqual([h.active.email, h.renewed.email].sort());
    expect(count).toBe(2);
    expect(campaign).toMatchObject({ total: 2, sent: 2, failed: 0, skipped: 1 });
    expect(campaign.audienceFilters).toMatchObject({ categoryId: h.category.id, categoryName: h.category.name, licenceStatus: "active" });
    const one = received.find((m) => m.to[0] === h.active.email)!;
    expect(one.text).toContain("the news (https://medanim.test/news?from=mail&x=1)");
    expect(one.text).toContain("visit https://medanim.test.");
    expect(one.text).not.toContain("https://medanim.test (https://medanim.test)");
    // The campaign's own stored text copy keeps the link too.
    expect(campaign.textContent).toContain("the news (https://medanim.test/news?from=mail&x=1)");
    // Its progress page says whom it went to.
    const progress = await sendToApp(`/admin/email-manager/campaigns/${campaign.id}`, { headers: new Headers({ Cookie: cookie }) });
    expect(text(progress.body)).toContain(`All users · holding the ${h.category.name} category licence (active)`);
  }, 60_000);

  it("to a category's expired holders: those whose licence ended (expired or lapsed), not those who renewed", async () => {
    const { cookie } = await signedInAdmin();
    const h = await holders();
    const { count, to } = await countThenSend(cookie, { licenceCategoryId: h.category.id, licenceStatus: "expired" }, `Expired holders ${h.t}`);
    expect(to).toEqual([h.expired.email, h.lapsed.email].sort());
    expect(count).toBe(2);
  }, 60_000);

  it("to an animation's holders: a practice's individual licence reaches its current members", async () => {
    const { cookie } = await signedInAdmin();
    const h = await holders();
    const { count, to } = await countThenSend(cookie, { licenceAnimationId: h.animation.id, licenceStatus: "any" }, `Animation holders ${h.t}`);
    expect(to).toEqual([h.member.email, h.owner.email].sort());
    expect(count).toBe(2);
  }, 60_000);

  it("by account type and signup range, ANDed together and with a licence", async () => {
    const { cookie, token } = await signedInAdmin();
    const h = await holders();
    // Signed up in 2001 (a range no other test's user falls in); one premium, one free.
    await prisma.user.update({ where: { id: h.active.id }, data: { createdAt: new Date("2001-03-10T12:00:00Z"), accountType: "premium" } });
    await prisma.user.update({ where: { id: h.elsewhere.id }, data: { createdAt: new Date("2001-06-30T23:30:00Z"), accountType: "premium" } });
    await prisma.user.update({ where: { id: h.expired.id }, data: { createdAt: new Date("2001-05-01T00:00:00Z") } });
    await prisma.user.update({ where: { id: h.renewed.id }, data: { createdAt: new Date("2001-07-01T00:00:00Z"), accountType: "premium" } });

    const premium2001 = await countThenSend(cookie, { targetGroup: "premium", signedUpFrom: "2001-01-01", signedUpTo: "2001-06-30" }, `Premium 2001 ${h.t}`);
    expect(premium2001.to).toEqual([h.active.email, h.elsewhere.email].sort());
    const free2001 = await countThenSend(cookie, { targetGroup: "free", signedUpFrom: "2001-01-01", signedUpTo: "2001-12-31" }, `Free 2001 ${h.t}`);
    expect(free2001.to).toEqual([h.expired.email]);

    // The same audience through the API: counted without sending, then refused when the confirmed count no longer holds.
    const audience = { targetGroup: "premium", signedUpFrom: "2001-01-01", signedUpTo: "2001-12-31", licenceCategoryId: h.category.id };
    const counted = await api("/api/emails/bulk", token, { subject: "Count", html: "<p>x</p>", countOnly: true, ...audience });
    expect(counted.status).toBe(200);
    expect(JSON.parse(counted.body.toString())).toEqual({
      recipients: 2,
      skipped: 0,
      audience: `Premium users · holding the ${h.category.name} category licence (active) · signed up 2001-01-01 to 2001-12-31`,
    });
    const before = await prisma.emailCampaign.count();
    const stale = await api("/api/emails/bulk", token, { subject: "Stale", html: "<p>x</p>", expectedRecipients: 3, ...audience });
    expect(stale.status).toBe(409);
    expect(JSON.parse(stale.body.toString()).message).toMatch(/recipients changed since they were counted: 2 now/);
    expect(await prisma.emailCampaign.count()).toBe(before);
    // Old request shapes stay valid: a group alone.
    const old = await api("/api/emails/bulk", token, { subject: "Old shape", html: "<p>x</p>", targetGroup: "premium", countOnly: true });
    expect(old.status).toBe(200);
  }, 90_000);

  it("refuses to send when the choices changed after counting, an unknown category, or a reversed signup range", async () => {
    const { cookie } = await signedInAdmin();
    const base = { intent: "count", targetGroup: "all", kind: "newsletter", subject: "S", htmlContent: "<p>x</p>" };
    const unknown = await postForm(FORM, cookie, { ...base, licenceCategoryId: crypto.randomUUID() });
    expect(unknown.status).toBe(400);
    expect(text(unknown.body)).toContain("Choose a category from the list");
    const reversed = await postForm(FORM, cookie, { ...base, signedUpFrom: "2026-02-01", signedUpTo: "2026-01-01" });
    expect(reversed.status).toBe(400);
    expect(text(reversed.body)).toContain("The signup range ends before it starts");
    // Counted for the free users, then switched to everyone: counted again first, nothing started.
    const counted = await postForm(FORM, cookie, { ...base, targetGroup: "free" });
    const key = /name="countedAudience" value="([^"]*)"/.exec(counted.body.toString())![1]!;
    const before = await prisma.emailCampaign.count();
    const switched = await postForm(FORM, cookie, { ...base, intent: "send", targetGroup: "all", countedAudience: key });
    expect(switched.status).toBe(400);
    expect(text(switched.body)).toContain("The audience changed since it was counted");
    expect(await prisma.emailCampaign.count()).toBe(before);
  });
});

describe("the audit log's actor", () => {
  it("names a member's own security event with the member's role, an older row by the account's role now, a command as CLI", async () => {
    const { cookie } = await signedInAdmin();
    const member = await createUser({ email: `audited-${tag()}@example.com` });
    await sessionCookieFor(member.id); // another sign-in, for "sign out everywhere else" to end
    const ended = await sendToApp("/api/auth/sessions/end-others", {
      method: "POST",
      headers: new Headers({ Authorization: `Bearer ${await accessTokenFor(member.id)}`, Origin: ORIGIN }),
    });
    expect(ended.status).toBe(200);
    const row = await prisma.auditLog.findFirstOrThrow({ where: { actorId: member.id, action: "security.session_end" } });
    expect(row.actorRole).toBe("member");

    const page = await sendToApp(`/admin/audit?actor=${encodeURIComponent(member.email)}`, { headers: new Headers({ Cookie: cookie }) });
    expect(page.status).toBe(200);
    const shown = text(page.body);
    expect(shown).toContain("Actor");
    expect(shown).toMatch(new RegExp(`${member.email.replace(/[.]/g, "\\.")} Member `));
    expect(shown).not.toMatch(/ Admin Action /); // the column is no longer "Admin"

    // A row from before roles were kept, and a command's row.
    const oldAdmin = await createUser({ role: "admin", email: `old-admin-${tag()}@example.com` });
    await prisma.auditLog.create({ data: { actorId: oldAdmin.id, actorEmail: oldAdmin.email, action: "page.update", entityType: "page", summary: "Old" } });
    const cli = `cli:ops-${tag()}@host`;
    await prisma.auditLog.create({ data: { actorId: null, actorEmail: cli, action: "security.factors_reset", entityType: "security", summary: "Reset" } });
    const old = text((await sendToApp(`/admin/audit?actor=${encodeURIComponent(oldAdmin.email)}`, { headers: new Headers({ Cookie: cookie }) })).body);
    expect(old).toContain(`${oldAdmin.email} Admin (role now)`);
    const byCli = text((await sendToApp(`/admin/audit?actor=${encodeURIComponent(cli)}`, { headers: new Headers({ Cookie: cookie }) })).body);
    expect(byCli).toContain(`${cli} CLI`);
  });
});
