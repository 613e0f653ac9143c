// The player's analytics beacons (issue 46, "What the clinic learns"). While the video plays the
// page makes no request of its own: events wait in a queue and leave in one beacon when a quartile
// is reached, and when the page is hidden or left. Nothing about the viewer is sent: the server
// knows the page by its signed token, and a playback by a random id made here.

export const PLAYBACK_EVENTS_URL = "/api/playback-events";

type Kind = "play" | "q25" | "q50" | "q75" | "q100" | "progress";
type PlaybackEvent = { play: string; kind: Kind; fraction: number };

/** The server takes at most 20 events a batch (validation/playback-analytics.ts). */
const BATCH = 20;
const QUARTILES: [number, Kind][] = [
  [0.25, "q25"],
  [0.5, "q50"],
  [0.75, "q75"],
  [1, "q100"],
];
/** The last quarter-second counts as the end: a player's last timeupdate often falls short of the duration. */
const END_SLACK_SECONDS = 0.25;

function randomId() {
  if (typeof crypto.randomUUID === "function") return crypto.randomUUID();
  // randomUUID needs a secure context; getRandomValues does not.
  const b = crypto.getRandomValues(new Uint8Array(16));
  b[6] = (b[6]! & 0x0f) | 0x40;
  b[8] = (b[8]! & 0x3f) | 0x80;
  const h = [...b].map((x) => x.toString(16).padStart(2, "0")).join("");
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

function send(url: string, body: string) {
  // text/plain: a beacon that needs no CORS preflight, and survives the page being closed.
  if (navigator.sendBeacon?.(url, new Blob([body], { type: "text/plain" }))) return;
  fetch(url, { method: "POST", body, keepalive: true, headers: { "Content-Type": "text/plain" } }).catch(() => {});
}

/** Reports one video's playbacks under the page's token; returns the function that stops it (and sends what is left). */
export function trackPlayback(video: HTMLVideoElement, token: string, url = PLAYBACK_EVENTS_URL): () => void {
  let play: string | null = null;
  let furthest = 0;
  let reached = 0; // quartiles already queued for this playback
  let reported = 0; // the fraction the server last heard
  let queue: PlaybackEvent[] = [];

  const fraction = () => {
    const duration = video.duration;
    if (!Number.isFinite(duration) || duration <= 0) return 0;
    return furthest >= duration - END_SLACK_SECONDS ? 1 : Math.min(1, furthest / duration);
  };

  const flush = () => {
    while (queue.length) {
      const events = queue.slice(0, BATCH);
      queue = queue.slice(BATCH);
      reported = Math.max(reported, ...events.map((e) => e.fraction));
      send(url, JSON.stringify({ token, events }));
    }
  };

  const enqueue = (kind: Kind) => {
    if (play) queue.push({ play, kind, fraction: Math.round(fraction() * 10_000) / 10_000 });
  };

  const advance = () => {
    if (!play) return;
    furthest = Math.max(furthest, video.currentTime || 0);
    const now = fraction();
    let crossed = false;
    while (reached < QUARTILES.length && now >= QUARTILES[reached]![0]) {
      enqueue(QUARTILES[reached]![1]);
      reached++;
      crossed = true;
    }
    if (crossed) flush();
  };

  const onPlay = () => {
    if (play) return; // a resume, not a new playback
    play = randomId();
    furthest = video.currentTime || 0;
    reached = 0;
    reported = 0;
    enqueue("play");
  };

  const onEnded = () => {
    furthest = Math.max(furthest, video.duration || 0);
    advance();
    flush();
    play = null; // playing again is a new playback
  };

  const onLeave = () => {
    if (play && fraction() > reported) enqueue("progress");
    flush();
  };
  const onVisibility = () => {
    if (document.visibilityState === "hidden") onLeave();
  };
  // A new source is a new video.
  const onEmptied = () => {
    onLeave();
    play = null;
  };

  video.addEventListener("play", onPlay);
  video.addEventListener("timeupdate", advance);
  video.addEventListener("ended", onEnded);
  video.addEventListener("emptied", onEmptied);
  window.addEventListener("pagehide", onLeave);
  document.addEventListener("visibilitychange", onVisibility);

  return () => {
    video.removeEventListener("play", onPlay);
    video.removeEventListener("timeupdate", advance);
    video.removeEventListener("ended", onEnded);
    video.removeEventListener("emptied", onEmptied);
    window.removeEventListener("pagehide", onLeave);
    document.removeEventListener("visibilitychange", onVisibility);
    onLeave();
  };
}
