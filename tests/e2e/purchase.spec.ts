import { expect, type Page, test } from "@playwright/test";
import { aYearFromToday, atEachWidth, expectToast, signUp } from "./helpers.ts";

// Buying in the local test mode (no STRIPE_SECRET_KEY), in both projects: without JavaScript the
// buy button posts to the hosted test page and back to the return page; with JavaScript the
// embedded test form pays on the same checkout screen, confirms through POST
// /api/payments/success and goes to the same return page. Every product ends on one confirmation.

const RHINOPLASTY = "open_rhinoplasty_reshaping_the_nasal_framework";
const jsOn = () => test.info().project.name === "js";

/** On the checkout screen (embedded with JavaScript, the test mode's hosted page without): pay or decline. */
async function pay(page: Page, button: "Pay" | "Decline") {
  await expect(page.getByText("Test mode — no real payments")).toBeVisible();
  await expect(page.getByRole("heading", { level: 1, name: "Checkout" })).toBeVisible();
  await expect(page.getByText(`One year of access, until ${aYearFromToday()}`)).toBeVisible();
  const name = button === "Pay" ? /^Pay \$\d+/ : "Decline";
  await page.getByRole("button", { name }).click();
}

/**
 * The one confirmation every purchase ends on, with or without JavaScript (with it, the toast on
 * top): what was bought, until when, and a receipt that opens.
 */
async function expectConfirmation(page: Page, heading: string, product: string) {
  await expect(page).toHaveURL(/\/checkout\/return\?checkout=[0-9a-f-]{36}$/);
  if (jsOn()) await expectToast(page, heading);
  const main = page.getByRole("main");
  await expect(main.getByRole("heading", { level: 1, name: heading })).toBeVisible();
  await expect(main.getByText(product, { exact: true })).toBeVisible();
  await expect(main.getByText(aYearFromToday(), { exact: true })).toBeVisible();
  const confirmation = page.url();
  await main.getByRole("link", { name: "View receipt" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Receipt" })).toBeVisible();
  await expect(page.getByRole("cell", { name: product })).toBeVisible();
  await page.goto(confirmation);
}

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

// Each product is bought at a desktop and a phone width: the checkout screen and the
// confirmation are the same at both.
atEachWidth(() => {
  test("premium: pay, the confirmation, then the premium home", async ({ page }) => {
    await signUp(page);
    await page.goto("/premium");
    await expect(page.getByText("Test mode — no real payments")).toBeVisible();
    await page.getByRole("button", { name: "Get Premium Access" }).click();
    if (!jsOn()) await expect(page).toHaveURL(/\/checkout\/test\/[0-9a-f-]{36}$/);
    await pay(page, "Pay");
    await expectConfirmation(page, "Welcome to Premium!", "Premium yearly subscription");
    await page.getByRole("main").getByRole("link", { name: "Start watching" }).click();
    await expect(page.getByRole("heading", { name: "Welcome to Your Premium Library" })).toBeVisible();
  });

  test("individual license: the checkout screen, the confirmation, then the download on /watch", async ({ page }) => {
    await signUp(page);
    await page.goto(`/purchase/individual/${RHINOPLASTY}`);
    const main = page.getByRole("main");
    await expect(main.getByText(`One year of access, until ${aYearFromToday()}`)).toBeVisible();
    // One way back, to the animation.
    await expect(main.getByRole("link", { name: "Back", exact: true })).toHaveAttribute("href", `/animations/${RHINOPLASTY}`);
    await expect(main.getByRole("button", { name: "Back", exact: true })).toHaveCount(0);
    await page.getByRole("button", { name: "Continue to Payment" }).click();
    await pay(page, "Pay");
    await expectConfirmation(page, "Your license is active", "Individual license: Open Rhinoplasty: Reshaping the Nasal Framework");
    await page.getByRole("main").getByRole("link", { name: "Watch and download" }).click();
    await expect(page).toHaveURL(/\/watch\/[0-9a-f-]{36}$/);
    await expect(page.getByRole("list", { name: "Downloads" }).getByRole("link", { name: "License package (ZIP)" })).toHaveAttribute(
      "href",
      `/packages/${RHINOPLASTY}.zip`,
    );
  });

  test("category license through /global-license", async ({ page }) => {
    await signUp(page);
    await page.goto("/global-license");
    await page.getByRole("link", { name: "License Rhinoplasty" }).click();
    await expect(page).toHaveURL(/\/purchase\/category\/rhinoplasty$/);
    await page.getByRole("button", { name: "Continue to Payment" }).click();
    await pay(page, "Pay");
    await expectConfirmation(page, "Your license is active", "Category license: Rhinoplasty");
    await page.getByRole("main").getByRole("link", { name: "My Animations" }).click();
    await expect(page).toHaveURL(/\/my-animations$/);
    await page.goto("/billing");
    await expect(page.getByText("Category license: Rhinoplasty").first()).toBeVisible();
  });
});
