import { expect, test } from "@playwright/test";
import { ADMIN, signIn } from "./helpers.ts";

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

test("an admin's menu has the Admin Panel entry", async ({ page }) => {
  await signIn(page, ADMIN.email, ADMIN.password);
  await page.getByLabel("Profile menu").click();
  await expect(page.getByTestId("profile-menu").getByRole("link", { name: "Admin Panel" })).toHaveAttribute("href", "/admin");
});
