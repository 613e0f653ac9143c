import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { prisma } from "~/lib/db.server.ts";
import { saveObject } from "~/lib/storage.server.ts";
import { NOT_A_ZIP, zipEntryNames } from "~/lib/zip-directory.server.ts";
import * as animationsApi from "~/routes/api/animations.ts";
import * as animationApi from "~/routes/api/animations.slug.ts";
import * as home from "~/routes/public/home.tsx";
import { readDownloadFormats, videoTypesOf } from "~/services/media/media-facts.server.ts";
import { probeVideoSize } from "~/services/media/media-jobs.server.ts";
import { zipStored } from "../../prisma/seed-data/zip.ts";
import { accessTokenFor, createUser } from "../helpers/factories.ts";
import { sendToApp } from "../helpers/app.ts";
import { callRoute } from "../helpers/route.ts";
import { storeFile } from "./media-helpers.ts";

// Claims from data: what the premium, license and animation pages say about
// resolution, formats and new animations follows what the published catalogue holds, recorded
// when an admin stores the files (ffprobe on the video, the download's ZIP directory).

const DAY = 24 * 60 * 60 * 1000;
const workDir = fs.mkdtempSync(path.join(os.tmpdir(), "medanim-claims-"));
let smallVideo: string;
let uhdVideo: string;
let token: string;
let categoryId: string;

/** One frame of colour at `size`, H.264 in MP4: enough for ffprobe, quick to make at 3840×2160. */
function makeVideo(name: string, size: string) {
  const file = path.join(workDir, name);
  execFileSync("ffmpeg", [
    "-hide_banner",
    "-loglevel",
    "error",
    "-y",
    "-f",
    "lavfi",
    "-i",
    `color=c=navy:s=${size}:d=0.2`,
    "-frames:v",
    "1",
    "-c:v",
    "libx264",
    "-preset",
    "ultrafast",
    "-pix_fmt",
    "yuv420p",
    file,
  ]);
  return file;
}

beforeAll(async () => {
  smallVideo = makeVideo("small.mp4", "480x270");
  uhdVideo = makeVideo("uhd.mp4", "3840x2160");
  const admin = await createUser({ role: "admin" });
  token = await accessTokenFor(admin.id);
  const main = await prisma.category.create({ data: { name: "Cardiology", slug: "cardiology" } });
  categoryId = (await prisma.category.create({ data: { name: "Heart Valves", slug: "heart-valves", parentId: main.id, yearlyPrice: 199 } })).id;
});

afterAll(() => fs.rmSync(workDir, { recursive: true, force: true }));

async function storedVideo(file: string) {
  return (await saveObject({ body: fs.createReadStream(file), contentType: "video/mp4", kind: "video" })).path;
}

async function storedPackage(entries: string[]) {
  const body = zipStored(entries.map((name) => ({ name, content: `bytes of ${name}` })));
  return (await saveObject({ body, contentType: "application/zip", kind: "download" })).path;
}

/** An animation created by the admin through the API, with real files to probe. */
async function publish(title: string, video: string, entries: string[]) {
  const cover = await storeFile("cover", "jpg", "image/jpeg");
  const created = await callRoute(animationsApi, "/api/animations", {
    json: {
      title,
      description: `${title} explained.`,
      coverImage: cover.path,
      fullVideo: await storedVideo(video),
      downloadFile: await storedPackage(entries),
      individualPrice: 149,
      categoryId,
    },
    token,
  });
  expect(created.status).toBe(201);
  // A new animation is a draft (decision 032; tests/integration/publishing.test.ts): these
  // claims are about the published catalogue, so it is published as the admin would once ready.
  await prisma.animation.update({ where: { id: created.body.id }, data: { isActive: true } });
  return created.body as { id: string; slug: string };
}

async function page(url: string) {
  const response = await sendToApp(url, {});
  expect(response.status).toBe(200);
  return response.body.toString("utf8");
}

/**
 * What a reader sees of a page: its text, without scripts and tags. The absence of a claim is
 * checked here, since the HTML's random nonces and tokens may hold "4K" by chance (a CI flake).
 */
async function pageText(url: string) {
  return (await page(url)).replace(/<script\b[\s\S]*?<\/script>/gi, " ").replace(/<[^>]*>/g, " ");
}

async function ageAnimation(id: string, days: number) {
  await prisma.animation.update({ where: { id }, data: { createdAt: new Date(Date.now() - days * DAY) } });
}

describe("claims on the pages follow the catalogue", () => {
  let small: { id: string; slug: string };
  let uhd: { id: string; slug: string };

  it("a catalogue of 480×270 MP4 packages claims 270p and MP4: no 4K, no WebM, nothing new when nothing is", async () => {
    small = await publish("Mitral valve repair", smallVideo, ["mitral.mp4", "mitral-cover.jpg", "README.txt", "license.txt"]);
    expect(
      await prisma.animation.findUniqueOrThrow({ where: { id: small.id }, select: { videoWidth: true, videoHeight: true, downloadFormats: true } }),
    ).toEqual({
      videoWidth: 480,
      videoHeight: 270,
      downloadFormats: ["MP4"],
    });
    await ageAnimation(small.id, 90);
    for (const url of ["/premium", "/individual-license", "/category-license", "/category-license?category=heart-valves", "/global-license"]) {
      const html = await pageText(url);
      expect(html, url).not.toContain("4K");
      expect(html, url).not.toContain("WebM");
      expect(html, url).not.toContain("added weekly");
      expect(html, url).not.toContain("in the last 30 days");
    }
    const premium = await page("/premium");
    expect(premium).toContain("Full-length videos in up to 270p");
    expect(premium).toContain("Licensed downloads are provided in MP4.");
    const home1 = await callRoute(home, "/");
    expect(home1.body.newAnimations).toEqual([]);
    expect(await page("/")).not.toContain('data-testid="new-shelf"');
  });

  it("a published 3840×2160 animation with an MP4 and WebM package makes 4K, WebM and 'added weekly' appear", async () => {
    uhd = await publish("Aortic valve replacement", uhdVideo, ["aortic.mp4", "aortic.webm", "README.txt"]);
    const premium = await page("/premium");
    expect(premium).toContain("Full-length videos in up to 4K");
    expect(premium).toContain("Licensed downloads are provided in MP4 and WebM.");
    expect(premium).toContain("New animations added weekly");
    expect(await page("/category-license?category=heart-valves")).toContain("Downloads in MP4 and WebM, in up to 4K");

    // Each animation's own page and license checkout state its own files, not the catalogue's best.
    const smallPage = await page(`/animations/${small.slug}`);
    expect(smallPage).toMatch(/data-testid="animation-resolution">270p</);
    // Untranscoded: the package carries the master as uploaded, at its own frame.
    expect(smallPage).toMatch(/data-testid="animation-formats">MP4 270p</);
    const uhdPage = await page(`/animations/${uhd.slug}`);
    // The master's MP4 at its frame, and the WebM inside the admin's extras.
    expect(uhdPage).toMatch(/data-testid="animation-formats">MP4 4K \(2160p\) and WebM</);
    const smallLicense = await pageText(`/individual-license?animation=${small.id}`);
    expect(smallLicense).toContain("Access to the full animation in 270p");
    expect(smallLicense).toContain("Download of the files (MP4)");
    expect(smallLicense).not.toContain("WebM");
    expect(await page(`/individual-license?animation=${uhd.id}`)).toContain("Access to the full animation in 4K");
    const api = await callRoute(animationApi, `/api/animations/${uhd.slug}`, { params: { slugOrId: uhd.slug } });
    expect(api.body.media).toEqual({ resolution: "4K", formats: "MP4 4K (2160p) and WebM" });

    const shelf = await callRoute(home, "/");
    expect(shelf.body.newAnimations.map((a: { id: string }) => a.id)).toEqual([uhd.id]);
    expect(await page("/")).toContain('data-testid="new-shelf"');
  });

  it("'added weekly' holds only for the last 7 days; then the 30-day count; then nothing, and the shelf goes", async () => {
    await ageAnimation(uhd.id, 10);
    let premium = await page("/premium");
    expect(premium).not.toContain("added weekly");
    expect(premium).toContain("1 new animation in the last 30 days");
    expect((await callRoute(home, "/")).body.newAnimations).toHaveLength(1);

    await ageAnimation(uhd.id, 40);
    premium = await page("/premium");
    expect(premium).not.toContain("added weekly");
    expect(premium).not.toContain("in the last 30 days");
    expect((await callRoute(home, "/")).body.newAnimations).toEqual([]);
    expect(await page("/")).not.toContain('data-testid="new-shelf"');
  });

  it("an unpublished animation's files make no claim; a replaced video is probed again", async () => {
    await prisma.animation.update({ where: { id: uhd.id }, data: { isActive: false } });
    expect(await pageText("/premium")).not.toContain("4K");
    await prisma.animation.update({ where: { id: uhd.id }, data: { isActive: true } });

    const current = await prisma.animation.findUniqueOrThrow({ where: { id: uhd.id }, include: { doctors: true } });
    const replaced = await callRoute(animationApi, "/", {
      method: "PUT",
      json: {
        title: current.title,
        description: current.description,
        coverImage: current.coverImage,
        fullVideo: await storedVideo(smallVideo),
        downloadFile: await storedPackage(["aortic.mp4"]),
        individualPrice: 149,
        categoryId,
      },
      params: { slugOrId: uhd.id },
      token,
    });
    expect(replaced.status).toBe(200);
    expect(await prisma.animation.findUniqueOrThrow({ where: { id: uhd.id }, select: { videoHeight: true, downloadFormats: true } })).toEqual({
      videoHeight: 270,
      downloadFormats: ["MP4"],
    });
    const premium = await pageText("/premium");
    expect(premium).not.toContain("4K");
    expect(premium).not.toContain("WebM");
  });
});

describe("reading what the files are", () => {
  it("ffprobe reports a generated video's frame size", async () => {
    expect(await probeVideoSize(smallVideo)).toEqual({ width: 480, height: 270 });
    expect(await probeVideoSize(uhdVideo)).toEqual({ width: 3840, height: 2160 });
  });

  it("a ZIP's entry names come from its central directory, read in two ranges, nothing extracted", async () => {
    const zip = zipStored([
      { name: "clip.mp4", content: Buffer.alloc(50_000, 1) },
      { name: "clip.WebM", content: "w" },
      { name: "frames/", content: "" },
      { name: "README.txt", content: "read me" },
    ]);
    const reads: Array<[number, number]> = [];
    const names = await zipEntryNames(zip.length, async (start, length) => {
      reads.push([start, length]);
      return zip.subarray(start, start + length);
    });
    expect(names).toEqual(["clip.mp4", "clip.WebM", "frames/", "README.txt"]);
    // The tail and the directory: never the 50 kB of video.
    expect(reads.reduce((sum, [, length]) => sum + length, 0)).toBeLessThan(zip.length);
    expect(videoTypesOf(names)).toEqual(["MP4", "WEBM"]);
    await expect(zipEntryNames(4, async () => Buffer.from("RIFF"))).rejects.toThrow(NOT_A_ZIP);
  });

  it("a download that is not a ZIP counts as its own type; a package without videos has no formats", async () => {
    const rar = await storeFile("download", "rar", "application/vnd.rar");
    expect(await readDownloadFormats(rar.path)).toEqual(["RAR"]);
    expect(await readDownloadFormats(await storedPackage(["README.txt"]))).toEqual([]);
  });
});
