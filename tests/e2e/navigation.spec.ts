import { expect, test, type Page } from "@playwright/test";
import { MEMBER, signIn } from "./helpers.ts";

const WIDTHS = [
  { name: "desktop", width: 1280, height: 800, phone: false },
  { name: "phone", width: 390, height: 844, phone: true },
] as const;

/** On a phone the sections live under the "Menu" toggle: open it, as a visitor would to look. */
async function showSections(page: Page, phone: boolean) {
  if (!phone) return;
  const nav = page.getByRole("banner").getByRole("navigation", { name: "Main" });
  if (await nav.isVisible()) return;
  await page.getByTestId("phone-menu").getByLabel("Menu", { exact: true }).click();
  await expect(nav).toBeVisible();
}

/** Exactly one "Categories · Pricing · Help" in the header, and it is the one on screen. */
async function expectOneHeaderNav(page: Page, phone: boolean) {
  await showSections(page, phone);
  const banner = page.getByRole("banner");
  await expect(banner.getByRole("navigation", { name: "Main" })).toHaveCount(1);
  // Counted hidden or not: a copy left behind off screen is still a copy.
  await expect(banner.locator("nav")).toHaveCount(1);
  for (const label of ["Categories", "Pricing"]) {
    await expect(banner.getByText(label, { exact: true })).toHaveCount(1);
    await expect(banner.getByText(label, { exact: true })).toBeVisible();
  }
  await expect(banner.getByRole("link", { name: "Help", exact: true })).toHaveCount(1);
}

async function headerSection(page: Page, phone: boolean, dropdown: string | null, link: string) {
  await showSections(page, phone);
  const nav = page.getByRole("banner").getByRole("navigation", { name: "Main" });
  if (dropdown) await nav.getByText(dropdown, { exact: true }).click();
  await nav.getByRole("link", { name: link, exact: true }).click();
}

async function profileMenu(page: Page, link: string) {
  await page.getByLabel("Profile menu").click();
  await page.getByTestId("profile-menu").getByRole("link", { name: link, exact: true }).click();
}

for (const size of WIDTHS) {
  test(`ten page changes as a member leave one header navigation (${size.name}, ${size.width} px)`, async ({ page, javaScriptEnabled }) => {
    // Ten page changes, each checked: more than the suite's default 30 s on a busy machine.
    test.setTimeout(90_000);
    await page.setViewportSize({ width: size.width, height: size.height });
    await signIn(page, MEMBER.email, MEMBER.password);
    await expectOneHeaderNav(page, size.phone);
    // With JavaScript every step below must be a client-side navigation: a full load would
    // rebuild the header and hide the bug. The mark survives only if the document does.
    if (javaScriptEnabled) await page.evaluate(() => ((window as unknown as { navMark: string }).navMark = "kept"));

    const footer = page.getByRole("contentinfo");
    const steps: Array<[string, RegExp, () => Promise<void>]> = [
      ["Pricing → Premium", /\/premium$/, () => headerSection(page, size.phone, "Pricing", "Premium – all animations")],
      ["My Animations", /\/my-animations$/, () => profileMenu(page, "My Animations")],
      ["Profile Settings", /\/profile$/, () => profileMenu(page, "Profile Settings")],
      ["Dashboard", /\/dashboard$/, () => profileMenu(page, "Dashboard")],
    ];
    for (const [label, url, go] of steps) {
      await test.step(label, async () => {
        await go();
        await expect(page).toHaveURL(url);
        await expectOneHeaderNav(page, size.phone);
      });
    }

    if (javaScriptEnabled) expect(await page.evaluate(() => (window as unknown as { navMark?: string }).navMark)).toBe("kept");

    // The last six: Contact, Help, Search, a category, About Us and the logo. Those pages do not
    // hydrate (decision 025): with JavaScript too they are loaded as documents, each with its one header.
    await footer.getByRole("link", { name: "Contact" }).click();
    await expect(page).toHaveURL(/\/contact$/);
    await expectOneHeaderNav(page, size.phone);
    if (javaScriptEnabled) expect(await page.evaluate(() => (window as unknown as { navMark?: string }).navMark)).toBeUndefined();
    await headerSection(page, size.phone, null, "Help");
    await expect(page).toHaveURL(/\/help$/);
    await expectOneHeaderNav(page, size.phone);
    if (javaScriptEnabled) expect(await page.evaluate(() => (window as unknown as { navMark?: string }).navMark)).toBeUndefined();
    await page.getByRole("banner").getByRole("link", { name: "Search" }).click();
    await expect(page).toHaveURL(/\/search$/);
    await expectOneHeaderNav(page, size.phone);
    if (javaScriptEnabled) expect(await page.evaluate(() => (window as unknown as { navMark?: string }).navMark)).toBeUndefined();
    await headerSection(page, size.phone, "Categories", "Cardiology");
    await expect(page).toHaveURL(/\/category\/cardiology$/);
    await expectOneHeaderNav(page, size.phone);
    if (javaScriptEnabled) expect(await page.evaluate(() => (window as unknown as { navMark?: string }).navMark)).toBeUndefined();
    await footer.getByRole("link", { name: "About Us" }).click();
    await expect(page).toHaveURL(/\/about$/);
    await expectOneHeaderNav(page, size.phone);
    await page.getByRole("link", { name: "Medanim home" }).click();
    await expect(page).toHaveURL(/\/$/);
    await expectOneHeaderNav(page, size.phone);
  });
}

type Box = { x: number; y: number; width: number; height: number };
const overlap = (a: Box, b: Box) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

for (const size of WIDTHS) {
  test(`header menus never lie on top of each other; with JavaScript opening one closes the others (${size.name})`, async ({ page, javaScriptEnabled }) => {
    await page.setViewportSize({ width: size.width, height: size.height });
    await signIn(page, MEMBER.email, MEMBER.password);
    const banner = page.getByRole("banner");
    const nav = banner.getByRole("navigation", { name: "Main" });
    const profile = page.getByTestId("profile-menu");
    const profilePanel = profile.locator(".menu-panel");
    // Found hidden or not: a closed phone Menu takes the sections out of the accessibility tree.
    const sections = banner.locator('nav[aria-label="Main"]');
    const categories = sections.locator("details", { hasText: "Categories" });
    const pricing = sections.locator("details", { hasText: "Pricing" });
    const phoneMenu = page.getByTestId("phone-menu");

    // Categories, then Pricing beside it: only Pricing stays open, with or without JavaScript.
    await showSections(page, size.phone);
    await nav.getByText("Categories", { exact: true }).click();
    await expect(nav.getByRole("link", { name: "Cardiology" })).toBeVisible();
    await nav.getByText("Pricing", { exact: true }).click();
    await expect(nav.getByRole("link", { name: "Premium – all animations" })).toBeVisible();
    await expect(categories).not.toHaveAttribute("open");
    if (size.phone) await expect(phoneMenu).toHaveAttribute("open"); // the sections stay on screen

    // Then the profile menu.
    await page.getByLabel("Profile menu").click();
    await expect(profilePanel).toBeVisible();
    if (javaScriptEnabled) await expect(pricing).not.toHaveAttribute("open");
    if (size.phone) {
      // The Menu's panel and the profile panel both drop under the header: one closes.
      await expect(phoneMenu).not.toHaveAttribute("open");
      await expect(nav).toBeHidden();
    } else if (!javaScriptEnabled) {
      // A desktop without JavaScript may keep Pricing open beside it, but never under it.
      const pricingList = pricing.locator("ul");
      if (await pricingList.isVisible()) expect(overlap((await pricingList.boundingBox())!, (await profilePanel.boundingBox())!)).toBe(false);
    }

    // And back: opening the sections closes the profile panel where they would overlap.
    if (size.phone) {
      await phoneMenu.getByLabel("Menu", { exact: true }).click();
      await expect(nav).toBeVisible();
      await expect(profile).not.toHaveAttribute("open");
    } else if (javaScriptEnabled) {
      await nav.getByText("Categories", { exact: true }).click();
      await expect(nav.getByRole("link", { name: "Cardiology" })).toBeVisible();
      await expect(profile).not.toHaveAttribute("open");
      await expect(profilePanel).toBeHidden();
    }
  });
}
