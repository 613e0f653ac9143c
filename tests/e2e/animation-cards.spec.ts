import { expect, test, type Locator } from "@playwright/test";

type Box = { x: number; y: number; width: number; height: number };
const overlap = (a: Box, b: Box) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

// The home and search card, and the category listing's card: both show "Premium" to a visitor.
const SCREENS = [
  { name: "home", url: "/" },
  { name: "subcategory", url: "/category/body-contouring" },
];

async function firstCardWithCover(page: import("@playwright/test").Page) {
  const card = page
    .getByTestId("animation-card")
    .filter({ has: page.locator("img") })
    .first();
  await expect(card).toBeVisible();
  return card;
}

async function box(locator: Locator) {
  await locator.scrollIntoViewIfNeeded();
  return (await locator.boundingBox())!;
}

for (const width of [1280, 390]) {
  for (const screen of SCREENS) {
    test(`the ${screen.name} card's "Premium" badge stays off the picture's lettering at ${width} px`, async ({ page }) => {
      await page.setViewportSize({ width, height: 900 });
      await page.goto(screen.url);
      const card = await firstCardWithCover(page);
      const badge = card.getByText("Premium", { exact: true });
      await expect(badge).toBeVisible();
      // The demo covers print the specialty in their top left corner; any cover may carry lettering
      // anywhere, so the badge must not lie on the picture at all.
      expect(overlap(await box(badge), await box(card.locator("img")))).toBe(false);
    });

    test(`the ${screen.name} card's picture is a link to the animation, without a second tab stop (${width} px)`, async ({ page }) => {
      await page.setViewportSize({ width, height: 900 });
      await page.goto(screen.url);
      const card = await firstCardWithCover(page);
      // What a screen reader or the Tab key meets: one link per card.
      const links = card.getByRole("link");
      await expect(links).toHaveCount(1);
      const href = await links.getAttribute("href");
      const picture = card.locator("a", { has: page.locator("img") });
      await expect(picture).toHaveAttribute("href", href!);
      await expect(picture).toHaveAttribute("tabindex", "-1");
      await expect(picture).toHaveAttribute("aria-hidden", "true");

      const title = (await card.getByRole("heading").textContent())!.trim();
      // A pointer hovers first: with JavaScript the preview starts, and only its round play
      // button (in the middle) is not the link. Clicked near a corner, as people click pictures.
      await card.locator("img").click({ position: { x: 12, y: 12 } });
      await expect(page).toHaveURL(new RegExp(`${href!.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}$`));
      await expect(page.getByRole("heading", { level: 1, name: title })).toBeVisible();
    });
  }
}
