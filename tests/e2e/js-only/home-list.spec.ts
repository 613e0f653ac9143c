import { expect, type Page, test } from "@playwright/test";
import { atEachWidth, gotoWithoutReact } from "../helpers.ts";

// Back from an animation restores the home list as it was: the pages loaded with "Load More"
// or by scrolling, and the place (home-list.spec.ts has the list without JavaScript).

function listCards(page: Page) {
  return page.getByRole("region", { name: "Animations" }).getByTestId("animation-card");
}

/** Waits until no page of the list is loading, and returns how many cards it shows. */
async function settledCount(page: Page) {
  await expect(page.getByText("Loading more animations...")).toHaveCount(0);
  // The scroll observer may ask for one more page as the list grows: wait until it stops.
  let count = -1;
  await expect
    .poll(
      async () => {
        const previous = count;
        count = await listCards(page).count();
        return count === previous && (await page.getByText("Loading more animations...").count()) === 0;
      },
      { intervals: [500] },
    )
    .toBe(true);
  return count;
}

atEachWidth(() => {
  test("Back from an animation shows the same cards and the card opened", async ({ page }) => {
    // The home page does not hydrate: its script (a module) has run once the page has loaded.
    await page.goto("/");
    const cards = listCards(page);
    await expect(cards).toHaveCount(6);
    // By keyboard: the cards move as pages arrive (and the scroll observer may bring one first),
    // which a pointer aimed at the link would miss.
    for (const atLeast of [12, 18]) {
      await page.getByRole("link", { name: "Load More Animations" }).focus();
      await page.keyboard.press("Enter");
      await expect.poll(() => cards.count()).toBeGreaterThanOrEqual(atLeast);
    }
    // Open the first card of the third page, scrolled to as a visitor would.
    const opened = cards.nth(12);
    await opened.scrollIntoViewIfNeeded();
    const shown = await settledCount(page);
    expect(shown).toBeGreaterThanOrEqual(18);
    // The address says how many pages are shown, without a reload.
    await expect(page).toHaveURL(new RegExp(`/\\?page=${Math.ceil(shown / 6)}$`));
    const title = (await opened.getByRole("heading").textContent())!;
    await opened.getByRole("link", { name: new RegExp(title.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")) }).click();
    await expect(page).toHaveURL(/\/animations\//);
    await expect(page.getByRole("heading", { level: 1, name: title })).toBeVisible();

    await page.goBack();
    await expect(page).toHaveURL(new RegExp(`/\\?page=${Math.ceil(shown / 6)}$`));
    await expect(cards).toHaveCount(shown);
    await expect(cards.getByRole("heading", { name: title, exact: true })).toBeInViewport();
  });
});

test("the home page loads no React; hovering a card plays its muted preview over the cover", async ({ page }) => {
  await gotoWithoutReact(page, "/");

  const card = listCards(page).first();
  const title = (await card.getByRole("heading").textContent())!;
  await card.hover();
  const video = card.locator("video");
  await expect(video).toHaveAttribute("aria-label", `Preview of ${title}`);
  expect(await video.evaluate((element: HTMLVideoElement) => element.muted && element.loop)).toBe(true);
  await expect(card.getByRole("button", { name: `Play preview of ${title}` })).toBeVisible();
  // Leaving the card takes the preview away, as the React card does.
  await page.mouse.move(0, 0);
  await expect(video).toHaveCount(0);
});
