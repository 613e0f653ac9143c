import { type RefObject, useEffect, useRef, useState } from "react";
import { formatDuration } from "~/lib/format.ts";
import { parseStoryboardVtt, type StoryboardFrame, storyboardFrameAt } from "~/lib/storyboard-vtt.ts";

// Lingers after `seeked`, so a thumbnail is seen even when the target was already buffered
// (the seek then ends within a frame).
const HIDE_AFTER_SEEK_MS = 900;

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
    fetch(base, { signal: controller.signal, credentials: "same-origin" })
      .then((response) => (response.ok ? response.text() : ""))
      .then((text) => {
        frames.current = parseStoryboardVtt(text, base);
        // The sprite is fetched now, so the first seek shows a picture rather than an empty box.
        const first = frames.current[0];
        if (first) new Image().src = first.image;
      })
      // No storyboard: seeking works as it did, without thumbnails.
      .catch(() => undefined);

    let hideTimer: ReturnType<typeof setTimeout> | undefined;
    const onSeeking = () => {
      clearTimeout(hideTimer);
      const frame = storyboardFrameAt(frames.current, media.currentTime);
      if (!frame) return;
      const duration = Number.isFinite(media.duration) && media.duration > 0 ? media.duration : null;
      setShown({ frame, time: media.currentTime, fraction: duration ? Math.min(1, media.currentTime / duration) : 0.5 });
    };
    const onSeeked = () => {
      clearTimeout(hideTimer);
      hideTimer = setTimeout(() => setShown(null), HIDE_AFTER_SEEK_MS);
    };
    media.addEventListener("seeking", onSeeking);
    media.addEventListener("seeked", onSeeked);
    return () => {
      controller.abort();
      clearTimeout(hideTimer);
      media.removeEventListener("seeking", onSeeking);
      media.removeEventListener("seeked", onSeeked);
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
