import http from "node:http";
import { expect, type Locator, type Page, test } from "@playwright/test";
import { expectToast, MEMBER, signIn, signUp } from "./helpers.ts";
import { CAPTION_TEXT, LADDER_OF_720P, type StreamingAnimation, streamingAnimation, TRANSCODE_WAIT_MS } from "./streaming-source.ts";

// Playback, in both projects, on an animation this run uploads and transcodes
// (streaming-source.ts): a premium member's full video plays (without JavaScript, the
// progressive MP4 the server renders; with it, the HLS ladder), and a licensee's embed, a
// script-free document, plays its progressive MP4 on the licensee's site. What only hls.js does
// (the quality menu, the storyboard on seek) is in js-only/streaming.spec.ts.

const jsOn = () => test.info().project.name === "js";
// Ports 3300-3399 belong to the embed specs: 3321/3331 are this file's, one per project.
const clinicPort = () => (jsOn() ? 3331 : 3321);
// Playing waits on segments and decoding while the run's other transcodes share the two cores.
const PLAYBACK_TEST_MS = 90_000;
const PROGRESSIVE = /^\/media\/[^/]+\/[^/]+\/progressive\.mp4$/;

let animation: StreamingAnimation;

test.beforeAll(async ({ browser }) => {
  test.setTimeout(TRANSCODE_WAIT_MS + 90_000);
  animation = await streamingAnimation(browser);
});

/** Plays the video muted (browsers allow that without a gesture) and waits for it to move on. */
async function expectPlays(video: Locator) {
  await video.evaluate((v: HTMLVideoElement) => {
    v.muted = true;
    void v.play().catch(() => undefined);
  });
  await expect.poll(() => video.evaluate((v: HTMLVideoElement) => v.currentTime), { timeout: 30_000 }).toBeGreaterThan(1);
}

async function waitForHydration(page: Page) {
  await page.waitForFunction(() => Boolean((window as unknown as { __reactRouterDataRouter?: unknown }).__reactRouterDataRouter));
}

test("a premium member's full animation plays: the progressive MP4 without JavaScript, the HLS ladder with it", async ({ page }) => {
  test.setTimeout(PLAYBACK_TEST_MS);
  await signIn(page, MEMBER.email, MEMBER.password);
  // The page as the server renders it, whichever project: the MP4 is what plays before (or without) hydration.
  const html = await (await page.request.get(`/watch/${animation.id}`)).text();
  expect(/<video[^>]*\ssrc="([^"]+)"/.exec(html)?.[1]).toMatch(PROGRESSIVE);

  const segment = jsOn() ? page.waitForResponse((r) => new URL(r.url()).pathname.endsWith(".m4s") && r.status() === 200, { timeout: 60_000 }) : null;
  await page.goto(`/watch/${animation.id}`);
  const video = page.getByTestId("animation-video");
  if (jsOn()) {
    await waitForHydration(page);
    // hls.js has the video once the ladder's master playlist is read: the menu appears then.
    await expect(page.getByLabel("Quality")).toBeVisible({ timeout: 15_000 });
    await expectPlays(video);
    expect(await video.evaluate((v: HTMLVideoElement) => v.currentSrc)).toMatch(/^blob:/);
    await segment;
  } else {
    await expect(video).toHaveAttribute("src", PROGRESSIVE);
    await expectPlays(video);
    expect(new URL(await video.evaluate((v: HTMLVideoElement) => v.currentSrc)).pathname).toMatch(PROGRESSIVE);
  }
  // The caption track stays with the player, on by default, and shows its cue.
  await expect(video.locator('track[srclang="en"]')).toHaveCount(1);
  await video.evaluate((v: HTMLVideoElement) => {
    v.pause();
    v.currentTime = 3;
  });
  await expect
    .poll(() => video.evaluate((v: HTMLVideoElement) => [...(v.textTracks[0]?.activeCues ?? [])].map((cue) => (cue as VTTCue).text)))
    .toEqual([CAPTION_TEXT]);
});

/** A clinic's page framing the snippet, on 127.0.0.1:port (a second origin). */
async function clinicSite(port: number, snippet: string) {
  const server = http.createServer((_req, res) => {
    res.writeHead(200, { "Content-Type": "text/html; charset=utf-8" });
    res.end(`<!doctype html><html lang="en"><head><title>Clinic</title></head><body><h1>Before your procedure</h1>${snippet}</body></html>`);
  });
  await new Promise<void>((resolve, reject) => server.once("error", reject).listen(port, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${port}/procedure.html`,
    close: () => new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve()))),
  };
}

test("a licensee downloads the package and the renditions, and its embed plays the progressive MP4", async ({ page }) => {
  test.setTimeout(PLAYBACK_TEST_MS);
  await signUp(page);
  await page.goto(`/purchase/individual/${animation.slug}`);
  await page.getByRole("button", { name: "Continue to Payment" }).click();
  await page.getByRole("button", { name: /^Pay \$\d+/ }).click();
  if (jsOn()) await expectToast(page, "Your license is active");
  else await expect(page.getByRole("heading", { name: "Your license is active" })).toBeVisible();

  // /watch lists the downloads: the licence package first, then each of its files, with its format and size.
  await page.goto(`/watch/${animation.id}`);
  const downloads = page.getByRole("list", { name: "Downloads" }).getByRole("listitem");
  await expect(downloads.first()).toContainText("License package (ZIP)");
  await expect(downloads.first().getByRole("link")).toHaveAttribute("href", `/packages/${animation.slug}.zip`);
  for (const item of await downloads.all()) await expect(item.getByRole("link")).toHaveAttribute("download", "");
  // The videos' sizes come from their rows (the package's is not known before it is written, so not shown).
  await expect(downloads.filter({ hasText: "MP4 (H.264, AAC), 720p" })).toContainText(/MP4 · \d+(\.\d)? (KB|MB)$/);
  await expect(downloads.filter({ hasText: "WebM (VP9, Opus), 720p" })).toContainText(/WebM · \d+(\.\d)? (KB|MB)$/);

  // The embed on the licensee's site: a plain <video> whose source is the progressive MP4.
  await page.goto("/my-animations");
  const embeds = page.getByRole("region", { name: "Embed on your website" });
  await embeds.getByLabel("Add a site").fill(`http://127.0.0.1:${clinicPort()}`);
  await embeds.getByRole("button", { name: "Add domain" }).click();
  await expectToast(page, "Domain added");
  const snippet = await page.getByRole("region", { name: "Embed on your website" }).getByLabel("Embed snippet").inputValue();
  const site = await clinicSite(clinicPort(), snippet);
  try {
    await page.goto(site.url);
    const frame = page.frameLocator("iframe");
    const video = frame.locator("video");
    await expect(video).toBeVisible();
    const source = await video.evaluate((v: HTMLVideoElement) => v.querySelector("source")?.getAttribute("src") ?? v.getAttribute("src"));
    expect(new URL(source!, "http://x").pathname).toMatch(PROGRESSIVE);
    // Playwright's evaluate runs with the page's own scripts off too: the same check in both projects.
    await expectPlays(video);
    // The site's own player in the clinic's frame: the transcript over the picture's corner, and
    // with JavaScript the quality menu once hls.js has the ladder (its code loads on play).
    const transcript = frame.getByTestId("player-transcript");
    await expect(transcript.locator("summary")).toContainText("Show transcript");
    await transcript.locator("summary").click();
    await expect(transcript.getByText(CAPTION_TEXT)).toBeVisible();
    if (jsOn()) {
      await expect(frame.getByText("Quality")).toBeVisible({ timeout: 30_000 });
      const rungs = await frame.locator("[data-quality] option").allTextContents();
      expect(rungs).toEqual(["Auto", ...LADDER_OF_720P]);
    }
  } finally {
    await site.close();
  }
});
