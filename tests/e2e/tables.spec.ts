import { expect, test, type Locator, type Page } from "@playwright/test";
import { ADMIN, MEMBER, signIn } from "./helpers.ts";

// Tables whose controls once sat past the right edge (/billing on a phone, /admin/animations at
// 1280 px): every control must be on screen once the page is scrolled down to it, with no
// sideways scroll of the page or of the table.

const WIDTHS = [
  { name: "desktop", width: 1280, height: 800 },
  { name: "phone", width: 390, height: 844 },
];

/** Scrolls the window vertically to the element, then checks it lies inside every sideways clip. */
async function expectReachableByScrollingDown(control: Locator, what: string) {
  const box = await control.evaluate((element) => {
    window.scrollTo(0, window.scrollY + element.getBoundingClientRect().top - 120);
    const rect = element.getBoundingClientRect();
    let left = 0;
    let right = document.documentElement.clientWidth;
    for (let parent = element.parentElement; parent; parent = parent.parentElement) {
      if (!/auto|scroll|hidden|clip/.test(getComputedStyle(parent).overflowX)) continue;
      const clip = parent.getBoundingClientRect();
      left = Math.max(left, clip.left);
      right = Math.min(right, clip.right);
    }
    return { left: rect.left, right: rect.right, width: rect.width, clipLeft: left, clipRight: right };
  });
  expect(box.width, what).toBeGreaterThan(0);
  expect(box.left, `${what}: left edge`).toBeGreaterThanOrEqual(box.clipLeft - 1);
  expect(box.right, `${what}: right edge`).toBeLessThanOrEqual(box.clipRight + 1);
}

async function expectNoSidewaysPageScroll(page: Page) {
  expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBeLessThanOrEqual(0);
}

for (const size of WIDTHS) {
  test(`/billing: each payment's Status, Receipt and refund are on screen (${size.name})`, async ({ page }) => {
    await page.setViewportSize({ width: size.width, height: size.height });
    await signIn(page, MEMBER.email, MEMBER.password);
    await page.goto("/billing");
    const rows = page.getByTestId("payment-row");
    await expect(rows.first()).toBeVisible();
    await expectNoSidewaysPageScroll(page);
    let refunds = 0;
    for (const row of (await rows.all()).slice(0, 4)) {
      const label = (await row.locator("td").nth(1).innerText()).trim();
      await expectReachableByScrollingDown(row.locator("td").nth(3).locator("span").first(), `${label}: status`);
      await expectReachableByScrollingDown(row.getByRole("link", { name: "Receipt", exact: true }), `${label}: Receipt`);
      const refund = row.locator("td").last().locator("a, span").first();
      if (await refund.count()) {
        refunds++;
        await expectReachableByScrollingDown(refund, `${label}: refund`);
      }
    }
    expect(refunds, "a payment with a refund control or state").toBeGreaterThan(0);
  });

  test(`/admin/animations: each row's Edit, Publish and Delete are on screen (${size.name})`, async ({ page }) => {
    await page.setViewportSize({ width: size.width, height: size.height });
    await signIn(page, ADMIN.email, ADMIN.password);
    await page.goto("/admin/animations");
    const rows = page.locator("tbody tr");
    await expect(rows.first()).toBeVisible();
    await expectNoSidewaysPageScroll(page);
    for (const row of (await rows.all()).slice(0, 3)) {
      const title = (await row.locator("p.font-medium").first().innerText()).trim();
      await expectReachableByScrollingDown(row.getByRole("link", { name: /^Edit/ }), `${title}: Edit`);
      await expectReachableByScrollingDown(row.getByRole("button", { name: /^(Publish|Unpublish)$/ }), `${title}: Publish`);
      await expectReachableByScrollingDown(
        row
          .getByRole("link", { name: /^Delete/ })
          .or(row.getByRole("button", { name: /^Delete/ }))
          .first(),
        `${title}: Delete`,
      );
    }
  });
}
