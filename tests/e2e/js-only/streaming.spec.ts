import { expect, test } from "@playwright/test";
import { MEMBER, signIn } from "../helpers.ts";
import { LADDER_OF_720P, type StreamingAnimation, streamingAnimation, TRANSCODE_WAIT_MS } from "../streaming-source.ts";

// What hls.js adds to the player (streaming.spec.ts has what plays in both projects): the ladder
// played through hls.js from its lowest rung, the quality menu with Auto and the rungs, a rung
// chosen by hand, and the storyboard's thumbnail while the video seeks. On the run's own
// 720p upload (streaming-source.ts), so the ladder is 720p, 540p and 360p. The animation page
// loads that code when the viewer presses play (issue 46): the MP4 starts, the ladder takes over.

let animation: StreamingAnimation;

test.beforeAll(async ({ browser }) => {
  test.setTimeout(TRANSCODE_WAIT_MS + 90_000);
  animation = await streamingAnimation(browser);
});

test("a premium member's full animation plays through hls.js, with a quality menu and the storyboard on seek", async ({ page }) => {
  // Playing waits on segments and decoding while the run's other transcodes share the two cores.
  test.setTimeout(90_000);
  await signIn(page, MEMBER.email, MEMBER.password);
  const segments: { path: string; status: number }[] = [];
  const requested: string[] = [];
  page.on("response", (response) => {
    const path = new URL(response.url()).pathname;
    if (path.endsWith(".m4s")) segments.push({ path, status: response.status() });
  });
  page.on("request", (request) => requested.push(new URL(request.url()).pathname));
  await page.goto(`/animations/${animation.slug}`);
  await page.waitForLoadState("load");
  const video = page.getByTestId("animation-video");
  const quality = page.getByLabel("Quality");

  // Before the viewer presses play: no streaming code (the controls and the on-play loader are the page's; the
  // embed and patient links share that chunk), no playlist, no segment, no menu.
  await expect(quality).toBeHidden();
  expect(requested.filter((path) => /\/assets\/(player-(?!controls|on-play)|hls)[\w.-]*\.js$|\.m3u8$|\.m4s$/.test(path))).toEqual([]);

  await video.evaluate((v: HTMLVideoElement) => {
    v.muted = true;
    void v.play().catch(() => undefined);
  });
  await expect(quality).toBeVisible({ timeout: 15_000 });
  await expect(quality.locator("option")).toHaveText(["Auto", ...LADDER_OF_720P]);
  await expect(quality).toHaveValue("-1");
  // hls.js took over from the MP4 and plays on.
  await expect.poll(() => video.evaluate((v: HTMLVideoElement) => v.currentSrc), { timeout: 15_000 }).toMatch(/^blob:/);
  await expect.poll(() => video.evaluate((v: HTMLVideoElement) => !v.paused && v.currentTime > 1), { timeout: 30_000 }).toBe(true);
  // Started on the lowest rung, every segment answered.
  expect(segments[0]?.path).toMatch(/\/360p\/seg-\d+\.m4s$/);
  expect(
    segments.every((s) => s.status === 200),
    JSON.stringify(segments),
  ).toBe(true);

  // A rung chosen by hand: the picture comes from it.
  await quality.selectOption({ label: "540p" });
  await expect.poll(() => video.evaluate((v: HTMLVideoElement) => v.videoHeight), { timeout: 30_000 }).toBe(540);
  await expect.poll(() => segments.some((s) => /\/540p\/seg-\d+\.m4s$/.test(s.path))).toBe(true);

  // Seeking shows the storyboard's thumbnail of the target time, then it goes. The target is
  // 3 s away from wherever the video is (the player ignores its own sub-second gap skips).
  const target = await video.evaluate((v: HTMLVideoElement) => {
    v.pause();
    const to = ((Math.floor(v.currentTime) + 3) % 6) + 0.2;
    v.currentTime = to;
    return to;
  });
  const thumb = page.getByTestId("storyboard-thumb");
  await expect(thumb).toBeVisible();
  await expect(thumb).toHaveText(`0:0${Math.floor(target)}`);
  const picture = await thumb
    .locator("div")
    .first()
    .evaluate((el) => getComputedStyle(el).backgroundImage);
  expect(picture).toMatch(/^url\(".+"\)$/);
  await expect(thumb).toBeHidden({ timeout: 5_000 });
});
