import { expect, test } from "@playwright/test";
import { ADMIN, MEMBER, signIn, signOut } from "./helpers.ts";

test("the shared layout: sticky header, search and sign-in links, footer with the legal pages", async ({ page }) => {
  await page.goto("/");
  const header = page.getByRole("banner");
  await expect(header.getByRole("link", { name: "Medanim home" })).toBeVisible();
  await expect(header.getByRole("link", { name: "Search" })).toHaveAttribute("href", "/search");
  await expect(header.getByRole("link", { name: "Sign in" })).toHaveAttribute("href", "/auth");
  await expect(header).toHaveCSS("position", "sticky");
  const footer = page.getByRole("contentinfo");
  await expect(footer.getByRole("link", { name: "About Us" })).toHaveAttribute("href", "/about");
  await expect(footer.getByRole("link", { name: "Contact" })).toHaveAttribute("href", "/contact");
  // One link per published legal page, from the database.
  await expect(footer.getByRole("link", { name: "Terms of Service" })).toHaveAttribute("href", "/terms-of-service");
  await expect(footer.getByRole("link", { name: "Privacy Policy" })).toHaveAttribute("href", "/privacy-policy");
  await expect(footer).toContainText("© 2025");
});

test("the member's avatar shows the person's initials; an admin's menu has the Admin Panel entry", async ({ page }) => {
  await signIn(page, MEMBER.email, MEMBER.password);
  await expect(page.getByLabel("Profile menu")).toHaveText("JL"); // Jordan Lee, not "D" for demo_member
  await signOut(page);
  await signIn(page, ADMIN.email, ADMIN.password);
  await page.getByLabel("Profile menu").click();
  await expect(page.getByTestId("profile-menu").getByRole("link", { name: "Admin Panel" })).toHaveAttribute("href", "/admin");
});

test("the header's sections: categories, pricing and help, without knowing a URL", async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto("/help");
  const nav = page.getByRole("navigation", { name: "Main" });
  await nav.getByText("Categories").click();
  await nav.getByRole("link", { name: "Cardiology" }).click();
  await expect(page).toHaveURL(/\/category\/cardiology$/);
  await expect(page.getByRole("heading", { level: 1, name: "Cardiology" })).toBeVisible();
  await nav.getByText("Pricing").click();
  await expect(nav.getByRole("link", { name: "Category license" })).toHaveAttribute("href", "/category-license");
  await nav.getByRole("link", { name: "Premium – all animations" }).click();
  await expect(page).toHaveURL(/\/premium$/);
  await nav.getByRole("link", { name: "Help" }).click();
  await expect(page).toHaveURL(/\/help$/);
});

test("a phone's menu opens and leads on, with or without JavaScript; the skip link reaches the content", async ({ page, javaScriptEnabled }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  // A page that hydrates, a member's: from the pages that do not (every page a visitor lands on,
  // decision 025) every link loads a document.
  await signIn(page, MEMBER.email, MEMBER.password);
  await page.goto("/dashboard");
  await expect(page.getByRole("navigation", { name: "Main" })).toBeHidden();
  await page.getByTestId("phone-menu").getByLabel("Menu", { exact: true }).click();
  const menu = page.getByRole("navigation", { name: "Main" });
  await menu.getByText("Pricing").click();
  // With JavaScript a client-side change (a member's /premium is the checkout, which hydrates).
  await menu.getByRole("link", { name: "Premium – all animations" }).click();
  await expect(page).toHaveURL(/\/premium$/);
  // The menu closes once the page has changed.
  await expect(page.getByRole("navigation", { name: "Main" })).toBeHidden();

  // With JavaScript the page change moved focus to the new content (a screen reader announces it).
  if (javaScriptEnabled) await expect(page.locator("#content")).toBeFocused();

  // On a fresh page the first Tab reaches the skip link, which leads past the header.
  await page.goto("/premium");
  await page.keyboard.press("Tab");
  const skip = page.getByRole("link", { name: "Skip to content" });
  await expect(skip).toBeFocused();
  await expect(skip).toBeVisible();
  await skip.press("Enter");
  await expect(page).toHaveURL(/#content$/);
  await page.keyboard.press("Tab");
  await expect(page.locator("#content :focus")).toHaveCount(1);
});

test("the browser's tab icon: /favicon.ico and the linked SVG answer", async ({ page, request }) => {
  await page.goto("/");
  await expect(page.locator('link[rel="icon"]')).toHaveAttribute("href", "/favicon.svg");
  for (const [url, type] of [
    ["/favicon.ico", /image\/(x-icon|vnd.microsoft.icon)/],
    ["/favicon.svg", /image\/svg\+xml/],
  ] as const) {
    const res = await request.get(url);
    expect(res.status(), url).toBe(200);
    expect(res.headers()["content-type"]).toMatch(type);
  }
});

test("a toast is announced from a live region in the 'Notification' region, in valid markup", async ({ page }) => {
  await signIn(page, MEMBER.email, MEMBER.password);
  const region = page.getByRole("region", { name: "Notification" });
  const status = region.getByRole("status");
  await expect(status).toHaveCount(1);
  await expect(status.getByText("Welcome back!", { exact: true })).toBeVisible();
  // ARIA in HTML: a list item may not take the status role, and one toast needs no list.
  expect(await status.evaluate((element) => element.tagName)).not.toBe("LI");
  await expect(region.locator("li, ol, ul")).toHaveCount(0);
});
