import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { trackPlayback } from "~/lib/dom/playback-beacons.ts";

// The player's beacons with a fake video: no request while it plays between quartiles, one
// batch per quartile, what is left when the page is hidden, and a new play id per playback.

class FakeVideo extends EventTarget {
  currentTime = 0;
  duration = 100;
  at(time: number) {
    this.currentTime = time;
    this.dispatchEvent(new Event("timeupdate"));
  }
  fire(type: string) {
    this.dispatchEvent(new Event(type));
  }
}

type Batch = { token: string; events: { play: string; kind: string; fraction: number }[] };
let sent: Batch[];
let doc: EventTarget & { visibilityState: string };

beforeEach(() => {
  sent = [];
  doc = Object.assign(new EventTarget(), { visibilityState: "visible" });
  vi.stubGlobal("window", new EventTarget());
  vi.stubGlobal("document", doc);
  vi.stubGlobal("navigator", {
    sendBeacon: (_url: string, blob: Blob) => {
      void blob.text().then((text) => sent.push(JSON.parse(text) as Batch));
      return true;
    },
  });
});

afterEach(() => {
  vi.unstubAllGlobals();
});

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));
const kinds = () => sent.map((batch) => batch.events.map((e) => e.kind));

describe("trackPlayback", () => {
  it("sends nothing between quartiles, one batch at each, and the end", async () => {
    const video = new FakeVideo();
    trackPlayback(video as unknown as HTMLVideoElement, "tok");
    video.fire("play");
    for (let t = 1; t < 25; t++) video.at(t);
    await settle();
    expect(sent).toEqual([]);
    video.at(25);
    video.at(30);
    video.at(50);
    video.at(99.9); // within a quarter-second of the end: the end
    await settle();
    expect(kinds()).toEqual([["play", "q25"], ["q50"], ["q75", "q100"]]);
    expect(sent[0]!.token).toBe("tok");
    expect(new Set(sent.flatMap((b) => b.events.map((e) => e.play))).size).toBe(1);
    expect(sent.at(-1)!.events.at(-1)!.fraction).toBe(1);
  });

  it("sends how far the viewer got when the page is hidden, and a new playback after the end gets a new id", async () => {
    const video = new FakeVideo();
    trackPlayback(video as unknown as HTMLVideoElement, "tok");
    video.fire("play");
    video.at(10);
    doc.visibilityState = "hidden";
    doc.dispatchEvent(new Event("visibilitychange"));
    await settle();
    expect(sent).toHaveLength(1);
    expect(sent[0]!.events).toMatchObject([
      { kind: "play", fraction: 0 },
      { kind: "progress", fraction: 0.1 },
    ]);
    video.at(100);
    video.fire("ended");
    video.fire("play");
    window.dispatchEvent(new Event("pagehide"));
    await settle();
    const plays = sent.flatMap((b) => b.events.filter((e) => e.kind === "play").map((e) => e.play));
    expect(plays).toHaveLength(2);
    expect(plays[0]).not.toBe(plays[1]);
  });

  it("stops listening when stopped, sending what is left", async () => {
    const video = new FakeVideo();
    const stop = trackPlayback(video as unknown as HTMLVideoElement, "tok");
    video.fire("play");
    stop();
    video.at(60);
    await settle();
    expect(kinds()).toEqual([["play"]]);
  });
});
