import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { prisma } from "~/lib/db.server.ts";
import { saveObject } from "~/lib/storage.server.ts";
import { stopJobQueue } from "~/lib/jobs.server.ts";
import { claimJob, queueTranscode, runTranscodeJob } from "~/services/media/media-jobs.server.ts";
import { signGrant } from "~/services/media/media-urls.server.ts";
import { accessTokenFor } from "../helpers/factories.ts";
import { createMediaWorld, startMediaApp } from "./media-helpers.ts";

// Who gets which file of a media set, through the app's front door (/api for the URLs a player
// is given, /media/ for the bytes): the preview is public; the ladder, the progressive MP4 and
// the storyboard only at URLs signed for a viewer with the right; the downloads only for a
// licence holder; a stranger, a tampered or expired signature and an ended licence are refused.

const workDir = fs.mkdtempSync(path.join(os.tmpdir(), "medanim-streaming-"));
let app: Awaited<ReturnType<typeof startMediaApp>>;
let world: Awaited<ReturnType<typeof createMediaWorld>>;
let setId: string;

type Playback = { isPreview: boolean; hls: string; mp4: string; storyboard: string | null; rungs: { height: number; bitrate: number }[] };

async function detailAs(user: keyof typeof world.users | null) {
  const headers: Record<string, string> = user ? { Authorization: `Bearer ${await accessTokenFor(world.users[user].id)}` } : {};
  const response = await fetch(`${app.url}/api/animations/${world.slug}`, { headers });
  expect(response.status).toBe(200);
  return (await response.json()) as { playback: Playback; media: { resolution: string; formats: string } };
}

const get = (url: string, init?: RequestInit) => fetch(new URL(url, app.url), { redirect: "manual", ...init });

beforeAll(async () => {
  app = await startMediaApp();
  world = await createMediaWorld();
  const source = path.join(workDir, "master.mp4");
  execFileSync("ffmpeg", [
    "-hide_banner",
    "-loglevel",
    "error",
    "-y",
    "-f",
    "lavfi",
    "-i",
    "testsrc2=duration=5:size=640x360:rate=25",
    "-f",
    "lavfi",
    "-i",
    "sine=duration=5",
    "-c:v",
    "libx264",
    "-preset",
    "ultrafast",
    "-c:a",
    "aac",
    "-shortest",
    source,
  ]);
  const master = await saveObject({ body: fs.createReadStream(source), contentType: "video/mp4", kind: "video" });
  await prisma.animation.update({ where: { id: world.animation.id }, data: { fullVideo: master.path } });
  const job = await queueTranscode(world.animation.id);
  expect(await runTranscodeJob((await claimJob(job!.id, "test"))!, "test")).toBe("done");
  setId = job!.id;
}, 90_000);

afterAll(async () => {
  await stopJobQueue();
  await app.close();
  fs.rmSync(workDir, { recursive: true, force: true });
});

describe("what a caller is given", () => {
  it("a visitor gets the public preview; its files are public and immutable", async () => {
    const { playback } = await detailAs(null);
    expect(playback).toMatchObject({ isPreview: true, storyboard: null, rungs: [] });
    expect(playback.mp4).toBe(`/media/${setId}/public/preview.mp4`);
    for (const url of [playback.mp4, playback.hls]) {
      const response = await get(url);
      expect(response.status).toBe(200);
      expect(response.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    }
    const playlist = await (await get(playback.hls)).text();
    const segment = playlist.split("\n").find((line) => line.endsWith(".m4s"))!;
    expect((await get(new URL(segment, new URL(playback.hls, app.url)).href)).status).toBe(200);
  });

  it("the public grant opens nothing but the preview", async () => {
    for (const file of ["hls/master.m3u8", "progressive.mp4", "download.mp4", "storyboard.vtt"]) {
      expect((await get(`/media/${setId}/public/${file}`)).status).toBe(403);
    }
  });

  it("a premium member gets the ladder signed for them: playlists, segments, progressive MP4 and storyboard, private", async () => {
    const { playback, media } = await detailAs("premium");
    expect(playback.isPreview).toBe(false);
    expect(playback.rungs).toEqual([{ height: 360, bitrate: expect.any(Number) }]);
    expect(media.formats).toMatch(/MP4/);
    expect(media.formats).toMatch(/WebM/i);
    const master = await get(playback.hls);
    expect(master.status).toBe(200);
    expect(master.headers.get("content-type")).toBe("application/vnd.apple.mpegurl");
    expect(master.headers.get("cache-control")).toBe("private, max-age=31536000, immutable");
    const masterText = await master.text();
    const rungUrl = new URL(
      masterText.split("\n").find((l) => l.endsWith(".m3u8"))!,
      new URL(playback.hls, app.url),
    );
    const rung = await (await get(rungUrl.href)).text();
    const segment = new URL(
      rung.split("\n").find((l) => l.endsWith(".m4s"))!,
      rungUrl,
    );
    const bytes = await get(segment.href, { headers: { Range: "bytes=0-99" } });
    expect(bytes.status).toBe(206);
    expect(bytes.headers.get("content-type")).toBe("video/iso.segment");
    expect((await get(playback.mp4)).status).toBe(200);
    const vtt = await (await get(playback.storyboard!)).text();
    const sprite = new URL(
      vtt
        .split("\n")
        .find((l) => l.includes("#xywh="))!
        .split("#")[0]!,
      new URL(playback.storyboard!, app.url),
    );
    expect((await get(sprite.href)).headers.get("content-type")).toBe("image/jpeg");
  });

  it("a stranger, a tampered and an expired signature are refused", async () => {
    const { playback } = await detailAs("premium");
    // The URL as a stranger would copy it works only while the member's right holds (below);
    // changing any part of the grant breaks it.
    const [, , , grant] = new URL(playback.hls, app.url).pathname.split("/");
    const [kind, userId, expires, sig] = grant!.split(".");
    const tampered = [
      `${kind}.${world.users.free.id}.${expires}.${sig}`,
      `${kind}.${userId}.${Number(expires) + 3600}.${sig}`,
      `${kind}.${userId}.${expires}.${sig!.slice(0, -2)}AA`,
      `u.${userId}.${expires}`,
      "anything",
    ];
    for (const bad of tampered) {
      const response = await get(`/media/${setId}/${bad}/hls/master.m3u8`);
      expect(response.status).toBe(403);
      expect(await response.json()).toEqual({ message: "This link has expired or is not valid" });
    }
    const expired = signGrant(setId, { kind: "u", userId: world.users.premium.id }, 60, Date.now() - 120_000);
    expect((await get(`/media/${setId}/${expired}/hls/master.m3u8`)).status).toBe(403);
    // Signed for a member without the right: refused, however valid the signature.
    const free = signGrant(setId, { kind: "u", userId: world.users.free.id }, 600);
    expect((await get(`/media/${setId}/${free}/progressive.mp4`)).status).toBe(403);
    // Another set's grant does not open this one.
    const other = signGrant("00000000-0000-4000-8000-000000000000", { kind: "u", userId: world.users.premium.id }, 600);
    expect((await get(`/media/${setId}/${other}/hls/master.m3u8`)).status).toBe(403);
  });

  it("downloads: MP4 and WebM for a licence holder only, as attachments named by the slug", async () => {
    const individual = signGrant(setId, { kind: "u", userId: world.users.individual.id }, 600);
    for (const [file, type] of [
      ["download.mp4", "video/mp4"],
      ["download.webm", "video/webm"],
    ] as const) {
      const response = await get(`/media/${setId}/${individual}/${file}`);
      expect(response.status).toBe(200);
      expect(response.headers.get("content-type")).toBe(type);
      expect(response.headers.get("content-disposition")).toBe(`attachment; filename="${world.slug}${path.extname(file)}"`);
    }
    // Premium watches but holds no licence: no download (docs/architecture.md, access rules).
    const premium = signGrant(setId, { kind: "u", userId: world.users.premium.id }, 600);
    expect((await get(`/media/${setId}/${premium}/download.mp4`)).status).toBe(403);
    expect((await get(`/media/${setId}/${premium}/progressive.mp4`)).status).toBe(200);
  });

  it("a licence that ends stops its URLs at once (within the few seconds rights are kept)", async () => {
    const grant = signGrant(setId, { kind: "u", userId: world.users.individual.id }, 600);
    expect((await get(`/media/${setId}/${grant}/progressive.mp4`, { headers: { Range: "bytes=0-9" } })).status).toBe(206);
    await prisma.subscription.updateMany({ where: { userId: world.users.individual.id }, data: { status: "expired", endDate: new Date(Date.now() - 1000) } });
    expect((await get(`/media/${setId}/${grant}/progressive.mp4`, { headers: { Range: "bytes=0-9" } })).status).toBe(403);
    expect((await get(`/media/${setId}/${grant}/download.webm`)).status).toBe(403);
  });

  it("an embed's licence grant opens what the player plays (never the downloads), and only while the licence is active", async () => {
    const licence = await prisma.subscription.findFirstOrThrow({ where: { userId: world.users.categoryLicence.id } });
    const grant = signGrant(setId, { kind: "l", licenceId: licence.id, host: "clinic.example" }, 600);
    expect((await get(`/media/${setId}/${grant}/progressive.mp4`, { headers: { Range: "bytes=0-" } })).status).toBe(206);
    expect((await get(`/media/${setId}/${grant}/download.mp4`)).status).toBe(403);
    expect((await get(`/media/${setId}/${grant}/hls/master.m3u8`)).status).toBe(200);
    // The progressive MP4's start is the counted play; the ladder's playlists are not.
    const plays = await prisma.embedPlay.findFirst({ where: { subscriptionId: licence.id, host: "clinic.example" } });
    expect(plays?.plays).toBe(1);
    // An expired grant is refused whatever the licence.
    const stale = signGrant(setId, { kind: "l", licenceId: licence.id, host: "clinic.example" }, 600, Date.now() - 601_000);
    expect((await get(`/media/${setId}/${stale}/hls/master.m3u8`)).status).toBe(403);
    await prisma.subscription.update({ where: { id: licence.id }, data: { status: "canceled" } });
    expect((await get(`/media/${setId}/${grant}/progressive.mp4`)).status).toBe(403);
  });

  it("names outside a set are not files: traversal and hidden names answer 404", async () => {
    for (const file of ["..%2F..%2Fsecrets", ".done/hls", "hls/../../x", "a/b/c/d.m4s"]) {
      expect([403, 404]).toContain((await get(`/media/${setId}/public/${file}`)).status);
    }
    expect((await get(`/media/not-a-set/public/preview.mp4`)).status).toBe(404);
    expect((await get(`/media/00000000-0000-4000-8000-000000000000/public/preview.mp4`)).status).toBe(404);
  });
});
