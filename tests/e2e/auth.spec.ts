import { expect, test } from "@playwright/test";
import { expectFieldError, expectToast, signIn, signOut, signUp, uniqueUser } from "./helpers.ts";

test("sign up lands on the dashboard with the 'Account Created!' toast", async ({ page }) => {
  const user = await signUp(page);
  await expectToast(page, "Account Created!");
  await expect(page.getByRole("heading", { name: `${user.firstName} ${user.lastName}` })).toBeVisible();
});

test("sign out, then sign in again with the same account", async ({ page }) => {
  const user = await signUp(page);
  await signOut(page);
  await expect(page.getByLabel("Sign in")).toBeVisible();
  await signIn(page, user.email, user.password);
  await expectToast(page, "Welcome back!", "You have been successfully logged in.");
  // The signed-in dropdown shows who is signed in and where to go.
  await page.getByLabel("Profile menu").click();
  const menu = page.getByTestId("profile-menu");
  for (const item of ["My Animations", "Dashboard", "Profile Settings"]) {
    await expect(menu.getByRole("link", { name: item })).toBeVisible();
  }
  await expect(menu.getByRole("link", { name: "Admin Panel" })).toHaveCount(0);
  await expect(menu.getByText(user.email)).toBeVisible();
  await expect(menu.getByText(user.username, { exact: true })).toBeVisible();
});

test("a wrong password shows the product's message and keeps the visitor signed out", async ({ page }) => {
  const user = await signUp(page);
  await signOut(page);
  await page.goto("/auth");
  await page.getByLabel("Email").fill(user.email);
  await page.getByLabel("Password").fill("not-the-password");
  await page.getByRole("button", { name: "Sign In" }).click();
  await expect(page.getByText("Invalid email or password. Please try again.")).toBeVisible();
  await page.goto("/dashboard");
  await expect(page).toHaveURL(/\/auth/);
});

// Without JavaScript the browser sends these forms as they are (they are `novalidate`) and the
// server answers with the spec's messages; with it the page's script shows the same words first.
test("sign-up shows every validation message beside its field", async ({ page }) => {
  await page.goto("/auth?mode=signup");
  await page.getByLabel("First name").fill("Grace");
  await page.getByLabel("Last name").fill("Hopper");
  await page.getByLabel("Username").fill(uniqueUser().username);
  await page.getByLabel("Email").fill("not-an-email");
  await page.getByLabel("Password", { exact: true }).fill("123");
  await page.getByLabel("Confirm password").fill("456");
  await page.getByRole("button", { name: "Create Account" }).click();
  await expectFieldError(page.getByLabel("Email"), "Invalid email address");
  await expectFieldError(page.getByLabel("Password", { exact: true }), "Password must be at least 6 characters");
  await expectFieldError(page.getByLabel("Confirm password"), "Passwords don't match");
  await expectFieldError(page.getByLabel(/I agree to the/), "You must agree to the Terms of Service and Privacy Policy");
});

test("sign-in shows the email and password-length messages beside their fields", async ({ page }) => {
  await page.goto("/auth");
  await page.getByLabel("Email").fill("nope");
  await page.getByLabel("Password").fill("12");
  await page.getByRole("button", { name: "Sign In" }).click();
  await expectFieldError(page.getByLabel("Email"), "Invalid email address");
  await expectFieldError(page.getByLabel("Password"), "Password must be at least 6 characters");
});

test("the toggle between sign in and sign up is a link", async ({ page }) => {
  await page.goto("/auth");
  await page.getByRole("main").getByRole("link", { name: "Sign up" }).click();
  await expect(page).toHaveURL(/mode=signup/);
  await expect(page.getByRole("button", { name: "Create Account" })).toBeVisible();
  await page.getByRole("main").getByRole("link", { name: "Sign in" }).click();
  await expect(page.getByRole("button", { name: "Sign In" })).toBeVisible();
});

test("a guarded page sends an anonymous visitor to /auth, and back after sign-in", async ({ page }) => {
  const user = await signUp(page);
  await signOut(page);
  await page.goto("/dashboard");
  await expect(page).toHaveURL(/\/auth\?redirectTo=%2Fdashboard/);
  await page.getByLabel("Email").fill(user.email);
  await page.getByLabel("Password").fill(user.password);
  await page.getByRole("button", { name: "Sign In" }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
});

test("a signed-in visitor of /auth is sent to the dashboard", async ({ page }) => {
  await signUp(page);
  await page.goto("/auth");
  await expect(page).toHaveURL(/\/dashboard$/);
});

test("an unknown route shows the 404 screen with status 404", async ({ page }) => {
  const response = await page.goto("/this/does/not/exist");
  expect(response?.status()).toBe(404);
  await expect(page.getByRole("heading", { name: /Page Not Found/ })).toBeVisible();
  await expect(page.getByRole("link", { name: "Go Home" })).toBeVisible();
});
