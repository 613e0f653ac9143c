import { expect, type Page, test } from "@playwright/test";
import { expectToast, signUp } from "./helpers.ts";

// Buying in the local test mode (no STRIPE_SECRET_KEY), in both projects: without JavaScript the
// buy button posts to the hosted test page and back to the return page; with JavaScript the
// embedded test form pays in place and confirms through POST /api/payments/success.

const RHINOPLASTY = "open_rhinoplasty_reshaping_the_nasal_framework";
const jsOn = () => test.info().project.name === "js";

/** Pay (or decline) on whichever form this project shows, and wait for the outcome to land. */
async function pay(page: Page, button: "Pay" | "Decline") {
  await expect(page.getByText("Test mode — no real payments")).toBeVisible();
  const name = button === "Pay" ? /^Pay \$\d+/ : "Decline";
  await page.getByRole("button", { name }).click();
}

test("premium: pay, then the premium home and the payment in /billing", async ({ page }) => {
  await signUp(page);
  await page.goto("/premium");
  await expect(page.getByText("Test mode — no real payments")).toBeVisible();
  await page.getByRole("button", { name: "Get Premium Access" }).click();
  if (!jsOn()) await expect(page).toHaveURL(/\/checkout\/test\/[0-9a-f-]{36}$/);
  await pay(page, "Pay");
  if (jsOn()) {
    await expectToast(page, "Welcome to Premium!");
    await expect(page).toHaveURL(/\/$/);
  } else {
    await expect(page).toHaveURL(/\/checkout\/return\?checkout=/);
    await expect(page.getByRole("heading", { name: "Welcome to Premium!" })).toBeVisible();
    await page.getByRole("main").getByRole("link", { name: "Start watching" }).click();
  }
  await expect(page.getByRole("heading", { name: "Welcome to Your Premium Library" })).toBeVisible();
  await page.goto("/billing");
  await expect(page.getByText("Premium yearly subscription").first()).toBeVisible();
});

test("decline: 'Payment Failed' and nothing granted", async ({ page }) => {
  await signUp(page);
  await page.goto("/premium");
  await page.getByRole("button", { name: "Get Premium Access" }).click();
  await pay(page, "Decline");
  if (jsOn()) {
    await expectToast(page, "Payment Failed");
    await expect(page.getByRole("region", { name: "Notification" })).toContainText("Your card was declined.");
  } else {
    await expect(page.getByRole("heading", { name: "Payment Failed" })).toBeVisible();
    await expect(page.getByRole("alert")).toContainText("Your card was declined.");
  }
  await page.goto("/");
  await expect(page.getByRole("link", { name: "Get Premium Access" })).toBeVisible();
  await expect(page.getByRole("heading", { name: "Welcome to Your Premium Library" })).toHaveCount(0);
});

test("individual licence: pay, then the download on /watch", async ({ page }) => {
  await signUp(page);
  await page.goto(`/purchase/individual/${RHINOPLASTY}`);
  await page.getByRole("button", { name: "Continue to Payment" }).click();
  await pay(page, "Pay");
  if (jsOn()) {
    await expectToast(page, "Your license is active");
  } else {
    await expect(page.getByRole("heading", { name: "Your license is active" })).toBeVisible();
    await page.getByRole("main").getByRole("link", { name: "Watch and download" }).click();
  }
  await expect(page).toHaveURL(/\/watch\/[0-9a-f-]{36}$/);
  await expect(page.getByRole("link", { name: "Download" })).toBeVisible();
});

test("category licence through /global-license", async ({ page }) => {
  await signUp(page);
  await page.goto("/global-license");
  await page.getByRole("link", { name: "License Rhinoplasty" }).click();
  await expect(page).toHaveURL(/\/purchase\/category\/rhinoplasty$/);
  await page.getByRole("button", { name: "Continue to Payment" }).click();
  await pay(page, "Pay");
  if (jsOn()) {
    await expectToast(page, "Your license is active");
    await expect(page).toHaveURL(/\/my-animations$/);
  } else {
    await expect(page.getByRole("heading", { name: "Your license is active" })).toBeVisible();
    await page.getByRole("main").getByRole("link", { name: "My Animations" }).click();
  }
  await page.goto("/billing");
  await expect(page.getByText("Category license: Rhinoplasty").first()).toBeVisible();
});
