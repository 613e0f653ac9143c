import { expect, test, type Page } from "@playwright/test";
import { ADMIN, expectToast, signIn, signUp } from "./helpers.ts";

// /admin/subscriptions in both projects: a member buys Premium in the local test mode, an admin
// cancels it (the member's premium home is gone at once) and reactivates it (it is back).

async function buyPremium(page: Page, javaScriptEnabled: boolean) {
  await page.goto("/premium");
  await page.getByRole("button", { name: "Get Premium Access" }).click();
  await expect(page.getByText("Test mode — no real payments")).toBeVisible();
  await page.getByRole("button", { name: /^Pay \$\d+/ }).click();
  if (javaScriptEnabled) await expectToast(page, "Welcome to Premium!");
  else await expect(page.getByRole("heading", { name: "Welcome to Premium!" })).toBeVisible();
}

const PREMIUM_HOME = "Welcome to Your Premium Library";

test("cancel a test-mode Premium subscription (access gone), then reactivate it (access back)", async ({ browser, page, javaScriptEnabled }) => {
  const member = await signUp(page);
  await buyPremium(page, javaScriptEnabled);
  await page.goto("/");
  await expect(page.getByRole("heading", { name: PREMIUM_HOME })).toBeVisible();

  const admin = await (await browser.newContext({ javaScriptEnabled })).newPage();
  await signIn(admin, ADMIN.email, ADMIN.password);
  await admin.goto(`/admin/subscriptions?search=${encodeURIComponent(member.email)}&status=active`);
  const row = admin.getByRole("row").filter({ hasText: member.email });
  await expect(row.getByText("Premium (all animations)")).toBeVisible();
  await row.getByRole("link", { name: "Cancel", exact: true }).click();
  const step = admin.getByRole("alertdialog").or(admin.getByRole("dialog"));
  await step.getByRole("button", { name: "Cancel Subscription" }).click();
  await expectToast(admin, "Subscription Canceled");

  await page.goto("/");
  await expect(page.getByRole("heading", { name: PREMIUM_HOME })).toHaveCount(0);

  await admin.goto(`/admin/subscriptions?search=${encodeURIComponent(member.email)}&status=canceled`);
  await admin.getByRole("row").filter({ hasText: member.email }).getByRole("link", { name: "Reactivate", exact: true }).click();
  await admin.getByRole("alertdialog").or(admin.getByRole("dialog")).getByRole("button", { name: "Reactivate" }).click();
  await expectToast(admin, "Subscription Reactivated");

  await page.goto("/");
  await expect(page.getByRole("heading", { name: PREMIUM_HOME })).toBeVisible();
});
