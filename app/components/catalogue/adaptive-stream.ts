import { type RefObject, useCallback, useEffect, useRef, useState } from "react";
import type Hls from "hls.js/light";
import type { PlaybackDto } from "~/services/catalogue/types.ts";

// The server renders the progressive MP4 in <video src>, so the video plays without
// JavaScript. Once hydrated, a full video moves to its HLS ladder:
// - where Media Source Extensions exist, through hls.js, which starts on the lowest rung, adapts
//   afterwards and can be steered (the quality menu). It is preferred to the browser's own HLS
//   wherever both exist: Chromium answers canPlayType(HLS) with "maybe" too (156, measured
//   here), and its native HLS could neither start low nor offer a choice of rung;
// - where they do not (iPhones before iOS 17.1), through the browser's own HLS;
// - elsewhere it stays on the MP4.
// hls.js is imported on demand: it is its own chunk, fetched only by a page playing a full video
// in a browser that needs it, never by the home page. The light build (no alternate audio,
// subtitles, DRM or CMCD: none of which our ladders use) is about two thirds of the full one,
// and it leaves the page's own caption <track>s alone.

const HLS_TYPE = "application/vnd.apple.mpegurl";

export type Rung = { level: number; height: number };

export type AdaptiveStream = {
  /** hls.js's levels, highest first; empty unless hls.js plays (native HLS cannot be steered). */
  rungs: Rung[];
  /** The chosen level, -1 for Auto. */
  level: number;
  chooseLevel: (level: number) => void;
};

function hasMediaSource() {
  return "MediaSource" in window || "ManagedMediaSource" in window;
}

/** Where the viewer is, to carry over to the new source: the MP4 may have started before hydration. */
function positionOf(video: HTMLVideoElement) {
  return { time: video.currentTime, playing: !video.paused && !video.ended };
}

function resume(video: HTMLVideoElement, playing: boolean) {
  // A browser may refuse to play without a gesture (the viewer pressed play on the MP4, not here).
  if (playing) void video.play().catch(() => undefined);
}

/** Moves a <video> to its source without losing the viewer's place. */
function switchSource(video: HTMLVideoElement, src: string) {
  const { time, playing } = positionOf(video);
  video.src = src;
  if (time > 0) video.addEventListener("loadedmetadata", () => (video.currentTime = time), { once: true });
  resume(video, playing);
}

/**
 * Plays `playback`'s HLS ladder in `video` once the page is hydrated (full videos only: a
 * preview keeps its small MP4), and hands back the quality menu's state. The caller renders
 * `<video src={playback.mp4}>` and keeps that src unchanged for the player's life.
 */
export function useAdaptiveStream(video: RefObject<HTMLVideoElement | null>, playback: PlaybackDto | null): AdaptiveStream {
  const [rungs, setRungs] = useState<Rung[]>([]);
  const [level, setLevel] = useState(-1);
  const player = useRef<Hls | null>(null);
  const hlsUrl = playback && !playback.isPreview ? playback.hls : null;
  const mp4Url = playback?.mp4 ?? null;

  useEffect(() => {
    const media = video.current;
    if (!media || !hlsUrl || !mp4Url) return;
    let stopped = false;
    if (!hasMediaSource()) {
      if (media.canPlayType(HLS_TYPE)) switchSource(media, hlsUrl);
      return;
    }
    const cleanups: (() => void)[] = [];
    import("hls.js/light")
      .then(({ default: HlsPlayer }) => {
        if (stopped) return;
        if (!HlsPlayer.isSupported()) {
          // Media Source without the codecs hls.js needs: the browser's own HLS, if it has one.
          if (media.canPlayType(HLS_TYPE)) switchSource(media, hlsUrl);
          return;
        }
        const { time, playing } = positionOf(media);
        const hls = new HlsPlayer({
          // A worker would need the CSP's worker-src (blob:); transmuxing is not needed for
          // fMP4 segments anyway, so the main thread loses nothing.
          enableWorker: false,
          // The lowest rung first, so the first frame comes fast on a slow line; the bandwidth
          // estimate of the first segments then picks the rung (Auto).
          startLevel: 0,
          startPosition: time > 0 ? time : -1,
          // No segment is fetched until the viewer plays or seeks, as the MP4's preload="metadata" did.
          autoStartLoad: playing,
        });
        player.current = hls;
        if (!playing) {
          const stopWaiting = () => {
            media.removeEventListener("play", start);
            media.removeEventListener("seeking", start);
          };
          const start = () => {
            stopWaiting();
            hls.startLoad(media.currentTime > 0 ? media.currentTime : -1);
          };
          media.addEventListener("play", start);
          media.addEventListener("seeking", start);
          cleanups.push(stopWaiting);
        }
        hls.on(HlsPlayer.Events.MANIFEST_PARSED, (_event, data) => {
          setRungs(data.levels.map((rung, index) => ({ level: index, height: rung.height })).sort((a, b) => b.height - a.height));
          resume(media, playing);
        });
        let recovered = false;
        hls.on(HlsPlayer.Events.ERROR, (_event, data) => {
          if (!data.fatal) return;
          // A decoding error is worth one retry with a fresh media buffer; anything else (a
          // playlist refused, a segment gone) means the ladder cannot play here: back to the MP4.
          if (data.type === HlsPlayer.ErrorTypes.MEDIA_ERROR && !recovered) {
            recovered = true;
            hls.recoverMediaError();
            return;
          }
          const { time: at, playing: wasPlaying } = positionOf(media);
          hls.destroy();
          player.current = null;
          setRungs([]);
          setLevel(-1);
          media.src = mp4Url;
          if (at > 0) media.addEventListener("loadedmetadata", () => (media.currentTime = at), { once: true });
          resume(media, wasPlaying);
        });
        hls.loadSource(hlsUrl);
        hls.attachMedia(media);
      })
      // The chunk did not arrive (offline, a new deploy): the MP4 is still there and playing.
      .catch(() => undefined);
    return () => {
      stopped = true;
      for (const cleanup of cleanups) cleanup();
      player.current?.destroy();
      player.current = null;
    };
  }, [video, hlsUrl, mp4Url]);

  const chooseLevel = useCallback((next: number) => {
    const hls = player.current;
    if (!hls) return;
    // -1 hands the choice back to the bandwidth estimate; a rung switches at once (buffer flushed).
    hls.currentLevel = next;
    setLevel(next);
  }, []);

  return { rungs, level, chooseLevel };
}
