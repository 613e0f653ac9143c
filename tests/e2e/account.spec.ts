import { expect, test } from "@playwright/test";
import { expectFieldError, expectToast, linkFromOutbox, MEMBER, signIn, signOut, signUp } from "./helpers.ts";

// Verification, password reset, profile, preferences, dashboard, library, billing,
// refund requests and the player. Runs in both projects (no-js and js): a form given bad input
// shows the spec's message beside the field, from the server without JavaScript (every form is
// `novalidate`, so the browser sends it as it is) and from the page's own check with it.

test("sign up, open the verification link from the outbox, and see the verified status on /profile", async ({ page }) => {
  const user = await signUp(page);
  await page.goto("/profile");
  await expect(page.getByText("Email unverified")).toBeVisible();

  const link = await linkFromOutbox(user.email, "/verify-email");
  await page.goto(link);
  await expect(page.getByText("Your email has been successfully verified!")).toBeVisible();
  await page.getByRole("link", { name: "Go to Dashboard" }).click();
  await expect(page).toHaveURL(/\/dashboard$/);

  await page.goto("/profile");
  await expect(page.getByText("Email verified")).toBeVisible();
  await expect(page.getByRole("button", { name: "Resend Verification Email" })).toHaveCount(0);

  // Opening the link again tells a verified account so, instead of "Verification Failed".
  await page.goto(link);
  await expect(page.getByRole("heading", { name: "Email Verified" })).toBeVisible();
  await expect(page.getByText("Your email address is already verified. You can sign in and carry on.")).toBeVisible();

  // A link that never was one fails, with the ways forward.
  await page.goto("/verify-email?token=not-a-real-token");
  await expect(page.getByText("Invalid or expired verification link")).toBeVisible();
  await expect(page.getByRole("link", { name: "Go to Profile" })).toBeVisible();
  await expect(page.getByRole("button", { name: "Resend Verification Email" })).toBeVisible();
  await expect(page.getByRole("main").getByRole("link", { name: "Go Home" })).toBeVisible();

  await page.goto("/verify-email");
  await expect(page.getByText("Invalid verification link - no token provided")).toBeVisible();
});

test("an unverified user can resend the verification mail from /profile", async ({ page }) => {
  const user = await signUp(page);
  const first = await linkFromOutbox(user.email, "/verify-email");
  await page.goto("/profile");
  await page.getByRole("button", { name: "Resend Verification Email" }).click();
  await expectToast(page, "Verification Email Sent");
  await expect.poll(() => linkFromOutbox(user.email, "/verify-email")).not.toBe(first);
});

test("forgot password, reset from the outbox link, sign in with the new password only; the link works once", async ({ page }) => {
  const user = await signUp(page);
  await signOut(page);

  await page.goto("/auth");
  await page.getByRole("link", { name: "Forgot your password?" }).click();
  await expect(page).toHaveURL(/\/forgot-password$/);
  await expect(page.getByRole("heading", { name: "Reset Password" })).toBeVisible();
  await expect(page.getByRole("link", { name: "Back to sign in", exact: true })).toHaveAttribute("href", "/auth");
  await page.getByLabel("Email").fill(user.email);
  await page.getByRole("button", { name: "Send Reset Link" }).click();
  await expectToast(page, "Reset email sent", "If your email exists in our system, you'll receive a password reset link shortly.");
  await expect(page.getByText(/valid for 1 hour/)).toBeVisible();
  await expect(page.getByRole("button", { name: "Send Reset Link" })).toHaveCount(0);
  await expect(page.getByRole("link", { name: "Back to Sign In", exact: true })).toBeVisible();

  const link = await linkFromOutbox(user.email, "/reset-password");
  await page.goto(link);
  await page.getByLabel("New Password", { exact: true }).fill("brand-new-secret");
  await page.getByLabel("Confirm New Password").fill("brand-new-secret");
  await page.getByRole("button", { name: "Update Password" }).click();
  await expect(page.getByRole("heading", { name: "Password Reset Successful" })).toBeVisible();
  await expectToast(page, "Password reset successful");
  await page.getByRole("link", { name: "Sign In Now" }).click();
  await expect(page).toHaveURL(/\/auth$/);

  // The old password is refused, the new one works.
  await page.getByLabel("Email").fill(user.email);
  await page.getByLabel("Password").fill(user.password);
  await page.getByRole("button", { name: "Sign In" }).click();
  await expect(page.getByText("Invalid email or password. Please try again.")).toBeVisible();
  await signIn(page, user.email, "brand-new-secret");

  // Second use of the same link.
  await page.goto(link);
  await expect(page.getByRole("heading", { name: "Invalid Reset Link" })).toBeVisible();
  await expect(page.getByText("This reset link is invalid or has expired. Please request a new password reset.")).toBeVisible();
  await expect(page.getByRole("link", { name: "Request New Password Reset" })).toHaveAttribute("href", "/forgot-password");
});

test("the reset screen explains a missing token and checks the confirmation", async ({ page }) => {
  await page.goto("/reset-password");
  await expect(page.getByRole("heading", { name: "Invalid Reset Link" })).toBeVisible();
  await expect(page.getByText("Reset token is missing. Please check your email and click the reset link again.")).toBeVisible();
  await expect(page.getByRole("link", { name: "Back to Sign In" })).toHaveAttribute("href", "/auth");

  const user = await signUp(page);
  await signOut(page);
  await page.goto("/forgot-password");
  await page.getByLabel("Email").fill(user.email);
  await page.getByRole("button", { name: "Send Reset Link" }).click();
  await page.goto(await linkFromOutbox(user.email, "/reset-password"));
  await page.getByLabel("New Password", { exact: true }).fill("12345");
  await page.getByLabel("Confirm New Password").fill("54321");
  await page.getByRole("button", { name: "Update Password" }).click();
  await expectFieldError(page.getByLabel("New Password", { exact: true }), "Password must be at least 6 characters");
  await expectFieldError(page.getByLabel("Confirm New Password"), "Passwords don't match");
});

test("profile: a validation error, then a successful edit, then an e-mail change that needs verifying", async ({ page }) => {
  const user = await signUp(page);
  await page.goto("/profile");
  await expect(page.getByText("Free account")).toBeVisible();
  await page.getByLabel("First name").fill("");
  await page.getByLabel("Username").fill("ab");
  await page.getByLabel("Email").fill("not-an-email");
  await page.getByRole("button", { name: "Save Changes" }).click();
  await expectFieldError(page.getByLabel("First name"), "First name is required");
  await expectFieldError(page.getByLabel("Username"), "Username must be at least 3 characters");
  await expectFieldError(page.getByLabel("Email"), "Must be a valid email");

  await page.getByLabel("First name").fill("Katherine");
  await page.getByLabel("Last name").fill("Johnson");
  await page.getByLabel("Username").fill(`${user.username}_k`);
  await page.getByLabel("Email").fill(user.email);
  await page.getByRole("button", { name: "Save Changes" }).click();
  await expectToast(page, "Profile Updated");
  await page.goto("/dashboard");
  await expect(page.getByRole("heading", { name: "Katherine Johnson" })).toBeVisible();

  // A new address is unverified until its own link is opened.
  const newEmail = `new-${user.email}`;
  await page.goto("/profile");
  await page.getByLabel("Email").fill(newEmail);
  await page.getByRole("button", { name: "Save Changes" }).click();
  await expectToast(page, "Profile Updated");
  await expect(page.getByText("Email unverified")).toBeVisible();
  await page.goto(await linkFromOutbox(newEmail, "/verify-email"));
  await expect(page.getByText("Your email has been successfully verified!")).toBeVisible();
  await page.goto("/profile");
  await expect(page.getByText("Email verified")).toBeVisible();
  await expect(page.getByLabel("Email")).toHaveValue(newEmail);
});

test("notification preferences are saved", async ({ page }) => {
  await signUp(page);
  await page.goto("/notifications");
  const promotions = page.getByRole("switch", { name: "Promotions" });
  const security = page.getByRole("switch", { name: "Security alerts" });
  // Spec defaults: promotions off, the others on.
  await expect(promotions).not.toBeChecked();
  await expect(page.getByRole("switch", { name: "New animations" })).toBeChecked();
  await expect(page.getByRole("switch", { name: "Subscription updates" })).toBeChecked();
  await expect(security).toBeChecked();

  await promotions.check();
  await security.uncheck();
  await page.getByRole("button", { name: "Save Preferences" }).click();
  await expectToast(page, "Preferences Updated");

  await page.reload();
  await expect(page.getByRole("switch", { name: "Promotions" })).toBeChecked();
  await expect(page.getByRole("switch", { name: "Security alerts" })).not.toBeChecked();
  await expect(page.getByRole("switch", { name: "New animations" })).toBeChecked();
});

test("a user without subscriptions sees an empty dashboard and 'No Active Subscriptions' on /refund", async ({ page }) => {
  const user = await signUp(page);
  await expect(page.getByRole("heading", { name: `${user.firstName} ${user.lastName}` })).toBeVisible();
  await expect(page.getByText("$0.00")).toBeVisible();
  for (const href of ["/profile", "/billing", "/notifications", "/help", "/contact", "/refund", "/my-animations", "/premium", "/"]) {
    await expect(page.getByRole("main").locator(`a[href="${href}"]`).first()).toBeVisible();
  }
  await page.goto("/refund");
  await expect(page.getByRole("heading", { name: "No Active Subscriptions" })).toBeVisible();
  await expect(page.getByRole("link", { name: "View Billing History" })).toHaveAttribute("href", "/billing");
});

test("the demo member: dashboard, library search, player, billing and a refund request", async ({ page }, testInfo) => {
  test.setTimeout(60_000);
  await signIn(page, MEMBER.email, MEMBER.password);

  await test.step("dashboard", async () => {
    const stats = page.getByRole("main").locator("dl");
    await expect(stats.getByText("Total Spent")).toBeVisible();
    await expect(stats.getByText("$0.00")).toHaveCount(0);
    await expect(page.getByText("Premium account")).toBeVisible();
    await expect(page.getByRole("region", { name: "Your Licensed Animations" }).getByRole("listitem").first()).toBeVisible();
  });

  const title = await test.step("library search", async () => {
    await page.goto("/my-animations");
    const cards = page.getByRole("main").getByRole("listitem");
    await expect(cards.first()).toBeVisible();
    const first = (await cards.first().getByRole("heading").textContent())!.trim();
    // Case-insensitive: search for part of the title in lower case.
    await page.getByLabel("Search your animations").fill(first.slice(0, 6).toLowerCase());
    await page.getByRole("button", { name: "Search" }).click();
    await expect(page).toHaveURL(/\?q=/);
    await expect(page.getByRole("heading", { name: first })).toBeVisible();
    await page.getByLabel("Search your animations").fill("zzzz-no-such-animation");
    await page.getByRole("button", { name: "Search" }).click();
    await expect(page.getByText('No animations match "zzzz-no-such-animation"')).toBeVisible();
    return first;
  });

  const watchUrl = await test.step("player", async () => {
    await page.goto("/my-animations");
    await page.getByRole("heading", { name: title }).click();
    await expect(page).toHaveURL(/\/watch\//);
    await expect(page.getByRole("heading", { level: 1, name: title })).toBeVisible();
    await expect(page.locator("video")).toHaveAttribute("src", /.+/);
    // Library entries come from licences: they carry download rights.
    await expect(page.getByRole("list", { name: "Downloads" }).getByRole("link", { name: "License package (ZIP)" })).toBeVisible();
    return new URL(page.url()).pathname;
  });

  const refundLinks = await test.step("billing", async () => {
    await page.goto("/billing");
    await expect(page.getByRole("heading", { name: "Active Subscriptions" })).toBeVisible();
    await expect(page.getByTestId("payment-row").first()).toBeVisible();
    const links = page.getByRole("link", { name: "Request Refund" });
    await expect(links.first()).toBeVisible();
    return links.evaluateAll((els) => els.map((el) => el.getAttribute("href")!));
  });

  await test.step("refund request", async () => {
    // The two projects share one server: each takes a different payment (first vs last).
    const href = testInfo.project.name === "js" ? refundLinks.at(-1)! : refundLinks[0]!;
    expect(href).toMatch(/^\/refund\?payment=/);
    await page.goto(href);
    await expect(page.getByRole("heading", { name: "Request Refund" })).toBeVisible();
    await expect(page.getByLabel("Contact email")).toHaveValue(MEMBER.email);
    await page.getByLabel("Reason for refund").selectOption("technical-issues");
    await page.getByLabel("Detailed explanation").fill("Too short");
    await page.getByLabel("Contact email").fill("not-an-email");
    await page.getByRole("button", { name: "Submit Refund Request" }).click();
    await expectFieldError(page.getByLabel("Detailed explanation"), "Please provide a detailed explanation (minimum 20 characters)");
    await expectFieldError(page.getByLabel("Contact email"), "Must be a valid email");

    await page.getByLabel("Detailed explanation").fill("The videos stutter on every device I use at the clinic.");
    await page.getByLabel("Contact email").fill(MEMBER.email);
    await page.getByRole("button", { name: "Submit Refund Request" }).click();
    await expect(page).toHaveURL(/\/dashboard$/);
    await expectToast(page, "Refund Request Submitted");

    await page.goto("/billing");
    await expect(page.getByText("Refund pending").first()).toBeVisible();
    // The form no longer offers what has a pending request, and says why.
    await page.goto("/refund");
    await expect(page.getByRole("heading", { name: "Not refundable" })).toBeVisible();
    await expect(page.getByText("A refund request for this payment is already pending.").first()).toBeVisible();
  });

  await test.step("the player is for entitled users only", async () => {
    await signOut(page);
    await page.goto(watchUrl);
    await expect(page).toHaveURL(/\/auth\?redirectTo=/);
    await signUp(page);
    await page.goto(watchUrl);
    await expect(page).toHaveURL(/\/animations\//);
  });
});
