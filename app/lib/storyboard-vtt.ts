// A storyboard is a WebVTT file whose cues name a region of a sprite image
// (`sprite.jpg#xywh=x,y,w,h`, the media-fragment form players such as Video.js and JW Player
// read). This reads one into frames a player can show while the viewer seeks. Browser-safe.

import { hasWebVttHeader } from "./vtt.ts";

export type StoryboardFrame = {
  start: number;
  end: number;
  /** The sprite, resolved against the VTT's own address (cue URLs are relative to it). */
  image: string;
  x: number;
  y: number;
  width: number;
  height: number;
};

// hh:mm:ss.ttt or mm:ss.ttt (WebVTT allows the hours to be left out).
const TIMESTAMP = /^(?:(\d+):)?([0-5]\d):([0-5]\d)\.(\d{3})$/;
const XYWH = /#xywh=(?:pixel:)?(\d+),(\d+),(\d+),(\d+)$/;

function seconds(stamp: string): number | null {
  const match = TIMESTAMP.exec(stamp);
  if (!match) return null;
  const [, hours, minutes, secs, millis] = match;
  return Number(hours ?? 0) * 3600 + Number(minutes) * 60 + Number(secs) + Number(millis) / 1000;
}

/**
 * The frames of a storyboard VTT, in time order. `base` is the VTT's absolute URL. Anything that
 * is not a well-formed image cue is skipped rather than thrown on: a missing thumbnail only
 * costs the seek preview, never playback.
 */
export function parseStoryboardVtt(text: string, base: string): StoryboardFrame[] {
  if (!hasWebVttHeader(text)) return [];
  const frames: StoryboardFrame[] = [];
  // Blocks are separated by blank lines; the first is the header. A cue id may precede the timing.
  for (const block of text
    .replace(/\r\n?/g, "\n")
    .split(/\n{2,}/)
    .slice(1)) {
    const lines = block
      .split("\n")
      .map((line) => line.trim())
      .filter(Boolean);
    const at = lines.findIndex((line) => line.includes("-->"));
    if (at === -1 || at > 1) continue;
    const [from, to = ""] = lines[at]!.split("-->");
    const start = seconds(from!.trim());
    // Cue settings may follow the end time: legal, though a storyboard has none.
    const end = seconds(to.trim().split(/\s+/)[0] ?? "");
    const payload = lines[at + 1] ?? "";
    const region = XYWH.exec(payload);
    if (start === null || end === null || end <= start || !region) continue;
    let image: string;
    try {
      image = new URL(payload.slice(0, region.index), base).href;
    } catch {
      continue;
    }
    const [x, y, width, height] = region.slice(1).map(Number) as [number, number, number, number];
    if (width === 0 || height === 0) continue;
    frames.push({ start, end, image, x, y, width, height });
  }
  return frames.sort((a, b) => a.start - b.start);
}

/** The frame shown at `time`: the cue covering it, or the nearest one before it (the last past the end). */
export function storyboardFrameAt(frames: StoryboardFrame[], time: number): StoryboardFrame | null {
  let low = 0;
  let high = frames.length - 1;
  let found: StoryboardFrame | null = null;
  while (low <= high) {
    const middle = (low + high) >> 1;
    if (frames[middle]!.start <= time) {
      found = frames[middle]!;
      low = middle + 1;
    } else {
      high = middle - 1;
    }
  }
  return found ?? frames[0] ?? null;
}
