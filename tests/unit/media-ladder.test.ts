import { describe, expect, it } from "vitest";
import { chooseRungs, DEFAULT_LADDER, parseLadder, previewRung, storyboardPlan } from "~/lib/media-ladder.ts";
import { storyboardVtt } from "~/services/media/transcode.server.ts";

// The ladder's rules without ffmpeg (the pipeline itself is tests/integration/media-pipeline.test.ts).

describe("chooseRungs", () => {
  it("never goes above the master: a 4K master gets every rung, a 1080p one stops at 1080p", () => {
    expect(chooseRungs({ width: 3840, height: 2160 }).map((r) => r.name)).toEqual(["360p", "540p", "720p", "1080p", "1440p", "2160p"]);
    expect(chooseRungs({ width: 1920, height: 1080 }).map((r) => [r.width, r.height])).toEqual([
      [640, 360],
      [960, 540],
      [1280, 720],
      [1920, 1080],
    ]);
    expect(chooseRungs({ width: 1280, height: 1000 }).map((r) => r.name)).toEqual(["360p", "540p", "720p"]);
  });

  it("a master below the first rung gets one rung at its own size, its bitrate scaled by pixels", () => {
    const [rung, ...rest] = chooseRungs({ width: 480, height: 270 });
    expect(rest).toEqual([]);
    expect(rung).toMatchObject({ name: "270p", width: 480, height: 270 });
    expect(rung!.videoKbps).toBeLessThan(800);
    expect(rung!.videoKbps).toBeGreaterThanOrEqual(150);
  });

  it("a portrait master is measured by its shorter side and keeps its shape", () => {
    expect(chooseRungs({ width: 1080, height: 1920 }).map((r) => [r.width, r.height])).toEqual([
      [360, 640],
      [540, 960],
      [720, 1280],
      [1080, 1920],
    ]);
  });

  it("widths are even, as H.264 in 4:2:0 needs", () => {
    for (const rung of chooseRungs({ width: 1998, height: 1080 })) expect(rung.width % 2).toBe(0);
  });

  it("the preview and the progressive MP4 come from 720p, or the largest rung below it", () => {
    expect(previewRung(chooseRungs({ width: 3840, height: 2160 })).name).toBe("720p");
    expect(previewRung(chooseRungs({ width: 960, height: 540 })).name).toBe("540p");
  });
});

describe("parseLadder (MEDIA_LADDER)", () => {
  it("reads height:kbit/s rungs, sorted", () => {
    expect(parseLadder("720:2800, 360:800")).toEqual([
      { height: 360, videoKbps: 800 },
      { height: 720, videoKbps: 2800 },
    ]);
  });

  it("refuses malformed, odd, duplicate or empty ladders", () => {
    for (const bad of ["", "720", "721:2800", "720:2800,720:3000", "abc:1", "99:100"]) expect(parseLadder(bad)).toBeNull();
  });

  it("the default ladder starts low enough for a 1.6 Mbit/s phone line (with 128 kbit/s of sound)", () => {
    expect(DEFAULT_LADDER[0]!.videoKbps + 128).toBeLessThan(1600 * 0.75);
  });
});

describe("the storyboard", () => {
  it("a thumbnail every 2 s for short videos, at most 100 for long ones, 10 a row", () => {
    expect(storyboardPlan(12, { width: 640, height: 360 })).toMatchObject({ interval: 2, count: 6, columns: 6, rows: 1, width: 160, height: 90 });
    const long = storyboardPlan(3600, { width: 1920, height: 1080 });
    expect(long.count).toBeLessThanOrEqual(100);
    expect(long).toMatchObject({ interval: 36, columns: 10, rows: 10 });
  });

  it("maps each time range to its tile", () => {
    const vtt = storyboardVtt(storyboardPlan(25, { width: 640, height: 360 }), 25);
    expect(vtt.startsWith("WEBVTT\n")).toBe(true);
    expect(vtt).toContain("00:00:00.000 --> 00:00:02.000\nstoryboard.jpg#xywh=0,0,160,90");
    expect(vtt).toContain("00:00:20.000 --> 00:00:22.000\nstoryboard.jpg#xywh=0,90,160,90");
    expect(vtt).toContain("00:00:24.000 --> 00:00:25.000\nstoryboard.jpg#xywh=320,90,160,90");
  });
});
