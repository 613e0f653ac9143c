import { expect, type Locator, type Page, test } from "@playwright/test";
import { atEachWidth } from "./helpers.ts";

// The player's captions and languages, in both projects, on the demo member's licensed animation
// (its preview for a visitor): captions sized by the picture, readable on a phone (issue 46: at
// least 12 px in a 390 px viewport, where the browser's own size was about 7 px), and its Spanish
// track offered beside the English one, which stays on by default on the site's English pages.

const ANIMATION = "/animations/open_rhinoplasty_reshaping_the_nasal_framework";

/**
 * The computed font size of the cue the video shows. The cue is drawn in the <video>'s
 * user-agent shadow tree, which neither the page nor getComputedStyle(video, "::cue") can read
 * (Chromium answers the element's own 16 px there): Chromium's DevTools protocol can, by walking
 * the document with shadow roots pierced to the node whose pseudo is "cue".
 */
async function shownCueFontSize(page: Page, video: Locator) {
  // The preview's first cue is "[Overview]", from 0 s: one second in shows it.
  await video.evaluate(async (v: HTMLVideoElement) => {
    if (v.readyState < 1) await new Promise((resolve) => v.addEventListener("loadedmetadata", resolve, { once: true }));
    v.currentTime = 1;
  });
  await expect
    .poll(() => video.evaluate((v: HTMLVideoElement) => v.textTracks[0]?.mode === "showing" && (v.textTracks[0].activeCues?.length ?? 0) > 0))
    .toBe(true);
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("DOM.enable");
  await cdp.send("CSS.enable");
  type DomNode = { nodeId: number; attributes?: string[]; children?: DomNode[]; shadowRoots?: DomNode[] };
  const cues: number[] = [];
  const walk = (node: DomNode) => {
    const attributes = node.attributes ?? [];
    const pseudo = attributes[attributes.indexOf("pseudo") + 1];
    if (attributes.includes("pseudo") && pseudo === "cue") cues.push(node.nodeId);
    for (const child of [...(node.shadowRoots ?? []), ...(node.children ?? [])]) walk(child);
  };
  await expect
    .poll(async () => {
      cues.length = 0;
      walk((await cdp.send("DOM.getDocument", { depth: -1, pierce: true })).root as DomNode);
      return cues.length;
    })
    .toBeGreaterThan(0);
  const { computedStyle } = await cdp.send("CSS.getComputedStyleForNode", { nodeId: cues[0]! });
  await cdp.detach();
  return parseFloat(computedStyle.find((property) => property.name === "font-size")!.value);
}

atEachWidth(({ width }) => {
  test("the captions are sized by the player's width, readable on a phone", async ({ page }) => {
    await page.goto(ANIMATION);
    const video = page.getByTestId("animation-video");
    const size = await shownCueFontSize(page, video);
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
