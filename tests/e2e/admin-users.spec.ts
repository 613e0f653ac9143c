import { expect, test, type Browser } from "@playwright/test";
import { latestOutboxMail } from "../helpers/mail-parse.ts";
import { ADMIN, confirmOnRow, DATA_DIR, expectToast, signIn, signUp } from "./helpers.ts";

// /admin/users in both projects: the confirmation step is a server-rendered view without
// JavaScript and a dialog with it; the same buttons confirm.

async function adminPage(browser: Browser, javaScriptEnabled: boolean) {
  const context = await browser.newContext({ javaScriptEnabled });
  const page = await context.newPage();
  await signIn(page, ADMIN.email, ADMIN.password);
  return page;
}

test("an admin blocks a member (whose open session ends at once), then unblocks them", async ({ browser, page, javaScriptEnabled }) => {
  const member = await signUp(page);
  const admin = await adminPage(browser, javaScriptEnabled);

  await confirmOnRow(admin, member.email, "Block", "Block");
  await expectToast(admin, "User Blocked");
  await expect(admin.getByRole("row").filter({ hasText: member.email }).getByText("Blocked", { exact: true })).toBeVisible();

  // The member's next page: signed out, and signing in says why.
  await page.goto("/dashboard");
  await expect(page).toHaveURL(/\/auth\?redirectTo=%2Fdashboard/);
  await page.getByLabel("Email").fill(member.email);
  await page.getByLabel("Password").fill(member.password);
  await page.getByRole("button", { name: "Sign In" }).click();
  await expect(page.getByText("Your account has been blocked. Please contact support.")).toBeVisible();

  await confirmOnRow(admin, member.email, "Unblock", "Unblock");
  await expectToast(admin, "User Unblocked");
  await signIn(page, member.email, member.password);
});

test("an admin promotes a member to admin and demotes them again, each after confirming", async ({ browser, page, javaScriptEnabled }) => {
  const member = await signUp(page);
  const admin = await adminPage(browser, javaScriptEnabled);

  await confirmOnRow(admin, member.email, "Promote to admin", "Promote");
  await expectToast(admin, "User Promoted");
  // A new admin sets up a second factor before the back office opens.
  await page.goto("/admin");
  await expect(page).toHaveURL(/\/profile\/two-step\?redirectTo=%2Fadmin$/);
  await expect(page.getByRole("heading", { name: "Set up two-step sign-in" })).toBeVisible();

  await confirmOnRow(admin, member.email, "Demote to user", "Demote");
  await expectToast(admin, "User Demoted");
  await page.goto("/admin");
  await expect(page).toHaveURL(/\/$/);
});

test("cancelling the confirmation changes nothing", async ({ browser, page, javaScriptEnabled }) => {
  const member = await signUp(page);
  const admin = await adminPage(browser, javaScriptEnabled);
  await admin.goto(`/admin/users?search=${encodeURIComponent(member.email)}`);
  await admin.getByRole("row").filter({ hasText: member.email }).getByRole("link", { name: "Block", exact: true }).click();
  const step = admin.getByRole("alertdialog").or(admin.getByRole("dialog"));
  await step
    .getByRole("button", { name: "Cancel" })
    .or(step.getByRole("link", { name: "Cancel" }))
    .click();
  await expect(step).toBeHidden();
  await admin.goto(`/admin/users?search=${encodeURIComponent(member.email)}`);
  await expect(admin.getByRole("row").filter({ hasText: member.email }).getByText("Unverified", { exact: true })).toBeVisible();
});

test("Send Email reaches the member", async ({ browser, page, javaScriptEnabled }) => {
  const member = await signUp(page);
  const admin = await adminPage(browser, javaScriptEnabled);
  await admin.goto(`/admin/users?search=${encodeURIComponent(member.email)}`);
  await admin.getByRole("row").filter({ hasText: member.email }).getByRole("link", { name: "Send Email" }).click();
  await admin.getByLabel("Subject").fill("A note from the team");
  await admin.getByLabel("Message").fill("Thank you for joining.");
  await admin.getByRole("button", { name: "Send Email" }).click();
  await expectToast(admin, "Email Sent");
  await expect(admin).toHaveURL(/\/admin\/users$/);
  await expect.poll(() => latestOutboxMail(DATA_DIR, member.email)?.subject).toBe("A note from the team");
  expect(latestOutboxMail(DATA_DIR, member.email)!.text).toContain("Thank you for joining.");
});
