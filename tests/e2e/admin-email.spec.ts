import { expect, test } from "@playwright/test";
import { findLink, latestOutboxMail, outboxMails } from "../helpers/mail-parse.ts";
import { ADMIN, DATA_DIR, expectToast, signIn, signUp } from "./helpers.ts";

// The e-mail manager in both projects: a template created and previewed, a campaign previewed,
// tested ([TEST] in the outbox) and sent to the free users as a background job whose progress
// page refreshes itself until it is finished, and the campaign's unsubscribe link used without
// signing in.

test("an admin creates a template, tests a campaign and sends it to the free users; a member unsubscribes from its link", async ({
  browser,
  page,
  javaScriptEnabled,
}) => {
  test.setTimeout(90_000);
  const member = await signUp(page);
  const context = await browser.newContext({ javaScriptEnabled });
  const admin = await context.newPage();
  await signIn(admin, ADMIN.email, ADMIN.password);
  const n = Math.random().toString(36).slice(2, 8);

  // A template, and its preview with each variable shown by name.
  await admin.goto("/admin/emails");
  await expect(admin.getByRole("heading", { name: "Email Manager" })).toBeVisible();
  await admin.getByRole("link", { name: "New Template" }).click();
  // With JavaScript the list stays on screen until the form arrives: wait for the form.
  await expect(admin.getByRole("heading", { name: "Create New Template" })).toBeVisible();
  await admin.getByLabel("Name", { exact: true }).fill(`spring_news_${n}`);
  await admin.getByLabel("Subject").fill("Spring news for {{firstName}}");
  await admin.getByLabel("HTML content").fill("<p>Dear {{firstName}}, new animations are in.</p>");
  await admin.getByLabel("Variables").fill("firstName");
  await admin.getByRole("button", { name: "Create Template" }).click();
  await expectToast(admin, "Template Created");
  const preview = admin.getByRole("region", { name: "Preview" });
  await expect(preview.getByText("Spring news for [firstName]")).toBeVisible();
  await expect(preview.getByText("Dear [firstName], new animations are in.").first()).toBeVisible();

  // The campaign: preview, a test to one address, then the real thing to the free users.
  const subject = `Autumn animations ${n}`;
  const tester = `qa-${n}@example.com`;
  await admin.goto("/admin/email-manager/campaigns/new");
  await admin.getByLabel("Target group").selectOption("free");
  await admin.getByLabel("Subject").fill(subject);
  await admin.getByLabel("HTML content").fill("<p>Hello {{firstName}}. Twelve new animations!</p>");
  await admin.getByLabel("Test e-mail").fill(tester);
  await admin.getByRole("button", { name: "Preview" }).click();
  await expect(admin.getByRole("region", { name: "Preview" }).getByRole("paragraph").filter({ hasText: "Hello Jane. Twelve new animations!" })).toBeVisible();
  await admin.getByRole("button", { name: "Send Test" }).click();
  await expect(admin.getByText("Test Email Sent", { exact: true })).toBeVisible();
  await expect.poll(() => latestOutboxMail(DATA_DIR, tester)?.subject).toBe(`[TEST] ${subject}`);

  // The server counts the recipients first; only then is the campaign sent, to that audience.
  await admin.getByRole("button", { name: "Count Recipients" }).click();
  await expect(admin.getByRole("region", { name: "Recipients" }).getByRole("status")).toContainText(/\d+ recipients? · Free users/);
  await admin.getByRole("button", { name: /^Send Campaign to \d+ recipients?$/ }).click();
  await expectToast(admin, "Campaign Started");
  await expect(admin).toHaveURL(/\/admin\/email-manager\/campaigns\/[0-9a-f-]{36}$/);
  // The page refreshes itself (a revalidation with JavaScript, a meta refresh without).
  await expect(admin.getByRole("status").filter({ hasText: /Successfully sent to \d+ users, 0 failed\./ })).toBeVisible({ timeout: 60_000 });

  // The member got it, with a link that unsubscribes them without signing in.
  // (The other browser project's campaign reaches them too: find this one's.)
  const mail = outboxMails(DATA_DIR, member.email).find((m) => m.subject === subject);
  const link = mail && findLink(mail.text, "/unsubscribe?");
  expect(link).toBeTruthy();
  const anonymous = await (await browser.newContext({ javaScriptEnabled })).newPage();
  await anonymous.goto(link!);
  await expect(anonymous.getByText("Stop receiving newsletter e-mails from Medanim?", { exact: false })).toBeVisible();
  await anonymous.getByRole("button", { name: "Unsubscribe" }).click();
  await expect(anonymous.getByRole("heading", { name: "You Are Unsubscribed" })).toBeVisible();
  await expect(anonymous.getByText(`${member.email} will no longer receive newsletter e-mails from Medanim.`)).toBeVisible();
});

test("a system template such as password reset offers Edit only; an admin's own template can be sent or deleted", async ({ page }) => {
  await signIn(page, ADMIN.email, ADMIN.password);
  await page.goto("/admin/email-manager?tab=templates");
  const row = (name: string) => page.getByRole("row").filter({ has: page.getByText(name, { exact: true }) });

  const reset = row("PASSWORD RESET");
  await expect(reset.getByRole("link", { name: /^Edit/ })).toBeVisible();
  await expect(reset.getByText("System template")).toBeVisible();
  await expect(reset.getByRole("link", { name: /^Send as Campaign/ })).toHaveCount(0);
  await expect(reset.getByRole("button", { name: /^Delete/ })).toHaveCount(0);
  await expect(reset.getByRole("link", { name: /^Delete/ })).toHaveCount(0);

  // The seed's bulk_email template is the campaign's starting point, not something the site sends.
  const bulk = row("BULK EMAIL");
  await expect(bulk.getByRole("link", { name: /^Send as Campaign/ })).toBeVisible();
  await expect(bulk.getByRole("button", { name: /^Delete/ }).or(bulk.getByRole("link", { name: /^Delete/ }))).toBeVisible();

  // A typed URL does not get round the hidden link: the server says why.
  const editHref = await reset.getByRole("link", { name: /^Edit/ }).getAttribute("href");
  await page.goto(`/admin/email-manager/campaigns/new?template=${editHref!.split("/").pop()}`);
  await expect(page.getByText("This is a system template: the site sends it to one person when needed, so it cannot be sent as a campaign.")).toBeVisible();
});
