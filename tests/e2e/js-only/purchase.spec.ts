import { expect, test } from "@playwright/test";
import { aYearFromToday, signUp } from "../helpers.ts";

// With JavaScript the premium plan's button opens the checkout screen in place (without it, the
// button goes on to the hosted page: purchase.spec.ts buys each product in both projects).

test("premium: the payment step opens on the plan page, and Back returns to the plan", async ({ page }) => {
  await signUp(page);
  await page.goto("/premium");
  await page.getByRole("button", { name: "Get Premium Access" }).click();
  // The checkout screen replaces the plan in place: focus moves to it rather than being lost.
  await expect(page.getByRole("heading", { level: 1, name: "Checkout" })).toBeFocused();
  await expect(page.getByText(`One year of access, until ${aYearFromToday()}`)).toBeVisible();
  await page.getByRole("button", { name: "Back", exact: true }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Unlock the Complete Medical Animation Library" })).toBeVisible();
});
