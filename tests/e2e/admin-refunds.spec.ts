import { expect, test, type Page } from "@playwright/test";
import { ADMIN, buyPremiumAndAskForRefund, expectToast, signIn } from "./helpers.ts";

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
