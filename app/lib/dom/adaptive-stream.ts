import type Hls from "hls.js/light";

// The server renders the progressive MP4 in <video src>, so the video plays without
// JavaScript. With it, a full video moves to its HLS ladder:
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

/** A rung of the quality menu: hls.js's level and its picture height. */
export type Rung = { level: number; height: number };

export type Ladder = { hls: string; mp4: string };

export type LadderPlayer = {
  /** -1 hands the choice back to the bandwidth estimate; a rung switches at once (buffer flushed). */
  chooseLevel: (level: number) => void;
  stop: () => void;
};

function hasMediaSource() {
  return "MediaSource" in window || "ManagedMediaSource" in window;
}

/** Where the viewer is, to carry over to the new source: the MP4 may have started before the script ran. */
function positionOf(video: HTMLVideoElement) {
  return { time: video.currentTime, playing: !video.paused && !video.ended };
}

function resume(video: HTMLVideoElement, playing: boolean) {
  // A browser may refuse to play without a gesture (the viewer pressed play on the MP4, not here).
  if (playing) void video.play().catch(() => undefined);
}

/** Moves a <video> to `src` without losing the viewer's place. */
function switchSource(video: HTMLVideoElement, src: string) {
  const { time, playing } = positionOf(video);
  video.src = src;
  if (time > 0) video.addEventListener("loadedmetadata", () => (video.currentTime = time), { once: true });
  resume(video, playing);
}

/**
 * Plays `ladder` in `media` (whose src is the ladder's MP4). `onRungs` hears the rungs hls.js
 * can be steered to, highest first, once it has read the master playlist, and an empty list if
 * it gives up and the MP4 plays again (native HLS cannot be steered: it never hears any).
 */
export function playLadder(media: HTMLVideoElement, ladder: Ladder, onRungs: (rungs: Rung[]) => void): LadderPlayer {
  let stopped = false;
  let player: Hls | null = null;
  const cleanups: (() => void)[] = [];
  const stop = () => {
    stopped = true;
    for (const cleanup of cleanups) cleanup();
    player?.destroy();
    player = null;
  };
  const chooseLevel = (level: number) => {
    if (player) player.currentLevel = level;
  };
  if (!hasMediaSource()) {
    if (media.canPlayType(HLS_TYPE)) switchSource(media, ladder.hls);
    return { chooseLevel, stop };
  }
  import("hls.js/light")
    .then(({ default: HlsPlayer }) => {
      if (stopped) return;
      if (!HlsPlayer.isSupported()) {
        // Media Source without the codecs hls.js needs: the browser's own HLS, if it has one.
        if (media.canPlayType(HLS_TYPE)) switchSource(media, ladder.hls);
        return;
      }
      const { time, playing } = positionOf(media);
      const hls = new HlsPlayer({
        // A worker would need the CSP's worker-src (blob:); transmuxing is not needed for fMP4
        // segments anyway, so the main thread loses nothing.
        enableWorker: false,
        // The lowest rung first, so the first frame comes fast on a slow line; the bandwidth
        // estimate of the first segments then picks the rung (Auto).
        startLevel: 0,
        startPosition: time > 0 ? time : -1,
        // No segment is fetched until the viewer plays or seeks, as the MP4's preload did.
        autoStartLoad: playing,
      });
      player = hls;
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
        onRungs(data.levels.map((rung, level) => ({ level, height: rung.height })).sort((a, b) => b.height - a.height));
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
        player = null;
        onRungs([]);
        media.src = ladder.mp4;
        if (at > 0) media.addEventListener("loadedmetadata", () => (media.currentTime = at), { once: true });
        resume(media, wasPlaying);
      });
      hls.loadSource(ladder.hls);
      hls.attachMedia(media);
    })
    // The chunk did not arrive (offline, a new deploy): the MP4 is still there and playing.
    .catch(() => undefined);
  return { chooseLevel, stop };
}
