import { expect, test } from "@playwright/test";
import { gotoWithoutReact } from "../helpers.ts";

// With JavaScript, Share opens the device's share sheet (the Web Share API) where there is one.
// Debian's Chromium has none, so each test gives the page one that records what it was asked to
// share, and answers as a real sheet would.

const SLUG = "open_rhinoplasty_reshaping_the_nasal_framework";

type Sheet = { outcome: "shared" | "AbortError" | "NotAllowedError"; calls: ShareData[] };

async function withShareSheet(page: import("@playwright/test").Page, outcome: Sheet["outcome"]) {
  await page.addInitScript((answer) => {
    const sheet: Sheet = { outcome: answer, calls: [] };
    (window as unknown as { sheet: Sheet }).sheet = sheet;
    Navigator.prototype.share = async (data?: ShareData) => {
      sheet.calls.push(data ?? {});
      if (sheet.outcome !== "shared") throw new DOMException("The sheet closed", sheet.outcome);
    };
  }, outcome);
}

/** The page's script (it does not hydrate) has run once its Copy button (JavaScript only) is no longer hidden, closed panel or not. */
async function gotoEnhanced(page: import("@playwright/test").Page) {
  await gotoWithoutReact(page, `/animations/${SLUG}`);
  await expect(page.getByTestId("share").locator("button", { hasText: "Copy link" })).toHaveJSProperty("hidden", false);
}

const calls = (page: import("@playwright/test").Page) => page.evaluate(() => (window as unknown as { sheet: Sheet }).sheet.calls);

test("Share opens the device's share sheet with the animation's address, title and first sentence", async ({ page, baseURL }) => {
  await withShareSheet(page, "shared");
  await gotoEnhanced(page);
  const title = await page.getByRole("heading", { level: 1 }).textContent();
  await page.getByTestId("share").getByText("Share", { exact: true }).click();
  await expect.poll(() => calls(page)).toHaveLength(1);
  const [shared] = await calls(page);
  expect(shared.url).toBe(`${baseURL}/animations/${SLUG}`);
  expect(shared.title).toBe(title);
  expect(shared.text).toMatch(/^\S.{10,199}[.!?…]$/);
  // The sheet did the sharing: the page's own panel stays closed.
  await expect(page.getByLabel("Link to this animation")).toBeHidden();
});

test("closing the share sheet leaves the page as it was; a sheet that fails opens the links instead", async ({ page }) => {
  await withShareSheet(page, "AbortError");
  await gotoEnhanced(page);
  const share = page.getByTestId("share");
  await share.getByText("Share", { exact: true }).click();
  await expect.poll(() => calls(page)).toHaveLength(1);
  await expect(share.getByLabel("Link to this animation")).toBeHidden();

  await page.evaluate(() => ((window as unknown as { sheet: Sheet }).sheet.outcome = "NotAllowedError"));
  await share.getByText("Share", { exact: true }).click();
  await expect(share.getByLabel("Link to this animation")).toBeVisible();
  await expect(share.getByRole("link", { name: "WhatsApp" })).toBeVisible();
  // Once open, Share closes the panel like any toggle, without asking the sheet again.
  await share.getByText("Share", { exact: true }).click();
  await expect(share.getByLabel("Link to this animation")).toBeHidden();
  expect(await calls(page)).toHaveLength(2);
});
