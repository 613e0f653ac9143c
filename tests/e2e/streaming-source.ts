import { execFileSync } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { type Browser, expect } from "@playwright/test";
import { zipStored } from "../../prisma/seed-data/zip.ts";
import { ADMIN, DATA_DIR, expectToast, signIn } from "./helpers.ts";

// The streaming specs' own animation: a 1280×720, 6-second source with a tone, made here with
// ffmpeg and uploaded through the admin form, so the ladder under test is one this run made
// (720p, 540p, 360p), not whatever the demo seed holds. Made once per run: the first spec to
// ask takes a lock in the server's data directory, uploads it and waits for its transcode; the
// others (both projects, both files) read what it wrote there.

export type StreamingAnimation = { id: string; slug: string; title: string };

/** The rungs a 720p source gets, highest first (the quality menu's order). */
export const LADDER_OF_720P = ["720p", "540p", "360p"];

// A bound, not an estimate: the transcode (three rungs, an MP4, a WebM, a preview and a
// storyboard of a 6-second source) shares two cores with the server and two browsers.
export const TRANSCODE_WAIT_MS = 150_000;

/** The animation's English captions: one cue over the whole 6 seconds, so any moment shows it. */
export const CAPTION_TEXT = "The ladder starts on its lowest rung.";
const CAPTIONS = `WEBVTT\n\n00:00.000 --> 00:06.000\n${CAPTION_TEXT}\n`;

const RECORD = path.join(DATA_DIR, "streaming-animation.json");
const LOCK = path.join(DATA_DIR, "streaming-animation.lock");

function readRecord(): StreamingAnimation | null {
  try {
    return JSON.parse(fs.readFileSync(RECORD, "utf8")) as StreamingAnimation;
  } catch {
    return null;
  }
}

/** The run's transcoded animation: made by the first caller, awaited by the rest. */
export async function streamingAnimation(browser: Browser): Promise<StreamingAnimation> {
  fs.mkdirSync(DATA_DIR, { recursive: true });
  const made = readRecord();
  if (made) return made;
  let owner = false;
  try {
    fs.mkdirSync(LOCK);
    owner = true;
  } catch {
    // Another worker is making it.
  }
  if (!owner) {
    await expect.poll(readRecord, { timeout: TRANSCODE_WAIT_MS + 60_000, intervals: [1_000] }).not.toBeNull();
    return readRecord()!;
  }
  try {
    const animation = await uploadAndTranscode(browser);
    fs.writeFileSync(RECORD, JSON.stringify(animation));
    return animation;
  } catch (error) {
    // Let the next caller try again rather than wait for a record that will never come.
    fs.rmSync(LOCK, { recursive: true, force: true });
    throw error;
  }
}

function makeSourceFiles(dir: string) {
  const ffmpeg = (...args: string[]) => execFileSync("ffmpeg", ["-v", "error", "-y", ...args]);
  const video = path.join(dir, "stream-source.mp4");
  ffmpeg(
    ...["-f", "lavfi", "-i", "testsrc2=size=1280x720:rate=25", "-f", "lavfi", "-i", "sine=frequency=440:sample_rate=48000"],
    ...["-t", "6", "-pix_fmt", "yuv420p", "-c:v", "libx264", "-preset", "veryfast", "-c:a", "aac", "-shortest", video],
  );
  const cover = path.join(dir, "stream-cover.jpg");
  ffmpeg("-f", "lavfi", "-i", "testsrc2=size=640x360", "-frames:v", "1", cover);
  const zip = path.join(dir, "stream-package.zip");
  fs.writeFileSync(zip, zipStored([{ name: "readme.txt", content: Buffer.from("Streaming e2e package\n") }]));
  return { video, cover, zip };
}

/** As the admin, without JavaScript (the multipart form: one path whichever project runs it). */
async function uploadAndTranscode(browser: Browser): Promise<StreamingAnimation> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "medanim-streaming-"));
  const context = await browser.newContext({ javaScriptEnabled: false });
  try {
    const files = makeSourceFiles(dir);
    const page = await context.newPage();
    await signIn(page, ADMIN.email, ADMIN.password);
    const title = `Streaming Ladder ${crypto.randomBytes(3).toString("hex")}`;
    await page.goto("/admin/animations/new");
    await page.getByLabel("Title").fill(title);
    await page.getByLabel("Description").fill("A generated test card with a tone, transcoded into an adaptive ladder.");
    await page.getByLabel("Duration (seconds)").fill("6");
    // A subcategory and a doctor, like every demo animation (other specs read the catalogue).
    await page.getByLabel("Category").selectOption({ index: 2 });
    await page.locator('input[name="doctorIds"]').first().check();
    // A new animation is a draft (decision 032): this one publishes itself once transcoded and reviewed.
    await page.getByLabel("Publish when ready").check();
    await page.getByLabel("Cover image", { exact: true }).setInputFiles(files.cover);
    await page.getByLabel("Full video", { exact: true }).setInputFiles(files.video);
    await page.getByLabel("Download file", { exact: true }).setInputFiles(files.zip);
    await page.getByRole("button", { name: "Create Animation" }).click();
    await expectToast(page, "Animation Created");

    await page.goto(`/admin/animations?search=${encodeURIComponent(title)}`);
    await page.getByRole("row").filter({ hasText: title }).getByRole("link", { name: "Edit" }).click();
    const id = new URL(page.url()).pathname.split("/").at(-1)!;
    const href = await page.getByRole("link", { name: "View public page (new tab)" }).getAttribute("href");
    const slug = decodeURIComponent(href!.split("/").at(-1)!);

    // An English track, so the specs can see captions survive hls.js taking over the <video>.
    await page.getByRole("link", { name: "Captions & medical review" }).click();
    await page.getByLabel("Language").selectOption("en");
    await page.getByLabel("Caption file (.vtt)").setInputFiles({ name: "captions-en.vtt", mimeType: "text/vtt", buffer: Buffer.from(CAPTIONS) });
    await page.getByRole("button", { name: "Upload captions" }).click();
    await expect(page.getByRole("region", { name: "Notification" }).getByText("Caption uploaded")).toBeVisible();
    // A current medical review, as every demo animation has: without it the catalogue stops
    // claiming "doctor-verified", which other specs read.
    await page.getByLabel("Reviewed on").fill(new Date().toISOString().slice(0, 10));
    await page.getByRole("button", { name: "Save review" }).click();
    await expectToast(page, "Medical review saved");
    await page.goto(`/admin/animations/${id}`);

    // The admin page's media panel names the newest transcode's state; a failure stops the wait at once.
    const deadline = Date.now() + TRANSCODE_WAIT_MS;
    for (;;) {
      const status = (await page.getByTestId("media-status").textContent()) ?? "";
      if (/Transcode done/.test(status)) break;
      if (/Transcode failed/.test(status)) throw new Error(`the transcode failed: ${await page.getByTestId("media-status").locator("..").textContent()}`);
      if (Date.now() > deadline) throw new Error(`no transcode done within ${TRANSCODE_WAIT_MS} ms: ${status}`);
      await page.waitForTimeout(2_000);
      await page.reload();
    }
    return { id, slug, title };
  } finally {
    await context.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
