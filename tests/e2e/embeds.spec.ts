import http from "node:http";
import AxeBuilder from "@axe-core/playwright";
import { expect, request as playwrightRequest, test, type Browser, type Page } from "@playwright/test";
import { adminApiToken, expectToast, signUp } from "./helpers.ts";

// Licensed embeds in the real Chromium, in both projects: a licensee buys a licence, names a
// site on /my-animations (previewing and copying the snippet there), and a page on that site (a
// second origin: 127.0.0.1 on its own port) frames the player, which fills the frame at a phone's
// and a desktop's width; the same page from an origin not on the licence shows the "not licensed"
// card instead of a refused frame; once the licence ends the embed shows the ended card.

const RHINOPLASTY = "open_rhinoplasty_reshaping_the_nasal_framework";
// The demo videos' shape as ffprobe measured it when seeded (480×270).
const DEMO_VIDEO_RATIO = 480 / 270;
const jsOn = () => test.info().project.name === "js";
// Ports 3300-3399 are this feature's: one pair per project, so both can run at once.
const ports = () => (jsOn() ? { allowed: 3311, refused: 3312 } : { allowed: 3301, refused: 3302 });

/** A clinic's web page with the snippet in it, served from 127.0.0.1:port. */
async function clinicSite(port: number, snippet: string) {
  const server = http.createServer((_req, res) => {
    res.writeHead(200, { "Content-Type": "text/html; charset=utf-8" });
    res.end(`<!doctype html><html lang="en"><head><title>Clinic</title></head><body><main><h1>Our knee surgery</h1>${snippet}</main></body></html>`);
  });
  await new Promise<void>((resolve, reject) => server.once("error", reject).listen(port, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${port}/knee.html`,
    close: () => new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve()))),
  };
}

async function buyLicence(page: Page, path = `/purchase/individual/${RHINOPLASTY}`) {
  await page.goto(path);
  await page.getByRole("button", { name: "Continue to Payment" }).click();
  await expect(page.getByText("Test mode — no real payments")).toBeVisible();
  await page.getByRole("button", { name: /^Pay \$\d+/ }).click();
  if (jsOn()) await expectToast(page, "Your license is active");
  else await expect(page.getByRole("heading", { name: "Your license is active" })).toBeVisible();
}

/**
 * No black bars: the player's video fills the snippet's frame exactly (no title bar beside it),
 * and the frame has the video's shape.
 */
async function expectPlayerFillsFrame(page: Page, videoRatio: number) {
  const frame = (await page.locator("iframe").boundingBox())!;
  const video = (await page.frameLocator("iframe").locator("video").boundingBox())!;
  for (const side of ["x", "y", "width", "height"] as const) expect(Math.abs(video[side] - frame[side]), side).toBeLessThanOrEqual(1);
  expect(Math.abs(frame.width / frame.height - videoRatio), `${frame.width}×${frame.height}`).toBeLessThan(0.02);
}

/** axe-core (WCAG 2.1 A/AA and best practices, as tests/e2e/screens.spec.ts) at a desktop and a phone width. */
async function expectAccessible(page: Page, url: string) {
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await page.goto(url);
    const results = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"]).analyze();
    expect(
      results.violations.map((v) => `${v.impact} ${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`),
      `${url} at ${width} px`,
    ).toEqual([]);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow, `${url} scrolls sideways at ${width} px`).toBeLessThanOrEqual(0);
  }
}

/** The player's own document, opened top-level in a context that lets axe's script in past its CSP. */
async function expectPlayerAccessible(browser: Browser, url: string) {
  const context = await browser.newContext({ bypassCSP: true });
  try {
    await expectAccessible(await context.newPage(), url);
  } finally {
    await context.close();
  }
}

test("a licensee embeds its animation on its own site only, until the licence ends", async ({ page, baseURL, browser }) => {
  test.setTimeout(90_000);
  const { allowed, refused } = ports();
  await signUp(page);
  await buyLicence(page);

  // Name the site on /my-animations: a bad host is refused beside the field, a good one added.
  await page.goto("/my-animations");
  const embeds = page.getByRole("region", { name: "Embed on your website" });
  await expect(embeds.getByText("0 plays so far.")).toBeVisible();
  await embeds.getByLabel("Add a site").fill("clinic.example; script-src *");
  await embeds.getByRole("button", { name: "Add domain" }).click();
  await expect(page.getByText("A domain can contain only letters, digits, dots and hyphens, with an optional port")).toBeVisible();
  await page.getByRole("region", { name: "Embed on your website" }).getByLabel("Add a site").fill(`http://127.0.0.1:${allowed}/any/page`);
  await page.getByRole("region", { name: "Embed on your website" }).getByRole("button", { name: "Add domain" }).click();
  await expectToast(page, "Domain added");
  const section = page.getByRole("region", { name: "Embed on your website" });
  await expect(section.getByRole("button", { name: `Remove 127.0.0.1:${allowed}` })).toBeVisible();
  // Ready for the next site: the field does not keep the one just added.
  await expect(section.getByLabel("Add a site")).toHaveValue("");
  const snippet = await section.getByLabel("Embed snippet").inputValue();
  expect(snippet).toContain(`<iframe src="${baseURL}/embed/`);
  const licenceId = /licence=([0-9a-f-]{36})/.exec(snippet)![1]!;
  await expect(section.getByLabel("Embed snippet")).toHaveAttribute("readonly", "");

  // The live preview is the snippet itself, framed by Medanim, unfolded on demand.
  const preview = section.locator("iframe");
  await expect(preview).toBeHidden();
  await section.getByText("Preview", { exact: true }).click();
  await preview.scrollIntoViewIfNeeded();
  await expect(section.frameLocator("iframe").locator("video")).toBeVisible();
  expect(await preview.getAttribute("src")).toBe(/src="([^"]+)"/.exec(snippet)![1]!.replaceAll("&amp;", "&"));

  // Copy: a button with JavaScript (its outcome announced), the read-only snippet without.
  const copy = section.getByRole("button", { name: "Copy snippet" });
  if (jsOn()) {
    await page.context().grantPermissions(["clipboard-read", "clipboard-write"], { origin: baseURL });
    await copy.click();
    await expect(section.getByRole("status")).toHaveText("Copied");
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(snippet);
  } else {
    await expect(copy).toHaveCount(0);
  }

  const playerUrl = new URL(/src="([^"]+)"/.exec(snippet)![1]!.replaceAll("&amp;", "&")).toString();
  const site = await clinicSite(allowed, snippet);
  const elsewhere = await clinicSite(refused, snippet);
  try {
    // On the licence's site: the player, with its video and its current medical review.
    await page.setViewportSize({ width: 1280, height: 720 });
    await page.goto(site.url);
    const frame = page.frameLocator("iframe");
    const video = frame.locator("video");
    await expect(video).toBeVisible();
    await expect(frame.getByText(/^Medically reviewed by Dr\. .+ on .+ · next review .+$/)).toBeVisible();
    const src = await video.getAttribute("src");
    // The stored video (the run's server leaves the demo backlog untranscoded), signed for this
    // licence; streaming.spec.ts plays a set's progressive MP4 in an embed.
    expect(src).toMatch(/^\/embed-media\/[0-9a-f-]{36}\/video\?licence=/);
    if (jsOn()) {
      // Press play (muted, as browsers allow without a gesture): the video's metadata loads.
      await video.evaluate((v: HTMLVideoElement) => {
        v.muted = true;
        void v.play().catch(() => undefined);
      });
      await expect.poll(() => video.evaluate((v: HTMLVideoElement) => v.readyState), { timeout: 15_000 }).toBeGreaterThanOrEqual(1);
      // The seeded shape is the file's own.
      expect(await video.evaluate((v: HTMLVideoElement) => v.videoWidth / v.videoHeight)).toBeCloseTo(DEMO_VIDEO_RATIO, 2);
    } else {
      // Without JavaScript: a plain <video> whose signed source answers with the video.
      const media = await page.request.get(`${baseURL}${src}`, { headers: { Range: "bytes=0-" } });
      expect([200, 206]).toContain(media.status());
      expect(media.headers()["content-type"]).toBe("video/mp4");
    }
    // No black bars at a desktop's width, nor at a phone's.
    await expectPlayerFillsFrame(page, DEMO_VIDEO_RATIO);
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(site.url);
    await expect(frame.locator("video")).toBeVisible();
    await expectPlayerFillsFrame(page, DEMO_VIDEO_RATIO);
    await page.screenshot({ path: test.info().outputPath("embed-390.png") });
    // The transcript opens over the picture, inside the frame.
    const transcript = frame.getByTestId("player-transcript");
    await transcript.locator("summary").click();
    await expect(transcript.locator("div[lang]")).toBeVisible();
    const [frameBox, panel] = [(await page.locator("iframe").boundingBox())!, (await transcript.locator("div[lang]").boundingBox())!];
    expect(panel.y).toBeGreaterThanOrEqual(frameBox.y);
    expect(panel.x + panel.width).toBeLessThanOrEqual(frameBox.x + frameBox.width);
    await page.screenshot({ path: test.info().outputPath("embed-390-transcript.png") });
    await page.setViewportSize({ width: 1280, height: 720 });

    // The plays show next to the snippet.
    await page.goto("/my-animations");
    await expect(page.getByRole("list", { name: /^Plays of / }).getByText(/1 play/)).toBeVisible();
    if (jsOn()) {
      // axe runs as a script: checked in the project with JavaScript (the markup is the same).
      await expectAccessible(page, "/my-animations");
      // The player inside the clinic's page (axe checks the frame too), and the card a direct visit gets.
      await expectPlayerAccessible(browser, site.url);
      await expectPlayerAccessible(browser, playerUrl);
      await page.setViewportSize({ width: 1280, height: 720 });
    }

    // From an origin not on the licence: the friendly card, not a broken frame, and no video.
    await page.goto(elsewhere.url);
    await expect(page.getByRole("heading", { name: "Our knee surgery" })).toBeVisible();
    const card = page.frameLocator("iframe");
    await expect(card.getByRole("heading", { name: "This animation is not licensed for this site" })).toBeVisible();
    await expect(card.getByRole("link", { name: "Watch it on Medanim" })).toHaveAttribute("href", `${baseURL}/animations/${RHINOPLASTY}`);
    await expect(card.locator("video")).toHaveCount(0);

    // The domain lock: the player's URL opened directly (it is in the clinic's page source) gets
    // the card with the public page, never the video.
    await page.goto(playerUrl);
    await expect(page.getByRole("heading", { name: "This animation is not licensed for this site" })).toBeVisible();
    await expect(page.getByRole("link", { name: "Watch it on Medanim" })).toHaveAttribute("href", `${baseURL}/animations/${RHINOPLASTY}`);
    await expect(page.locator("video")).toHaveCount(0);

    // The licence ends (an admin cancels it): the embed shows the ended card on its next load.
    const api = await playwrightRequest.newContext({ baseURL });
    try {
      const accessToken = await adminApiToken(api);
      const cancel = await api.put(`/api/admin/subscriptions/${licenceId}/cancel`, { headers: { Authorization: `Bearer ${accessToken}` } });
      expect(cancel.status()).toBe(200);
      // The signed URL handed out before stops working at once.
      expect((await api.get(`${baseURL}${src}`, { headers: { Range: "bytes=0-99" } })).status()).toBe(403);
    } finally {
      await api.dispose();
    }
    // The page may reuse the licence's row for up to 15 s (embeds.server.ts): reload until then.
    // A patient on the clinic's site reads that the video is gone, and is sold nothing (the clinic is e-mailed).
    await expect(async () => {
      await page.goto(site.url);
      await expect(page.frameLocator("iframe").getByRole("heading", { name: "This video is no longer available" })).toBeVisible({ timeout: 1_000 });
    }).toPass({ timeout: 25_000, intervals: [1_000, 2_000] });
    await expect(page.frameLocator("iframe").getByRole("link")).toHaveCount(0);
    await expect(page.frameLocator("iframe").locator("video")).toHaveCount(0);
  } finally {
    await site.close();
    await elsewhere.close();
  }
});

test("a category licence's snippet shows the animation picked from the category's list", async ({ page }) => {
  await signUp(page);
  await buyLicence(page, "/purchase/category/rhinoplasty");
  await page.goto("/my-animations");
  const section = page.getByRole("region", { name: "Embed on your website" });
  const picker = section.getByLabel("Animation to embed");
  const options = await picker.locator("option").allTextContents();
  expect(options.length).toBeGreaterThan(1);
  const [first, second] = options as [string, string];
  await expect(section.getByText(`Shows ${first}.`)).toBeVisible();

  // A plain GET form: the same with JavaScript or without.
  await picker.selectOption({ label: second });
  await section.getByRole("button", { name: "Show its snippet" }).click();
  await expect(section.getByText(`Shows ${second}.`)).toBeVisible();
  await expect(page).toHaveURL(/[?&]animation=[0-9a-f-]{36}/);
  await expect(section.getByLabel("Animation to embed")).toHaveValue(/^[0-9a-f-]{36}$/);
  expect(await section.getByLabel("Embed snippet").inputValue()).toContain(`title="${second}"`);
  await section.getByText("Preview", { exact: true }).click();
  // The player names its video by the animation's title (the title over the picture is decoration).
  await expect(section.frameLocator("iframe").getByRole("main", { name: second })).toBeVisible();
});
