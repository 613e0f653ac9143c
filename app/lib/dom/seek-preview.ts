import { formatDuration } from "~/lib/format.ts";
import { parseStoryboardVtt, type StoryboardFrame, storyboardFrameAt } from "~/lib/storyboard-vtt.ts";

// Lingers after `seeked`, so a thumbnail is seen even when the target was already buffered
// (the seek then ends within a frame).
const HIDE_AFTER_SEEK_MS = 900;
// Seeks shorter than this are the player's own (see onSeeking), not the viewer's.
const MIN_SEEK_SECONDS = 1;

/**
 * While `media` seeks, `thumb` (hidden until then; a picture <div> and a time <span>, rendered by
 * components/catalogue/video-player.tsx) shows the storyboard's thumbnail of the target time, with
 * the time, roughly where that time sits on the timeline. The storyboard is fetched once the
 * first frame is up (or at a seek before that): a page view costs no storyboard bytes, and the
 * sprite never competes with the first segments on a slow line. Returns the function that stops.
 */
export function showSeekThumbnails(media: HTMLVideoElement, storyboard: string, thumb: HTMLElement) {
  const picture = thumb.querySelector("div");
  const label = thumb.querySelector("span");
  const controller = new AbortController();
  const base = new URL(storyboard, window.location.href).href;
  let frames: StoryboardFrame[] = [];
  let requested = false;
  const load = () => {
    if (requested) return;
    requested = true;
    fetch(base, { signal: controller.signal, credentials: "same-origin" })
      .then((response) => (response.ok ? response.text() : ""))
      .then((text) => {
        frames = parseStoryboardVtt(text, base);
        const first = frames[0];
        if (first) new Image().src = first.image;
        // The seek that asked for the storyboard gets its thumbnail now.
        if (media.seeking) show();
      })
      // No storyboard: seeking works as it did, without thumbnails.
      .catch(() => undefined);
  };

  let hideTimer: ReturnType<typeof setTimeout> | undefined;
  // Where the viewer was before a seek: the last position the video reported.
  let position = media.currentTime;
  const show = () => {
    const frame = storyboardFrameAt(frames, media.currentTime);
    if (!frame || !picture || !label) return;
    const duration = Number.isFinite(media.duration) && media.duration > 0 ? media.duration : null;
    const fraction = duration ? Math.min(1, media.currentTime / duration) : 0.5;
    const half = frame.width / 2;
    // Centred on the target's place along the timeline, kept inside the video's edges.
    thumb.style.left = `clamp(${half + 8}px, ${fraction * 100}%, calc(100% - ${half + 8}px))`;
    Object.assign(picture.style, {
      width: `${frame.width}px`,
      height: `${frame.height}px`,
      backgroundImage: `url("${frame.image}")`,
      backgroundPosition: `-${frame.x}px -${frame.y}px`,
    });
    label.textContent = formatDuration(media.currentTime);
    thumb.hidden = false;
  };
  const onSeeking = () => {
    // hls.js itself seeks by a fraction of a second to step over a gap in the buffer (the first
    // frame is rarely at 0): not the viewer's seek, and nothing a thumbnail would show.
    if (Math.abs(media.currentTime - position) < MIN_SEEK_SECONDS) return;
    clearTimeout(hideTimer);
    load();
    show();
  };
  const onSeeked = () => {
    position = media.currentTime;
    clearTimeout(hideTimer);
    hideTimer = setTimeout(() => (thumb.hidden = true), HIDE_AFTER_SEEK_MS);
  };
  const onTimeUpdate = () => {
    if (!media.seeking) position = media.currentTime;
  };
  media.addEventListener("playing", load, { once: true });
  media.addEventListener("seeking", onSeeking);
  media.addEventListener("seeked", onSeeked);
  media.addEventListener("timeupdate", onTimeUpdate);
  return () => {
    controller.abort();
    clearTimeout(hideTimer);
    thumb.hidden = true;
    media.removeEventListener("playing", load);
    media.removeEventListener("seeking", onSeeking);
    media.removeEventListener("seeked", onSeeked);
    media.removeEventListener("timeupdate", onTimeUpdate);
  };
}
