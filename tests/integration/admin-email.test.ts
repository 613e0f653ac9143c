import { afterAll, describe, expect, it } from "vitest";
import { prisma } from "~/lib/db.server.ts";
import { stopJobQueue } from "~/lib/jobs.server.ts";
import { getToast } from "~/lib/toast.server.ts";
import * as templatesApi from "~/routes/api/email-templates.ts";
import * as templateApi from "~/routes/api/email-templates.id.ts";
import * as adminTemplatesApi from "~/routes/api/admin/email-templates.ts";
import * as adminTemplateApi from "~/routes/api/admin/email-templates.id.ts";
import * as logsApi from "~/routes/api/admin/email-logs.ts";
import * as campaignApi from "~/routes/api/admin/email-campaigns.id.ts";
import * as bulkApi from "~/routes/api/emails.bulk.ts";
import * as manager from "~/routes/admin/email-manager.tsx";
import * as templateForm from "~/routes/admin/email-template-form.tsx";
import * as campaignForm from "~/routes/admin/email-campaign-form.tsx";
import * as campaignPage from "~/routes/admin/email-campaign.tsx";
import * as unsubscribePage from "~/routes/public/unsubscribe.tsx";
import { unsubscribeUrl } from "~/services/admin/email-campaigns.server.ts";
import { SYSTEM_TEMPLATE_CAMPAIGN, SYSTEM_TEMPLATE_DELETE } from "~/services/admin/email-manager.server.ts";
import { plainTextFromHtml, templateDisplayName } from "~/validation/admin-email.ts";
import { accessTokenFor, createUser, sessionCookieFor } from "../helpers/factories.ts";
import { useMailCapture } from "../helpers/mail-capture.ts";
import { callRoute } from "../helpers/route.ts";

// The e-mail manager's calls and screens: templates with their rules and an audit row per
// write, the log and its statistics, a test mail with [TEST], a campaign answered as a job, and
// the one-click unsubscribe (RFC 8058) without signing in.

const mail = useMailCapture();
afterAll(() => stopJobQueue());

async function admin() {
  const user = await createUser({ role: "admin" });
  return { user, token: await accessTokenFor(user.id), cookie: await sessionCookieFor(user.id) };
}
const unique = () => Math.random().toString(36).slice(2, 8);

describe("templates", () => {
  it("create, list, search, update (a new version), delete; bad input 400; a taken name 409; audited", async () => {
    const { user, token } = await admin();
    const name = `spring_offer_${unique()}`;
    const bad = await callRoute(templatesApi, "/api/email-templates", { json: { name: "", subject: "", htmlContent: "" }, token });
    expect(bad.status).toBe(400);
    expect(bad.body.errors).toMatchObject({ name: ["Name is required"], subject: ["Subject is required"], htmlContent: ["HTML content is required"] });

    const created = await callRoute(templatesApi, "/api/email-templates", {
      json: {
        name,
        subject: "Hello {{firstName}}",
        htmlContent: "<p>Hi {{firstName}}<script>alert(1)</script></p>",
        variables: " firstName, , amount ",
        isActive: true,
      },
      token,
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ name, variables: ["firstName", "amount"], isActive: true, version: 1 });
    expect(created.body.htmlContent).not.toContain("<script>");
    expect((await callRoute(templatesApi, "/api/email-templates", { json: { name, subject: "x", htmlContent: "y" }, token })).status).toBe(409);

    const listed = await callRoute(adminTemplatesApi, `/api/admin/email-templates?search=${name}`, { token });
    expect(listed.body.map((t: { name: string }) => t.name)).toEqual([name]);

    const updated = await callRoute(adminTemplateApi, "/", {
      method: "PUT",
      json: { subject: "New subject", htmlContent: "<p>New</p>", textContent: "New" },
      params: { id: created.body.id },
      token,
    });
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({ subject: "New subject", textContent: "New", version: 2, name });
    expect((await callRoute(templateApi, "/", { method: "PUT", json: { subject: "" }, params: { id: created.body.id }, token })).status).toBe(400);

    const deleted = await callRoute(templateApi, "/", { method: "DELETE", params: { id: created.body.id }, token });
    expect(deleted.status).toBe(200);
    expect((await callRoute(templateApi, "/", { method: "DELETE", params: { id: created.body.id }, token })).body).toEqual({ message: "Template not found" });
    const audit = await prisma.auditLog.findMany({ where: { entityId: created.body.id }, orderBy: { createdAt: "asc" } });
    expect(audit.map((a) => a.action)).toEqual(["email_template.create", "email_template.update", "email_template.delete"]);
    expect(audit.every((a) => a.actorId === user.id)).toBe(true);
  });

  it("the form: 'Failed to create template' with the message; saved shows 'Template Updated' and a preview", async () => {
    const { cookie } = await admin();
    const refused = await callRoute(templateForm, "/admin/email-manager/templates/new", {
      form: { name: "bad name!", subject: "S", htmlContent: "<p>x</p>" },
      cookie,
    });
    expect(refused.status).toBe(400);
    expect(refused.body.toast).toMatchObject({ title: "Failed to create template", description: "Name may contain only letters, digits and underscores" });
    const name = `welcome_${unique()}`;
    const ok = await callRoute(templateForm, "/admin/email-manager/templates/new", {
      form: { name, subject: "Welcome {{firstName}}", htmlContent: "<p>Dear {{firstName}}. Enjoy!</p>", isActive: "on" },
      cookie,
    });
    expect(ok.status).toBe(302);
    const id = ok.headers.get("location")!.split("/").at(-1)!;
    const edited = await callRoute(templateForm, `/admin/email-manager/templates/${id}`, {
      form: { name, subject: "Welcome back", htmlContent: "<p>Again</p>" },
      params: { id },
      cookie,
    });
    expect(edited.status).toBe(302);
    expect(await prisma.emailTemplate.findUniqueOrThrow({ where: { id } })).toMatchObject({ subject: "Welcome back", isActive: false, version: 2 });
    const page = await callRoute(templateForm, `/admin/email-manager/templates/${id}`, { params: { id }, cookie });
    expect(page.body.preview).toMatchObject({ subject: "Welcome back", html: "<p>Again</p>", text: "Again" });
    expect(templateDisplayName("refund_decision")).toBe("REFUND DECISION");
  });
});

describe("logs and statistics", () => {
  it("page the log newest first and count sent, failed and today's mail from the counters", async () => {
    const { token, cookie } = await admin();
    const before = (await callRoute(manager, "/admin/email-manager", { cookie })).body.stats;
    await prisma.emailLog.createMany({
      data: [
        { toEmail: "a@example.com", subject: "One", status: "sent" },
        { toEmail: "b@example.com", subject: "Two", status: "failed", errorMessage: "550 mailbox unavailable" },
        { toEmail: "c@example.com", subject: "Three", status: "pending" },
      ],
    });
    const stats = (await callRoute(manager, "/admin/emails", { cookie })).body.stats;
    expect(stats.totalEmailsSent).toBe(before.totalEmailsSent + 3);
    expect(stats.emailsSentToday).toBe(before.emailsSentToday + 1);
    const sent = await prisma.emailLog.count({ where: { status: "sent" } });
    expect(stats.successRate).toBe(Math.round((100 * sent) / stats.totalEmailsSent));

    const failed = await callRoute(logsApi, "/api/admin/email-logs?status=failed&search=b@example", { token });
    expect(failed.body.logs).toEqual([expect.objectContaining({ toEmail: "b@example.com", status: "failed", errorMessage: "550 mailbox unavailable" })]);
    const paged = await callRoute(logsApi, "/api/admin/email-logs?limit=2", { token });
    expect(paged.body).toMatchObject({ page: 1, limit: 2, hasNext: true });
    expect(paged.body.logs).toHaveLength(2);
  });
});

describe("POST /api/emails/bulk", () => {
  it("sends a test with [TEST] in the subject at once, and answers 200 with the counts", async () => {
    const { token } = await admin();
    const res = await callRoute(bulkApi, "/api/emails/bulk", {
      json: { subject: "Autumn news", html: "<p>Fresh animations.</p>", testEmail: "qa@example.com" },
      token,
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ sent: 1, failed: 0 });
    const got = mail.to("qa@example.com").at(-1)!;
    expect(got.subject).toBe("[TEST] Autumn news");
  });

  it("starts a campaign as a job (202, and its progress call), from either layout; refuses bad input with 400", async () => {
    const { token } = await admin();
    const member = await createUser();
    const layoutA = await callRoute(bulkApi, "/api/emails/bulk", {
      json: { recipients: `${member.id}, ${member.id}`, subject: "Layout A", htmlContent: "<p>A.</p>" },
      token,
    });
    expect(layoutA.status).toBe(202);
    expect(layoutA.body).toMatchObject({ status: "queued", total: 1, sent: 0, failed: 0, statusUrl: `/api/admin/email-campaigns/${layoutA.body.campaignId}` });
    const progress = await callRoute(campaignApi, layoutA.body.statusUrl, { params: { id: layoutA.body.campaignId }, token });
    expect(progress.body).toMatchObject({ id: layoutA.body.campaignId, total: 1, left: 1 });

    expect((await callRoute(bulkApi, "/api/emails/bulk", { json: { subject: "", html: "" }, token })).body.errors).toMatchObject({
      subject: ["Subject is required"],
    });
    const badIds = await callRoute(bulkApi, "/api/emails/bulk", { json: { subject: "S", html: "<p>x</p>", userIds: ["nope"] }, token });
    expect(badIds.status).toBe(400);
    expect(badIds.body.message).toBe("Recipients must be user ids separated by commas");
    const nobody = await callRoute(bulkApi, "/api/emails/bulk", { json: { subject: "S", html: "<p>x</p>", userIds: [crypto.randomUUID()] }, token });
    expect(nobody.status).toBe(400);
    expect(nobody.body.message).toMatch(/^No recipients/);
    expect((await callRoute(bulkApi, "/api/emails/bulk", { json: { subject: "S", html: "<p>x</p>" } })).status).toBe(401);
    expect((await callRoute(bulkApi, "/api/emails/bulk", { json: { subject: "S", html: "<p>x</p>" }, token: await accessTokenFor(member.id) })).status).toBe(
      403,
    );
  });

  it("a campaign can be canceled after confirming: nothing pending is sent, and a second cancel is refused", async () => {
    const { cookie, token } = await admin();
    const members = [await createUser(), await createUser()];
    const started = await callRoute(bulkApi, "/api/emails/bulk", {
      json: { subject: "Cancel me", html: "<p>x</p>", userIds: members.map((m) => m.id) },
      token,
    });
    const id = started.body.campaignId as string;
    const asked = await callRoute(campaignPage, `/admin/email-manager/campaigns/${id}?confirm=${id}&intent=cancel`, { params: { id }, cookie });
    expect(asked.body.confirming).toBe(true);
    const canceled = await callRoute(campaignPage, `/admin/email-manager/campaigns/${id}`, { form: { intent: "cancel", id }, params: { id }, cookie });
    expect(canceled.status).toBe(302);
    expect(await prisma.emailCampaign.findUniqueOrThrow({ where: { id } })).toMatchObject({ status: "canceled", failed: 2, sent: 0 });
    expect(await prisma.emailLog.count({ where: { campaignId: id, status: "failed", errorMessage: "Campaign canceled before this message was sent" } })).toBe(
      2,
    );
    expect(await prisma.auditLog.count({ where: { entityId: id, action: "email_campaign.cancel" } })).toBe(1);
    const again = await callRoute(campaignPage, `/admin/email-manager/campaigns/${id}`, { form: { intent: "cancel", id }, params: { id }, cookie });
    expect(again.status).toBe(302);
    expect(await prisma.auditLog.count({ where: { entityId: id, action: "email_campaign.cancel" } })).toBe(1);
  });

  it("system templates (the site sends them itself) are neither deleted nor sent as a campaign: 409 with the reason, page and /api alike", async () => {
    const { token, cookie } = await admin();
    const reset = await prisma.emailTemplate.upsert({
      where: { name: "password_reset" },
      update: {},
      create: { name: "password_reset", subject: "Reset your password", htmlContent: "<p>{{resetUrl}}</p>" },
    });

    const viaApi = await callRoute(templateApi, "/", { method: "DELETE", params: { id: reset.id }, token });
    expect(viaApi.status).toBe(409);
    expect(viaApi.body).toEqual({ message: SYSTEM_TEMPLATE_DELETE });

    // The list's delete button and its no-JavaScript confirm step post here.
    const viaPage = await callRoute(manager, "/admin/email-manager?tab=templates", { form: { intent: "delete", id: reset.id }, cookie });
    expect(viaPage.status).toBe(302);
    const flash = viaPage.headers.get("Set-Cookie")!.split(";")[0]!;
    expect((await getToast(new Request("http://localhost/", { headers: { Cookie: flash } }))).toast).toEqual({
      title: "Failed to delete template",
      description: SYSTEM_TEMPLATE_DELETE,
      type: "error",
    });
    expect(await prisma.emailTemplate.count({ where: { id: reset.id } })).toBe(1);
    expect(await prisma.auditLog.count({ where: { entityId: reset.id, action: "email_template.delete" } })).toBe(0);
    // Without JavaScript the confirm step is a URL: it offers nothing to confirm for a system template.
    const confirm = await callRoute(manager, `/admin/email-manager?tab=templates&confirm=${reset.id}&intent=delete`, { cookie });
    expect(confirm.body.confirm).toBeNull();

    const campaign = await callRoute(campaignForm, `/admin/email-manager/campaigns/new?template=${reset.id}`, { cookie });
    expect(campaign.status).toBe(409);
    expect(campaign.body).toMatchObject({ message: SYSTEM_TEMPLATE_CAMPAIGN });
  });

  it("the campaign form starts from a template, previews on the server and says 'Test e-mail is required' for a test without an address", async () => {
    const { cookie } = await admin();
    const preview = await callRoute(campaignForm, "/admin/email-manager/campaigns/new", {
      form: { intent: "preview", targetGroup: "free", kind: "newsletter", subject: "Hi {{firstName}}", htmlContent: "<p>Hello {{firstName}}. Bye!</p>" },
      cookie,
    });
    expect(preview.body.preview).toEqual({ subject: "Hi Jane", html: "<p>Hello Jane. Bye!</p>", text: "Hello Jane.\nBye!" });
    const template = await prisma.emailTemplate.create({
      data: { name: `digest_${unique()}`, subject: "Monthly digest", htmlContent: "<p>New this month.</p>" },
    });
    const fromTemplate = await callRoute(campaignForm, `/admin/email-manager/campaigns/new?template=${template.id}`, { cookie });
    expect(fromTemplate.body.template).toMatchObject({ subject: "Monthly digest", htmlContent: "<p>New this month.</p>" });
    expect((await callRoute(campaignForm, "/admin/email-manager/campaigns/new?template=nope", { cookie })).body.template).toBeNull();
    const test = await callRoute(campaignForm, "/admin/email-manager/campaigns/new", {
      form: { intent: "test", targetGroup: "free", kind: "newsletter", subject: "S", htmlContent: "<p>x</p>" },
      cookie,
    });
    expect(test.status).toBe(400);
    expect(test.body.result.error).toMatchObject({ testEmail: ["Test e-mail is required"] });
  });

  it("derives plain text from the HTML by its rule", () => {
    expect(plainTextFromHtml("<style>p{}</style><h1>Title</h1>\n<p>One.   Two!  Three?</p><script>x()</script>")).toBe("Title One.\nTwo!\nThree?");
  });
});

describe("/unsubscribe", () => {
  it("asks on GET, turns the preference off on the one-click POST without a session, and refuses a forged link", async () => {
    const member = await createUser();
    const url = unsubscribeUrl(member.id, "newsletter");
    const asked = await callRoute(unsubscribePage, url);
    expect(asked.body).toEqual({ state: "ask", label: "Newsletter" });
    expect((await prisma.notificationPreferences.findUniqueOrThrow({ where: { userId: member.id } })).emailNewsletter).toBe(true);

    const done = await callRoute(unsubscribePage, url, { form: { "List-Unsubscribe": "One-Click" } });
    expect(done.status).toBe(200);
    expect(done.body).toMatchObject({ state: "done", email: member.email });
    expect((await prisma.notificationPreferences.findUniqueOrThrow({ where: { userId: member.id } })).emailNewsletter).toBe(false);

    const forged = url.replace(/t=[^&]+/, "t=forged");
    expect((await callRoute(unsubscribePage, forged, { form: { "List-Unsubscribe": "One-Click" } })).status).toBe(400);
  });
});
