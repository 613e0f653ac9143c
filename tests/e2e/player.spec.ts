import { expect, test } from "@playwright/test";
import { atEachWidth, shownCaptionFontSize } from "./helpers.ts";

// The player's captions and languages, in both projects, on the demo member's licensed animation
// (its preview for a visitor): captions sized by the picture, readable on a phone (issue 46: at
// least 12 px in a 390 px viewport, where the browser's own size was about 7 px), and its Spanish
// track offered beside the English one, which stays on by default on the site's English pages.

const ANIMATION = "/animations/open_rhinoplasty_reshaping_the_nasal_framework";

atEachWidth(({ width }) => {
  test("the captions are sized by the player's width, readable on a phone", async ({ page }) => {
    await page.goto(ANIMATION);
    const video = page.getByTestId("animation-video");
    const size = await shownCaptionFontSize(video);
    const picture = (await video.boundingBox())!.width;
    test.info().annotations.push({ type: "caption size", description: `${size} px on a ${picture} px picture at ${width} px` });
    // 14 px at least (issue 46 asks for 12 at 390 px), 3% of the picture's width above 466 px, 32 at most.
    expect(size).toBeGreaterThanOrEqual(14);
    expect(size).toBeCloseTo(Math.min(32, Math.max(14, picture * 0.03)), 0);
  });
});

test("the Spanish captions are offered beside the English ones, which stay on by default", async ({ page }) => {
  await page.goto(ANIMATION);
  const tracks = page.getByTestId("animation-video").locator("track");
  await expect(tracks.first()).toHaveAttribute("srclang", "en");
  await expect(tracks.first()).toHaveAttribute("default", "");
  const spanish = page.getByTestId("animation-video").locator('track[srclang="es"]');
  await expect(spanish).toHaveAttribute("label", "Español");
  await expect(spanish).not.toHaveAttribute("default");
  const vtt = await (await page.request.get((await spanish.getAttribute("src"))!)).text();
  expect(vtt).toMatch(/^WEBVTT\n/);
  expect(vtt).toContain("[Introducción]");
  expect(vtt).toContain("La rinoplastia abierta ofrece al cirujano");
});
