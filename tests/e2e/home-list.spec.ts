import { expect, type Locator, type Page, test } from "@playwright/test";
import { atEachWidth } from "./helpers.ts";

// The home list's pages live in the URL (?page=N renders pages 1 to N), so the list a visitor
// built survives Back and a reload. Without JavaScript "Load More" lands on the first new card;
// with it the pages are appended in place (js-only/home-list.spec.ts: Back to the same place).

const isJs = () => test.info().project.name === "js";

/** The home's list, without the "New" shelf above it. */
function listCards(page: Page) {
  return page.getByRole("region", { name: "Animations" }).getByTestId("animation-card");
}

atEachWidth(() => {
  test("Load More lands on the first new card, not at the top of the page", async ({ page }) => {
    // The home page does not hydrate: its script (a module) has run once the page has loaded.
    await page.goto("/");
    const cards = listCards(page);
    await expect(cards).toHaveCount(6);
    const loadMore = page.getByRole("link", { name: "Load More Animations" });
    await expect(loadMore).toHaveAttribute("href", "/?page=2#page-2");
    // By keyboard: with JavaScript the scroll observer may bring a page as the link comes into
    // view, moving it, and a pointer's retry would scroll after it, which no visitor does.
    await loadMore.focus();
    await page.keyboard.press("Enter");
    if (isJs()) {
      // Appended in place; the address records the pages shown (the scroll observer may add one more).
      await expect.poll(() => cards.count()).toBeGreaterThanOrEqual(12);
      await expect(page).toHaveURL(/\/\?page=\d+$/);
    } else {
      await expect(page).toHaveURL(/\/\?page=2#page-2$/);
      await expect(cards).toHaveCount(12);
      await expect(page.getByRole("link", { name: "Load More Animations" })).toHaveAttribute("href", "/?page=3#page-3");
    }
    // Page 2 goes on from page 1, which goes on from the "New" shelf: every animation once.
    const hrefs = (of: Locator) => of.evaluateAll((found) => found.map((card) => card.querySelector('a[href^="/animations/"]')?.getAttribute("href")));
    const shown = [...(await hrefs(page.getByTestId("new-shelf").getByTestId("animation-card"))), ...(await hrefs(cards))];
    expect(shown.length).toBeGreaterThanOrEqual(12);
    expect(new Set(shown).size).toBe(shown.length);
    const firstNew = cards.nth(6);
    await expect(firstNew).toHaveAttribute("id", "page-2");
    await expect(firstNew).toBeInViewport();
    // Below the sticky header, not under it.
    const header = (await page.getByRole("banner").boundingBox())!;
    expect((await firstNew.boundingBox())!.y).toBeGreaterThanOrEqual(header.y + header.height);
    await expect(page.getByRole("heading", { level: 1 })).not.toBeInViewport();
  });
});
