import { expect, test } from "@playwright/test";
import { outboxMails } from "../helpers/mail-parse.ts";
import { ADMIN, DATA_DIR, expectToast, MEMBER, signIn } from "./helpers.ts";

// An admin aims a campaign at the holders of a category licence, picked from lists (no user ids),
// sees the server's count of recipients, sends, and the job mails exactly them: in both projects.
// The seeded demo member holds the Interventional Cardiology licence and signed up well over a
// year ago; the signup filter keeps out anyone another test signs up and licenses meanwhile.

test("an admin counts the holders of a category licence, sends them a campaign, and its text part keeps the link", async ({ page }) => {
  test.setTimeout(90_000);
  await signIn(page, ADMIN.email, ADMIN.password);
  const subject = `For cardiology licence holders ${Math.random().toString(36).slice(2, 8)}`;
  const aYearAgo = new Date(Date.now() - 365 * 24 * 60 * 60 * 1000).toISOString().slice(0, 10);

  await page.goto("/admin/email-manager/campaigns/new");
  await page.getByLabel("Target group").selectOption("all");
  await page.getByLabel("Holds the category licence").selectOption({ label: "Cardiology › Interventional Cardiology" });
  await page.getByLabel("Licence state").selectOption("active");
  await page.getByLabel("Signed up until").fill(aYearAgo);
  await page.getByLabel("Subject").fill(subject);
  await page.getByLabel("HTML content").fill('<p>Hello {{firstName}}. See <a href="https://medanim.test/cardiology">what is new</a>.</p>');
  await page.getByRole("button", { name: "Count Recipients" }).click();

  const recipients = page.getByRole("region", { name: "Recipients" });
  await expect(recipients.getByRole("status")).toContainText("1 recipient ·");
  await expect(recipients.getByRole("status")).toContainText(
    `holding the Interventional Cardiology category licence (active) · signed up on or before ${aYearAgo}`,
  );
  await recipients.getByRole("button", { name: "Send Campaign to 1 recipient" }).click();
  await expectToast(page, "Campaign Started", "Sending to 1 recipient.");
  await expect(page).toHaveURL(/\/admin\/email-manager\/campaigns\/[0-9a-f-]{36}$/);
  await expect(page.getByText(`All users · holding the Interventional Cardiology category licence (active)`)).toBeVisible();
  await expect(page.getByRole("status").filter({ hasText: "Successfully sent to 1 users, 0 failed." })).toBeVisible({ timeout: 60_000 });

  await expect.poll(() => outboxMails(DATA_DIR, MEMBER.email).filter((m) => m.subject === subject).length, { timeout: 15_000 }).toBe(1);
  const mail = outboxMails(DATA_DIR, MEMBER.email).find((m) => m.subject === subject)!;
  expect(mail.text).toContain("what is new (https://medanim.test/cardiology)");
});
