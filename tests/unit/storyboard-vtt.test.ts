import { describe, expect, it } from "vitest";
import { parseStoryboardVtt, storyboardFrameAt } from "~/lib/storyboard-vtt.ts";

const BASE = "https://medanim.test/media/set-1/grant-abc/storyboard.vtt";

const STORYBOARD = [
  "WEBVTT",
  "",
  "00:00:00.000 --> 00:00:02.000",
  "storyboard.jpg#xywh=0,0,160,90",
  "",
  "00:00:02.000 --> 00:00:04.000",
  "storyboard.jpg#xywh=160,0,160,90",
  "",
  "00:00:04.000 --> 00:00:06.500",
  "storyboard.jpg#xywh=0,90,160,90",
  "",
].join("\n");

describe("parseStoryboardVtt", () => {
  it("reads each cue's time range and sprite region, resolving the sprite against the VTT", () => {
    expect(parseStoryboardVtt(STORYBOARD, BASE)).toEqual([
      { start: 0, end: 2, image: "https://medanim.test/media/set-1/grant-abc/storyboard.jpg", x: 0, y: 0, width: 160, height: 90 },
      { start: 2, end: 4, image: "https://medanim.test/media/set-1/grant-abc/storyboard.jpg", x: 160, y: 0, width: 160, height: 90 },
      { start: 4, end: 6.5, image: "https://medanim.test/media/set-1/grant-abc/storyboard.jpg", x: 0, y: 90, width: 160, height: 90 },
    ]);
  });

  it("takes CRLF line ends, a BOM, cue ids, hour-less stamps, cue settings and the pixel: unit", () => {
    const text = "\uFEFFWEBVTT - storyboard\r\n\r\nthumb-1\r\n01:05.250 --> 01:07.000 align:start\r\nsprites/b.jpg#xywh=pixel:320,180,160,90\r\n";
    expect(parseStoryboardVtt(text, BASE)).toEqual([
      { start: 65.25, end: 67, image: "https://medanim.test/media/set-1/grant-abc/sprites/b.jpg", x: 320, y: 180, width: 160, height: 90 },
    ]);
  });

  it("keeps an absolute sprite URL and sorts cues by start", () => {
    const text =
      "WEBVTT\n\n00:00:10.000 --> 00:00:20.000\nhttps://cdn.test/a.jpg#xywh=1,2,3,4\n\n00:00:00.000 --> 00:00:10.000\nhttps://cdn.test/a.jpg#xywh=0,0,3,4\n";
    expect(parseStoryboardVtt(text, BASE).map((f) => [f.start, f.image, f.x])).toEqual([
      [0, "https://cdn.test/a.jpg", 0],
      [10, "https://cdn.test/a.jpg", 1],
    ]);
  });

  it.each([
    ["not WebVTT", "1\n00:00:00,000 --> 00:00:01,000\nstoryboard.jpg#xywh=0,0,1,1\n"],
    ["a caption cue, not an image region", "WEBVTT\n\n00:00.000 --> 00:01.000\nHello\n"],
    ["a zero-sized region", "WEBVTT\n\n00:00.000 --> 00:01.000\na.jpg#xywh=0,0,0,90\n"],
    ["an end before its start", "WEBVTT\n\n00:02.000 --> 00:01.000\na.jpg#xywh=0,0,160,90\n"],
    ["a malformed stamp", "WEBVTT\n\n0:00 --> 00:01.000\na.jpg#xywh=0,0,160,90\n"],
    ["a NOTE block", "WEBVTT\n\nNOTE made by ffmpeg\nfrom the 360p rung\n"],
    ["an empty file", ""],
  ])("skips %s", (_name, text) => {
    expect(parseStoryboardVtt(text, BASE)).toEqual([]);
  });
});

describe("storyboardFrameAt", () => {
  const frames = parseStoryboardVtt(STORYBOARD, BASE);

  it.each([
    [0, 0],
    [1.99, 0],
    [2, 160],
    [5, 0],
    // Past the last cue (a duration rounded up): the last frame, not nothing.
    [60, 0],
  ])("at %s s shows the frame at x=%s", (time, x) => {
    expect(storyboardFrameAt(frames, time)?.x).toBe(x);
  });

  it("picks the right cue by start as well as by region", () => {
    expect(storyboardFrameAt(frames, 4.2)).toMatchObject({ start: 4, y: 90 });
    expect(storyboardFrameAt(frames, 3)).toMatchObject({ start: 2, y: 0 });
  });

  it("is null without frames", () => {
    expect(storyboardFrameAt([], 3)).toBeNull();
  });
});
