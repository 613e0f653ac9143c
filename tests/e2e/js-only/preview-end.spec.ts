import AxeBuilder from "@axe-core/playwright";
import { expect, type Page, test } from "@playwright/test";
import { atEachWidth, gotoWithoutReact, MEMBER, signIn } from "../helpers.ts";

// The preview's end with JavaScript: at the 10-second cap the player offers the full animation
// (preview-end.spec.ts has what a visitor gets without JavaScript). The page does not hydrate:
// its own script (app/static-page/animation-page.ts) has run once the page has loaded.

const ANIMATION = "/animations/open_rhinoplasty_reshaping_the_nasal_framework";

/** Plays the video from half a second before its end, as a viewer who watched it through. */
async function playToTheEnd(page: Page) {
  const video = page.getByTestId("animation-video");
  await video.evaluate(async (v: HTMLVideoElement) => {
    v.muted = true;
    // A full video preloads nothing (its ladder starts on play): play, then skip to the end.
    if (v.readyState < 1) {
      const loaded = new Promise((resolve) => v.addEventListener("loadedmetadata", resolve, { once: true }));
      void v.play().catch(() => undefined);
      await loaded;
    }
    v.currentTime = v.duration - 0.5;
    await v.play();
  });
  await expect.poll(() => video.evaluate((v: HTMLVideoElement) => v.ended)).toBe(true);
}

atEachWidth(({ width }) => {
  test("the preview's end shows the offers on the player, focused; Replay preview plays it again", async ({ page }) => {
    await gotoWithoutReact(page, ANIMATION);
    const video = page.getByTestId("animation-video");
    await expect(page.getByTestId("preview-end")).toBeHidden();
    // The preview file is the server's 10-second cut.
    expect(
      await video.evaluate(
        (v: HTMLVideoElement) =>
          new Promise<number>((resolve) => (v.readyState >= 1 ? resolve(v.duration) : v.addEventListener("loadedmetadata", () => resolve(v.duration)))),
      ),
    ).toBeCloseTo(10, 0);
    await playToTheEnd(page);

    const end = page.getByTestId("preview-end");
    await expect(end).toBeFocused();
    await expect(end).toHaveAccessibleName("Unlock the Full Animation");
    await expect(end.getByRole("link", { name: "Get Premium Access" })).toHaveAttribute("href", "/premium");
    await expect(end.getByRole("link", { name: /^Individual License \$\d+\/year$/ })).toHaveAttribute("href", /^\/individual-license\?animation=/);
    await expect(end.getByRole("link", { name: /Category License \$\d+\/year$/ }).first()).toHaveAttribute("href", /^\/purchase\/category\//);

    const player = (await video.boundingBox())!;
    const panel = (await end.boundingBox())!;
    if (width >= 1280) {
      // Over the picture.
      expect(panel.y).toBeGreaterThanOrEqual(player.y);
      expect(panel.y + panel.height).toBeLessThanOrEqual(player.y + player.height + 1);
    } else {
      // Right under the picture, too small on a phone to hold them.
      expect(panel.y).toBeGreaterThanOrEqual(player.y + player.height);
      expect(panel.y).toBeLessThan(player.y + player.height + 24);
    }

    // Keyboard: the offers and Replay preview are the next tab stops.
    await page.keyboard.press("Tab");
    await expect(end.getByRole("link", { name: "Get Premium Access" })).toBeFocused();

    const results = await new AxeBuilder({ page })
      .withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"])
      .options({ resultTypes: ["violations"] })
      .setLegacyMode(true)
      .analyze();
    expect(results.violations.map((v) => `${v.impact} ${v.id}: ${v.help}`)).toEqual([]);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow).toBeLessThanOrEqual(0);

    await end.getByRole("button", { name: "Replay preview" }).click();
    await expect(end).toBeHidden();
    await expect(video).toBeFocused();
    await expect.poll(() => video.evaluate((v: HTMLVideoElement) => !v.paused && v.currentTime < 9)).toBe(true);
  });
});

test("a premium member watches to the end without an offer to unlock it", async ({ page }) => {
  await signIn(page, MEMBER.email, MEMBER.password);
  await gotoWithoutReact(page, ANIMATION);
  await playToTheEnd(page);
  await expect(page.getByTestId("preview-end")).toHaveCount(0);
  await expect(page.getByRole("link", { name: "Get Premium Access" })).toHaveCount(0);
});
