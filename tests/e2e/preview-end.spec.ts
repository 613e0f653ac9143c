import { expect, type Locator, test } from "@playwright/test";
import { atEachWidth, MEMBER, signIn } from "./helpers.ts";

// The preview's end sells the full animation. This file holds what a visitor gets with or
// without JavaScript: the offers next to the player and a line under it saying where the full
// version is. The overlay at the 10-second cap is JavaScript's (js-only/preview-end.spec.ts).

const ANIMATION = "/animations/open_rhinoplasty_reshaping_the_nasal_framework";

async function box(locator: Locator) {
  const found = await locator.boundingBox();
  expect(found).not.toBeNull();
  return found!;
}

atEachWidth(({ width, height }) => {
  test("a visitor sees the offers next to the player and where the full version is", async ({ page }) => {
    await page.goto(ANIMATION);
    const player = page.getByTestId("animation-video");
    const offers = page.getByRole("region", { name: "Unlock the Full Animation" });
    await expect(offers.getByRole("link", { name: "Get Premium Access" })).toHaveAttribute("href", "/premium");
    await expect(offers.getByRole("link", { name: /^Individual License \$\d+\/year$/ })).toBeVisible();

    const note = page.getByTestId("preview-note");
    await expect(note).toHaveText("The preview stops at 0:10. The full animation comes with Premium or a license: see the offers.");
    await expect(note.getByRole("link", { name: "see the offers" })).toHaveAttribute("href", /#unlock$/);

    const video = await box(player);
    const card = await box(offers);
    if (width >= 1024) {
      // Beside the player, starting level with it.
      expect(card.x).toBeGreaterThanOrEqual(video.x + video.width);
      expect(Math.abs(card.y - video.y)).toBeLessThan(5);
    } else {
      // Under the player with only its note and the title between: on the first screen, not 1,000 px down.
      expect(card.y).toBeGreaterThan(video.y + video.height);
      expect(card.y + 120).toBeLessThan(height);
    }

    // The note's link lands on the offers (below the sticky header).
    await note.getByRole("link", { name: "see the offers" }).click();
    await expect(page).toHaveURL(/#unlock$/);
    await expect(offers.getByRole("heading", { name: "Unlock the Full Animation" })).toBeInViewport();
  });

  test("a premium member gets neither the preview's note nor the offers to unlock it", async ({ page }) => {
    await signIn(page, MEMBER.email, MEMBER.password);
    await page.goto(ANIMATION);
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
    await expect(page.getByTestId("preview-note")).toHaveCount(0);
    await expect(page.getByRole("region", { name: "Unlock the Full Animation" })).toHaveCount(0);
  });
});
