// Slow operations are reported to /api/performance/* (failures ignored, never retried): a page
// load over 3000 ms, a video load over 2000 ms. One listener serves every player (a <video
// data-video-id>), so no page carries reporting code of its own. Plain DOM code: the root's
// PerformanceReporter runs it on pages that hydrate, the static page script on those that do not.
const SLOW_PAGE_LOAD_MS = 3000;
const SLOW_VIDEO_LOAD_MS = 2000;

function report(kind: "page-load" | "video-load", body: Record<string, unknown>) {
  try {
    const payload = JSON.stringify({ ...body, url: location.href, userAgent: navigator.userAgent });
    if (!navigator.sendBeacon?.(`/api/performance/${kind}`, payload)) {
      void fetch(`/api/performance/${kind}`, { method: "POST", body: payload, keepalive: true }).catch(() => {});
    }
  } catch {
    // Reporting must never break the page.
  }
}

/** Watches the first page load and every video's; returns the function that stops watching videos. */
export function watchPerformance() {
  // The first page load, once the browser has finished it.
  function measure() {
    const [nav] = performance.getEntriesByType("navigation") as PerformanceNavigationTiming[];
    if (!nav || nav.loadEventEnd < SLOW_PAGE_LOAD_MS) return;
    const paint = (name: string) => performance.getEntriesByName(name)[0]?.startTime ?? null;
    report("page-load", {
      pageLoad: Math.round(nav.loadEventEnd),
      domContentLoaded: Math.round(nav.domContentLoadedEventEnd),
      firstPaint: paint("first-paint"),
      firstContentfulPaint: paint("first-contentful-paint"),
    });
  }
  if (document.readyState === "complete") setTimeout(measure, 0);
  else window.addEventListener("load", () => setTimeout(measure, 0), { once: true });

  // A video's load: the wait a viewer sees from pressing play on a video not ready to play
  // to its first frame. Media events do not bubble: listen in the capture phase.
  const waiting = new WeakMap<EventTarget, number>();
  const onPlay = (event: Event) => {
    const video = event.target as HTMLVideoElement;
    // readyState 3 is HAVE_FUTURE_DATA: below it, the viewer waits.
    if (video.dataset?.videoId && video.readyState < 3) waiting.set(video, performance.now());
  };
  const onPlaying = (event: Event) => {
    const video = event.target as HTMLVideoElement;
    const started = waiting.get(video);
    if (started === undefined) return;
    waiting.delete(video);
    const loadTime = Math.round(performance.now() - started);
    if (loadTime > SLOW_VIDEO_LOAD_MS) report("video-load", { videoId: video.dataset.videoId, loadTime });
  };
  document.addEventListener("play", onPlay, true);
  document.addEventListener("playing", onPlaying, true);
  return () => {
    document.removeEventListener("play", onPlay, true);
    document.removeEventListener("playing", onPlaying, true);
  };
}
