import { type RefObject, useEffect, useRef, useState } from "react";
import { formatDuration } from "~/lib/format.ts";
import { parseStoryboardVtt, type StoryboardFrame, storyboardFrameAt } from "~/lib/storyboard-vtt.ts";

// Lingers after `seeked`, so a thumbnail is seen even when the target was already buffered
// (the seek then ends within a frame).
const HIDE_AFTER_SEEK_MS = 900;
// Seeks shorter than this are the player's own (see onSeeking), not the viewer's.
const MIN_SEEK_SECONDS = 1;

type Shown = { frame: StoryboardFrame; time: number; fraction: number };

/**
 * While the video seeks, the storyboard's thumbnail of the target time, with the time, over the
 * video near its bottom (above the native controls), roughly where the time sits on the
 * timeline. Decorative: the controls announce the time themselves. Renders nothing without a
 * storyboard, before hydration, or when the VTT cannot be read.
 */
export function SeekPreview({ video, storyboard }: { video: RefObject<HTMLVideoElement | null>; storyboard: string | null }) {
  const [shown, setShown] = useState<Shown | null>(null);
  const frames = useRef<StoryboardFrame[]>([]);

  useEffect(() => {
    const media = video.current;
    if (!media || !storyboard) return;
    const controller = new AbortController();
    const base = new URL(storyboard, window.location.href).href;
    let requested = false;
    // Fetched once the first frame is up (or at a seek before that): a page view costs no
    // storyboard bytes, and the sprite never competes with the first segments on a slow line.
    const load = () => {
      if (requested) return;
      requested = true;
      fetch(base, { signal: controller.signal, credentials: "same-origin" })
        .then((response) => (response.ok ? response.text() : ""))
        .then((text) => {
          frames.current = parseStoryboardVtt(text, base);
          const first = frames.current[0];
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
      const frame = storyboardFrameAt(frames.current, media.currentTime);
      if (!frame) return;
      const duration = Number.isFinite(media.duration) && media.duration > 0 ? media.duration : null;
      setShown({ frame, time: media.currentTime, fraction: duration ? Math.min(1, media.currentTime / duration) : 0.5 });
    };
    const onSeeking = () => {
      // hls.js itself seeks by a fraction of a second to step over a gap in the buffer (the
      // first frame is rarely at 0): not the viewer's seek, and nothing a thumbnail would show.
      if (Math.abs(media.currentTime - position) < MIN_SEEK_SECONDS) return;
      clearTimeout(hideTimer);
      load();
      show();
    };
    const onSeeked = () => {
      position = media.currentTime;
      clearTimeout(hideTimer);
      hideTimer = setTimeout(() => setShown(null), HIDE_AFTER_SEEK_MS);
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
      media.removeEventListener("playing", load);
      media.removeEventListener("seeking", onSeeking);
      media.removeEventListener("seeked", onSeeked);
      media.removeEventListener("timeupdate", onTimeUpdate);
    };
  }, [video, storyboard]);

  if (!shown) return null;
  const { frame, time, fraction } = shown;
  const half = frame.width / 2;
  return (
    <div
      aria-hidden="true"
      data-testid="storyboard-thumb"
      className="pointer-events-none absolute bottom-16 -translate-x-1/2 overflow-hidden rounded-md border-2 border-white bg-black shadow-lg"
      // Centred on the target's place along the timeline, kept inside the video's edges.
      style={{ left: `clamp(${half + 8}px, ${fraction * 100}%, calc(100% - ${half + 8}px))` }}
    >
      <div
        style={{
          width: frame.width,
          height: frame.height,
          backgroundImage: `url("${frame.image}")`,
          backgroundPosition: `-${frame.x}px -${frame.y}px`,
          backgroundRepeat: "no-repeat",
        }}
      />
      <span className="absolute right-0 bottom-0 left-0 bg-black/70 text-center text-xs font-semibold text-white tabular-nums">{formatDuration(time)}</span>
    </div>
  );
}
