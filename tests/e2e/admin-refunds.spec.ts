import { expect, test, type Page } from "@playwright/test";
import { outboxMails } from "../helpers/mail-parse.ts";
import { ADMIN, adminCode, buyPremiumAndAskForRefund, DATA_DIR, expectFieldError, expectToast, signIn, signUp } from "./helpers.ts";

// /admin/refunds in both projects: a member buys Premium in test mode and asks for a refund; an
// admin approves it with notes (payment refunded, access gone) or rejects it (nothing changes).

async function decide(admin: Page, email: string, decision: "Approve" | "Reject", notes: string) {
  await admin.goto(`/admin/refunds?search=${encodeURIComponent(email)}&status=pending`);
  await admin.getByRole("row").filter({ hasText: email }).getByRole("link", { name: decision, exact: true }).click();
  await expect(admin.getByText(email)).toBeVisible();
  await expect(admin.getByText("Not satisfied with the content", { exact: true })).toBeVisible();
  // Notes are required.
  await admin.getByRole("button", { name: `${decision} Refund` }).click();
  await expect(admin.getByText("Admin notes are required")).toBeVisible();
  await admin.getByLabel("Admin notes").fill(notes);
  await admin.getByRole("button", { name: `${decision} Refund` }).click();
  await expectToast(admin, decision === "Approve" ? "Refund Approved" : "Refund Rejected");
}

test("approve a refund with notes: the payment shows refunded and Premium is gone", async ({ browser, page, javaScriptEnabled }) => {
  const member = await buyPremiumAndAskForRefund(page, javaScriptEnabled);
  const admin = await (await browser.newContext({ javaScriptEnabled })).newPage();
  await signIn(admin, ADMIN.email, ADMIN.password);
  await decide(admin, member.email, "Approve", "Within the 30-day window.");
  await admin.goto(`/admin/refunds?search=${encodeURIComponent(member.email)}`);
  await expect(admin.getByRole("row").filter({ hasText: member.email }).getByText("Processed")).toBeVisible();

  await page.goto("/billing");
  await expect(page.getByText(/refunded/i).first()).toBeVisible();
  await page.goto("/");
  await expect(page.getByRole("heading", { name: "Welcome to Your Premium Library" })).toHaveCount(0);
});

test("reject a refund with notes: Premium stays", async ({ browser, page, javaScriptEnabled }) => {
  const member = await buyPremiumAndAskForRefund(page, javaScriptEnabled);
  const admin = await (await browser.newContext({ javaScriptEnabled })).newPage();
  await signIn(admin, ADMIN.email, ADMIN.password);
  await decide(admin, member.email, "Reject", "Bought more than 30 days ago.");
  await admin.goto(`/admin/refunds?search=${encodeURIComponent(member.email)}`);
  const row = admin.getByRole("row").filter({ hasText: member.email });
  await expect(row.getByText("Rejected")).toBeVisible();
  await expect(row.getByText("Bought more than 30 days ago.")).toBeVisible();

  await page.goto("/");
  await expect(page.getByRole("heading", { name: "Welcome to Your Premium Library" })).toBeVisible();
});

test("notes typed before a step-up come back after it: the admin rejects without typing them again", async ({ browser, page, javaScriptEnabled }) => {
  test.setTimeout(90_000);
  const member = await buyPremiumAndAskForRefund(page, javaScriptEnabled);
  // A sign-in of its own, not the shared admin session: its confirmation is ended below.
  const admin = await (await browser.newContext({ javaScriptEnabled })).newPage();
  await admin.goto("/auth");
  await admin.getByLabel("Email").fill(ADMIN.email);
  await admin.getByLabel("Password").fill(ADMIN.password);
  await admin.getByRole("button", { name: "Sign In" }).click();
  await expect(admin).toHaveURL(/\/auth\/two-step$/);
  await admin.getByLabel("Authentication code").fill(await adminCode());
  await admin.getByRole("button", { name: "Verify" }).click();
  await expect(admin).toHaveURL(/\/dashboard$/);

  // The sign-in's confirmation ends, as it does ten minutes after a code.
  await admin.goto("/auth/step-up?redirectTo=%2Fadmin%2Frefunds");
  await admin.getByRole("button", { name: "Ask me again next time" }).click();
  await expectToast(admin, "Confirmation ended");

  await admin.goto(`/admin/refunds?search=${encodeURIComponent(member.email)}&status=pending`);
  await admin.getByRole("row").filter({ hasText: member.email }).getByRole("link", { name: "Reject", exact: true }).click();
  await expect(admin).toHaveURL(/\/admin\/refunds\/[0-9a-f-]{36}\?decision=reject$/);
  const decisionUrl = new URL(admin.url()).pathname;
  const notes = "Premium was used for three weeks: no refund.";
  await admin.getByLabel("Admin notes").fill(notes);
  await admin.getByRole("button", { name: "Reject Refund" }).click();

  await expect(admin).toHaveURL(/\/auth\/step-up\?redirectTo=/);
  await expectToast(admin, "Confirm it's you", "This action needs a code from your authenticator app. What you typed is kept and comes back with the form.");
  await admin.getByLabel("Authentication code").fill(await adminCode());
  await admin.getByRole("button", { name: "Confirm" }).click();

  await expect(admin).toHaveURL(new RegExp(`${decisionUrl}\\?decision=reject$`));
  await expect(admin.getByLabel("Admin notes")).toHaveValue(notes);
  await admin.getByRole("button", { name: "Reject Refund" }).click();
  await expectToast(admin, "Refund Rejected");

  await admin.goto(`/admin/refunds?search=${encodeURIComponent(member.email)}`);
  const row = admin.getByRole("row").filter({ hasText: member.email });
  await expect(row.getByText("Rejected")).toBeVisible();
  await expect(row.getByText(notes)).toBeVisible();
  // The member is told by mail: rejected, with the notes (billing lists only open requests).
  await expect
    .poll(() => outboxMails(DATA_DIR, member.email).some((mail) => mail.subject === "Your refund request was rejected" && mail.text.includes(notes)))
    .toBe(true);
});

test("a refund of a licence whose package was downloaded shows the download and asks for a confirmation before approving", async ({
  browser,
  page,
  javaScriptEnabled,
}) => {
  test.setTimeout(90_000);
  const member = await signUp(page);
  await page.goto("/purchase/individual/open_rhinoplasty_reshaping_the_nasal_framework");
  await page.getByRole("button", { name: "Continue to Payment" }).click();
  await page.getByRole("button", { name: /^Pay \$\d+/ }).click();
  if (javaScriptEnabled) await expectToast(page, "Your license is active");
  else await expect(page.getByRole("heading", { name: "Your license is active" })).toBeVisible();
  // The package, as the library's link fetches it: the download is recorded.
  expect((await page.request.get("/packages/open_rhinoplasty_reshaping_the_nasal_framework.zip")).status()).toBe(200);
  await page.goto("/billing");
  await page.getByRole("link", { name: "Request Refund" }).first().click();
  await page.getByLabel("Reason for refund").selectOption("not-satisfied");
  await page.getByLabel("Detailed explanation").fill("The animation does not match the procedure we perform.");
  await page.getByRole("button", { name: "Submit Refund Request" }).click();
  await expectToast(page, "Refund Request Submitted");

  const admin = await (await browser.newContext({ javaScriptEnabled })).newPage();
  await signIn(admin, ADMIN.email, ADMIN.password);
  await admin.goto(`/admin/refunds?search=${encodeURIComponent(member.email)}&status=pending`);
  await admin.getByRole("row").filter({ hasText: member.email }).getByRole("link", { name: "Approve", exact: true }).click();
  await expect(admin.getByText("1 file downloaded (1 download)")).toBeVisible();
  await expect(admin.getByRole("region", { name: "Files downloaded under this license since the payment" }).getByText("Whole package (ZIP)")).toBeVisible();
  await expect(admin.getByText("inside the window")).toBeVisible();

  await admin.getByLabel("Admin notes").fill("Refunded once the buyer deleted the files.");
  await admin.getByRole("button", { name: "Approve Refund" }).click();
  await expectFieldError(
    admin.getByLabel("The buyer downloaded 1 file; refund anyway"),
    "The buyer downloaded 1 file of this license since paying, and keeps them: confirm that you refund anyway.",
  );
  await expect(admin.getByLabel("Admin notes")).toHaveValue("Refunded once the buyer deleted the files.");
  await admin.getByLabel("The buyer downloaded 1 file; refund anyway").check();
  await admin.getByRole("button", { name: "Approve Refund" }).click();
  await expectToast(admin, "Refund Approved");
  await admin.goto(`/admin/refunds?search=${encodeURIComponent(member.email)}`);
  await expect(admin.getByRole("row").filter({ hasText: member.email }).getByText("Processed")).toBeVisible();
});
