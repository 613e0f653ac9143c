import { expect, test, type Page } from "@playwright/test";
import { ADMIN, buyPremiumAndAskForRefund, codeAfter, confirmOnRow, expectToast, signIn, signOut, signUp } from "./helpers.ts";

// Two-step sign-in in both projects: a member promoted to admin is walked through
// setting up an authenticator app (the test computes codes from the secret the page shows),
// approves a refund (setting the factor up confirmed it), signs in with a code, and uses a recovery code once.

/** Signs in with the password and answers the second step with `code`. */
async function signInWithCode(page: Page, email: string, password: string, code: string) {
  await page.goto("/auth");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign In" }).click();
  await expect(page).toHaveURL(/\/auth\/two-step$/);
  await page.getByLabel("Authentication code").fill(code);
  await page.getByRole("button", { name: "Verify" }).click();
}

test("a new admin sets up an authenticator app, steps up to approve a refund, signs in with a code and a recovery code once", async ({
  browser,
  page,
  javaScriptEnabled,
}) => {
  test.setTimeout(120_000);
  const requester = await (await browser.newContext({ javaScriptEnabled })).newPage();
  const member = await buyPremiumAndAskForRefund(requester, javaScriptEnabled);
  const newAdmin = await signUp(page);
  const demoAdmin = await (await browser.newContext({ javaScriptEnabled })).newPage();
  await signIn(demoAdmin, ADMIN.email, ADMIN.password);
  await confirmOnRow(demoAdmin, newAdmin.email, "Promote to admin", "Promote");
  await expectToast(demoAdmin, "User Promoted");

  // The back office waits for a second factor.
  await page.goto("/admin");
  await expect(page).toHaveURL(/\/profile\/two-step\?redirectTo=%2Fadmin$/);
  await page.getByRole("button", { name: "Set up authenticator app" }).click();
  await expect(page.getByRole("img", { name: "QR code for your authenticator app" })).toBeVisible();
  const secret = (await page.getByLabel("Secret key").textContent())!.trim();
  await page.getByLabel("Code from the app").fill("123456");
  await page.getByRole("button", { name: "Turn on two-step sign-in" }).click();
  await expect(page.getByText("That code is not valid. Check your authenticator app and try again.")).toBeVisible();
  let used = await codeAfter(secret, -1);
  await page.getByLabel("Code from the app").fill(used.code);
  await page.getByRole("button", { name: "Turn on two-step sign-in" }).click();
  const shown = page.getByRole("list", { name: "Recovery codes" }).getByRole("listitem");
  await expect(shown).toHaveCount(10);
  const codes = await shown.allTextContents();
  await expect(page.getByRole("link", { name: "Download as text" })).toHaveAttribute("download", "medanim-recovery-codes.txt");
  await page.getByRole("link", { name: "I have saved them, continue" }).click();
  await expect(page.getByRole("heading", { name: "Admin Dashboard" })).toBeVisible();

  // Setting the factor up confirmed it for this session: approving a refund asks for nothing more
  // for ten minutes (the page-by-page step-up detour is proven in tests/integration/step-up.test.ts).
  await page.goto(`/admin/refunds?search=${encodeURIComponent(member.email)}&status=pending`);
  await page.getByRole("row").filter({ hasText: member.email }).getByRole("link", { name: "Approve", exact: true }).click();
  await page.getByLabel("Admin notes").fill("Within the 30-day window.");
  await page.getByRole("button", { name: "Approve Refund" }).click();
  await expectToast(page, "Refund Approved");

  // Signing in now takes the password and a code; a spent window's code is refused.
  await signOut(page);
  await signInWithCode(page, newAdmin.email, newAdmin.password, used.code);
  await expect(page.getByText("That code is not valid. Check your authenticator app and try again.")).toBeVisible();
  used = await codeAfter(secret, used.step);
  await page.getByLabel("Authentication code").fill(used.code);
  await page.getByRole("button", { name: "Verify" }).click();
  await expect(page).toHaveURL(/\/dashboard$/);

  // A recovery code works once.
  await signOut(page);
  await signInWithCode(page, newAdmin.email, newAdmin.password, codes[0]!);
  await expect(page).toHaveURL(/\/dashboard$/);
  await signOut(page);
  await signInWithCode(page, newAdmin.email, newAdmin.password, codes[0]!);
  await expect(page.getByText("That code is not valid. Check your authenticator app and try again.")).toBeVisible();
  await expect(page).toHaveURL(/\/auth\/two-step$/);
});

test("a member sees where they are signed in and signs another session out from /profile", async ({ browser, page, javaScriptEnabled }) => {
  const member = await signUp(page);
  const phone = await (
    await browser.newContext({
      javaScriptEnabled,
      userAgent: "Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.0 Mobile/15E148 Safari/604.1",
    })
  ).newPage();
  await signIn(phone, member.email, member.password);

  await page.goto("/profile");
  const list = page.getByRole("region", { name: "Where you're signed in" });
  await expect(list.getByText("This device", { exact: true })).toBeVisible();
  const phoneRow = list.getByRole("listitem").filter({ hasText: "Safari on iPhone" });
  await expect(phoneRow).toBeVisible();
  await list.getByRole("button", { name: "Sign out Safari on iPhone" }).click();
  await expect(phoneRow).toHaveCount(0);
  await expect(list.getByText("You are not signed in anywhere else.")).toBeVisible();

  // The phone's next request is anonymous; this browser stays signed in.
  await phone.goto("/dashboard");
  await expect(phone).toHaveURL(/\/auth\?redirectTo=%2Fdashboard$/);
  await page.goto("/dashboard");
  await expect(page).toHaveURL(/\/dashboard$/);
});
