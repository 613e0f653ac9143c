import { type ReactNode, useEffect, useRef, useState } from "react";
import { Button } from "~/components/ui/button.tsx";
import { ResponsiveImage } from "~/components/ui/responsive-image.tsx";
import { enhancePlayer } from "~/lib/dom/player.ts";
import { hasRenditions, renditionUrl } from "~/lib/image-renditions.ts";
import type { CaptionTrackDto, PlaybackDto } from "~/services/catalogue/types.ts";

/**
 * The detail page's player. The caller passes the full video only for an entitled viewer and
 * the preview (its first 10 seconds at most) otherwise; with neither it shows the cover and "Preview unavailable"
 * (never a fallback to anything longer). The animation's caption tracks go with either video
 * (the first, English when there is one, on by default). With `offers` (a viewer without access),
 * the preview's end shows them: over the picture from 1280 px, under it where the picture is too
 * small to hold them (a phone's is about 200 px high).
 *
 * With `playback` (the media pipeline's renditions) the server renders its progressive MP4,
 * which plays without JavaScript; with it a full video moves to its HLS ladder, with a quality
 * menu when hls.js plays it and the storyboard's thumbnails while seeking. That behaviour is plain
 * DOM code (lib/dom/player.ts), run by this component's effect where the page hydrates (/watch)
 * and by the page's own script where it does not (the animation page, decision 025). Without
 * `playback` (no finished set yet) `src` plays as it is.
 */
export function VideoPlayer(props: VideoPlayerProps) {
  // A new animation, or the full video after the preview, is a new player: the old one's
  // hls.js, listeners and frozen URLs go with it.
  return <Player key={`${props.videoId}:${props.playback?.isPreview ?? props.isPreview}`} {...props} />;
}

type VideoPlayerProps = {
  /** Slow loads of this video are reported (PerformanceReporter in the root). */
  videoId: string;
  src: string | null;
  /** The pipeline's renditions for this viewer; null until the animation has a finished set. */
  playback?: PlaybackDto | null;
  poster: string | null;
  title: string;
  isPreview: boolean;
  /** How long the preview plays (lib/preview.ts): its badge and its end say so. */
  previewSeconds: number;
  tracks?: CaptionTrackDto[];
  /** Premium and the licences for this animation, offered when the preview ends. */
  offers?: ReactNode;
};

function Player({ videoId, src: fileSrc, playback: latestPlayback = null, poster, title, isPreview, previewSeconds, tracks = [], offers }: VideoPlayerProps) {
  const root = useRef<HTMLDivElement>(null);
  // Signed URLs differ at each load of the page's data: the player keeps those it started with,
  // so a revalidation never swaps the source under a playing video (hls.js owns it by then).
  const [playback] = useState(latestPlayback);
  useEffect(() => (root.current ? enhancePlayer(root.current) : undefined), []);
  const src = playback ? playback.mp4 : fileSrc;
  if (!src) {
    return (
      <div className="relative flex aspect-video items-center justify-center overflow-hidden rounded-xl bg-slate-900">
        {poster ? (
          <ResponsiveImage
            src={poster}
            aspect="16x9"
            widths={[320, 640, 1280]}
            sizes="(min-width: 1024px) 66vw, 100vw"
            alt=""
            priority
            className="absolute inset-0 h-full w-full object-cover opacity-50"
          />
        ) : null}
        <p className="relative rounded-lg bg-black/60 px-4 py-2 font-semibold text-white">{isPreview ? "Preview unavailable" : "Video unavailable"}</p>
      </div>
    );
  }
  const ladder = playback && !playback.isPreview ? playback : null;
  return (
    <div ref={root} className="relative" data-player>
      <div className="relative overflow-hidden rounded-xl bg-black">
        <video
          data-video-id={videoId}
          data-hls={ladder?.hls}
          data-mp4={ladder?.mp4}
          data-storyboard={ladder?.storyboard ?? undefined}
          src={src}
          poster={poster ? posterUrl(poster) : undefined}
          controls
          playsInline
          // A full video moves to its HLS ladder once the script runs: metadata preloaded from the
          // MP4 first cost 600 KB on a throttled phone before the ladder's first ~200 KB segment
          // (bench/playback.ts). Without JavaScript the MP4 loads when play is pressed.
          preload={ladder ? "none" : "metadata"}
          controlsList="nodownload"
          className="aspect-video w-full"
          aria-label={isPreview ? `Preview of ${title}` : title}
          data-testid="animation-video"
        >
          <CaptionTracks tracks={tracks} />
          Your browser does not play this video.
        </video>
        {isPreview ? (
          <span className="pointer-events-none absolute top-3 left-3 rounded-full bg-black/70 px-3 py-1 text-xs font-semibold text-white">
            {`${previewSeconds}-second preview`}
          </span>
        ) : null}
        {ladder?.storyboard ? <SeekThumbnail /> : null}
        {ladder ? <QualityMenu /> : null}
      </div>
      {offers ? <PreviewEnd seconds={previewSeconds}>{offers}</PreviewEnd> : null}
    </div>
  );
}

/**
 * While the video seeks, the storyboard's thumbnail of the target time, with the time, over the
 * video near its bottom (above the native controls); lib/dom/seek-preview.ts fills and places it.
 * Decorative: the controls announce the time themselves.
 */
function SeekThumbnail() {
  return (
    <div
      hidden
      aria-hidden="true"
      data-storyboard-thumb
      data-testid="storyboard-thumb"
      className="pointer-events-none absolute bottom-16 -translate-x-1/2 overflow-hidden rounded-md border-2 border-white bg-black shadow-lg"
    >
      <div className="bg-no-repeat" />
      <span className="absolute right-0 bottom-0 left-0 bg-black/70 text-center text-xs font-semibold text-white tabular-nums" />
    </div>
  );
}

/**
 * Auto, then the ladder's rungs, highest first (lib/dom/player.ts adds them). Over the picture's
 * top corner, so it takes no room from the page when it appears (after hls.js has read the
 * ladder); only while hls.js plays, since the browser's own HLS cannot be steered.
 */
function QualityMenu() {
  return (
    <label
      hidden
      data-quality
      className="absolute top-3 right-3 flex items-center gap-1.5 rounded-full bg-black/70 py-1 pr-2 pl-3 text-xs font-semibold text-white"
    >
      Quality
      <select
        defaultValue="-1"
        className="rounded bg-transparent font-semibold text-white focus-visible:outline-2 focus-visible:outline-white [&>option]:text-slate-900"
      >
        <option value="-1">Auto</option>
      </select>
    </label>
  );
}

/** The preview's end, hidden until the preview ends (lib/dom/player.ts): focus moves to it then. */
function PreviewEnd({ seconds, children }: { seconds: number; children: ReactNode }) {
  return (
    <div hidden data-preview-end className="mt-3 xl:absolute xl:inset-0 xl:mt-0 xl:flex xl:overflow-y-auto xl:rounded-xl xl:bg-black/70 xl:p-4">
      {/* A group, not a region: the page's own offers are the region of this name. */}
      <div
        role="group"
        tabIndex={-1}
        aria-labelledby="preview-end-title"
        className="rounded-xl border border-slate-200 bg-white p-4 shadow-sm xl:m-auto xl:w-full xl:max-w-md"
        data-testid="preview-end"
      >
        <h2 id="preview-end-title" className="text-lg font-semibold">
          Unlock the Full Animation
        </h2>
        <p className="mt-1 text-sm text-slate-600">{`The ${seconds}-second preview has ended. Premium members stream every animation in full.`}</p>
        {children}
        <Button variant="ghost" className="mt-2 w-full" data-replay>
          Replay preview
        </Button>
      </div>
    </div>
  );
}

/** <track> elements for a <video>: the first is the default. Shared with the /watch player. */
export function CaptionTracks({ tracks }: { tracks: CaptionTrackDto[] }) {
  return tracks.map((track, index) => (
    <track key={track.language} kind="captions" srcLang={track.language} label={track.label} src={track.src} default={index === 0} />
  ));
}

/**
 * A poster has one URL (no srcset): the widest rendition, as WebP, which every browser that plays
 * the player's video decodes. It is the page's largest picture (its LCP element): the demo
 * cover's original JPEG was 18.9 KB, its WebP 8.7 KB.
 */
function posterUrl(poster: string) {
  return hasRenditions(poster) ? renditionUrl(poster, "16x9", 1280, "webp") : poster;
}
