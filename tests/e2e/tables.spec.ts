import { expect, test, type Locator, type Page } from "@playwright/test";
import { ADMIN, MEMBER, signIn, signUp, uniqueUser } from "./helpers.ts";

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

// The back office's lists (the animation list's controls are also checked above): at 1280 px neither the
// page nor any table scrolls sideways, so every column and every row's controls are on screen.
// On a phone a wide table scrolls inside its own region, which says so, and the page does not.
const ADMIN_LISTS = [
  "/admin/animations",
  "/admin/users",
  "/admin/subscriptions",
  "/admin/refunds",
  "/admin/misuse",
  "/admin/audit",
  "/admin/email-manager?tab=templates",
  "/admin/email-manager?tab=logs",
  "/admin/email-manager?tab=campaigns",
  "/admin/practices",
  "/admin/pages",
  "/admin/faqs",
  "/admin/doctors",
  "/admin/categories",
];
/** Lists the seed fills, so their table is there to measure whatever else ran before (FAQs are edited on /help, as cards). */
const SEEDED = new Set([
  "/admin/users",
  "/admin/animations",
  "/admin/subscriptions",
  "/admin/audit",
  "/admin/email-manager?tab=templates",
  "/admin/pages",
  "/admin/doctors",
  "/admin/categories",
]);

const tablesOf = (page: Page) => page.locator("[role=region]:has(> table)");

test("admin lists: no sideways scroll of the page or of a table at 1280 px", async ({ browser, page }) => {
  test.setTimeout(90_000);
  // A member whose address is one long word: the users list and the mail log show it first.
  const member = uniqueUser();
  const visitor = await browser.newContext();
  await signUp(await visitor.newPage(), {
    ...member,
    // No hyphen: a browser may break a line after one.
    email: `tablecheck${member.username.slice(6)}witharatherlonglocalpartforthewidth@alongclinicdomainfortheadmintables.example.com`,
  });
  await visitor.close();
  await page.setViewportSize({ width: 1280, height: 800 });
  await signIn(page, ADMIN.email, ADMIN.password);
  for (const path of ADMIN_LISTS) {
    await page.goto(path);
    await expectNoSidewaysPageScroll(page);
    const tables = await tablesOf(page).all();
    if (SEEDED.has(path)) expect(tables.length, `${path}: a table`).toBeGreaterThan(0);
    for (const table of tables) {
      const overflow = await table.evaluate((region) => region.scrollWidth - region.clientWidth);
      expect(overflow, `${path}: ${await table.getAttribute("aria-label")} scrolls sideways by ${overflow} px`).toBeLessThanOrEqual(0);
      for (const control of (await table.locator("tbody tr").first().locator("a, button").all()).slice(0, 6)) {
        await expectReachableByScrollingDown(control, `${path}: ${(await control.innerText()).trim()}`);
      }
    }
  }
});

test("admin lists on a phone: a wide table scrolls in its own region, with a visible hint; the page does not", async ({ page }) => {
  test.setTimeout(90_000);
  await page.setViewportSize({ width: 390, height: 844 });
  await signIn(page, ADMIN.email, ADMIN.password);
  for (const path of ADMIN_LISTS) {
    await page.goto(path);
    await expectNoSidewaysPageScroll(page);
    for (const table of await tablesOf(page).all()) {
      if ((await table.evaluate((region) => region.scrollWidth - region.clientWidth)) <= 0) continue;
      await expect(table.getByText("Scroll sideways for more columns"), `${path}: the hint`).toBeVisible();
    }
  }
});
