import { expect, test } from "@playwright/test";
import { outboxMails } from "../helpers/mail-parse.ts";
import { aYearFromToday, DATA_DIR, expectToast, MEMBER, signIn, signUp } from "./helpers.ts";

const RHINOPLASTY = "open_rhinoplasty_reshaping_the_nasal_framework";

test("the checkout says, beside the pay button, when the term renews, at what price and where to turn it off", async ({ page }) => {
  await signUp(page);
  const disclosure = new RegExp(`^Renews automatically on ${aYearFromToday()} at \\$\\d+/year until you turn it off in Billing → Auto-renew\\.$`);

  await page.goto(`/purchase/individual/${RHINOPLASTY}`);
  const main = page.getByRole("main");
  await expect(main.getByText(disclosure)).toBeVisible();
  await expect(main.getByRole("link", { name: "Billing → Auto-renew" })).toHaveAttribute("href", "/billing");

  // Premium's plan page, then the screen that takes the payment (with JavaScript the embedded
  // step, without it the test mode's hosted page).
  await page.goto("/premium");
  await expect(main.getByText(disclosure)).toBeVisible();
  await page.getByRole("button", { name: "Get Premium Access" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Checkout" })).toBeVisible();
  await expect(main.getByText(disclosure)).toBeVisible();
  await expect(page.getByRole("button", { name: /^Pay \$\d+/ })).toBeVisible();
});

// On /billing the demo member turns auto-renew off, then back on (plain POST forms, so the same
// steps work with JavaScript off and on), and each change is confirmed by e-mail. The two
// projects may run at the same time against the same member, so each toggles a different
// subscription.

test("the demo member turns auto-renew off, then back on, and is sent a confirmation of each", async ({ page }, testInfo) => {
  await signIn(page, MEMBER.email, MEMBER.password);
  await page.goto("/billing");

  const label = testInfo.project.name === "js" ? /^Category license:/ : "Premium access (all animations)";
  const card = page
    .getByRole("region", { name: "Active Subscriptions" })
    .getByRole("listitem")
    .filter({ has: page.getByText(label) });
  await expect(card).toHaveCount(1);
  const item = await card.getByText(label).innerText();
  const confirmations = (state: "off" | "on") => outboxMails(DATA_DIR, MEMBER.email).filter((m) => m.subject.startsWith(`Auto-renew is ${state}: ${item} `));
  // Test mode has no billing portal to offer.
  await expect(page.getByRole("button", { name: "Manage payment method" })).toHaveCount(0);

  // A run stopped halfway may have left it off: start from "on".
  if (await card.getByRole("button", { name: "Turn auto-renew back on" }).isVisible()) {
    await card.getByRole("button", { name: "Turn auto-renew back on" }).click();
    await expectToast(page, "Auto-renew turned back on");
  }
  await expect(card.getByText("Auto-renew is on")).toBeVisible();

  const offBefore = confirmations("off").length;
  await card.getByRole("button", { name: "Turn off auto-renew" }).click();
  await expect(page).toHaveURL(/\/billing$/);
  await expectToast(page, "Auto-renew turned off");
  await expect(page.getByRole("region", { name: "Notification" }).getByText(/^Your access continues until \w+ \d{1,2}, \d{4}\.$/)).toBeVisible();
  await expect(card.getByText("Auto-renew is off")).toBeVisible();
  await expect(card.getByText(/access ends on/)).toBeVisible();
  await expect.poll(() => confirmations("off").length).toBe(offBefore + 1);
  expect(confirmations("off").at(-1)!.text).toMatch(
    /It will not renew and nothing more will be charged for it: your access continues until \w+ \d{1,2}, \d{4}\./,
  );

  const onBefore = confirmations("on").length;
  await card.getByRole("button", { name: "Turn auto-renew back on" }).click();
  await expect(page).toHaveURL(/\/billing$/);
  await expectToast(page, "Auto-renew turned back on");
  await expect(card.getByText("Auto-renew is on")).toBeVisible();
  await expect(card.getByRole("button", { name: "Turn off auto-renew" })).toBeVisible();
  await expect.poll(() => confirmations("on").length).toBe(onBefore + 1);
});

// Test mode's card page stands in for Stripe's: plain forms, so the same steps work with
// JavaScript off and on.
test("a member adds a card on /billing through the test card page, then replaces it", async ({ page }) => {
  await signUp(page);
  await page.goto("/billing");
  const section = page.getByRole("region", { name: "Card on file" });
  await expect(section.getByText("No card recorded yet.", { exact: false })).toBeVisible();

  await section.getByRole("button", { name: "Add a card" }).click();
  await expect(page).toHaveURL(/\/checkout\/test\/card\/[0-9a-f-]{36}$/);
  await expect(page.getByText("Test mode — no real payments")).toBeVisible();
  await page.getByRole("button", { name: "Save Visa ending in 4242 (pays)" }).click();
  await expect(page).toHaveURL(/\/billing$/);
  await expectToast(page, "Card replaced");
  const expiry = `12/${new Date().getUTCFullYear() + 4}`;
  await expect(section.getByText(`Visa ending in 4242 · expires ${expiry}`)).toBeVisible();

  await section.getByRole("button", { name: "Replace card" }).click();
  await page.getByRole("button", { name: "Save Visa ending in 0341 (renewals are declined)" }).click();
  await expectToast(page, "Card replaced");
  await expect(section.getByText(`Visa ending in 0341 · expires ${expiry}`)).toBeVisible();
});
