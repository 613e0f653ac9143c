import { expect, test, type Page } from "@playwright/test";
import { MEMBER, signIn } from "./helpers.ts";

// The product's own screen texts spell it "License" ("Individual Animation License", "License This
// Animation", "Category License: $X/year"); a page that also says "licence" reads as two products.
// URLs keep their names (/licences/{id}/verify, ?licence= in an embed snippet): words only.
const OTHER_SPELLING = /(?<![?&/\w-])licen[c]es?(?![=\w-])/i;

async function expectOneSpelling(page: Page, url: string) {
  await page.goto(url);
  await expect(page.locator("main")).toBeVisible();
  const text = await page.locator("body").innerText();
  const title = await page.title();
  expect(`${title}\n${text}`.match(OTHER_SPELLING)?.[0], url).toBeUndefined();
  expect(text, url).toMatch(/license/i);
}

test('the license pages, an animation, help and the legal terms say "license" one way', async ({ page }) => {
  await page.goto("/");
  const animation = await page.getByTestId("animation-card").first().getByRole("link").getAttribute("href");
  for (const url of ["/individual-license", "/category-license", "/premium", animation!, "/help", "/terms-of-service", "/category/body-contouring"]) {
    await expectOneSpelling(page, url);
  }
});

test('a member\'s pages say "license" one way', async ({ page }) => {
  await signIn(page, MEMBER.email, MEMBER.password);
  for (const url of ["/dashboard", "/my-animations", "/billing", "/refund"]) await expectOneSpelling(page, url);
});
