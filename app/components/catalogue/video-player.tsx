import { type ReactNode, useEffect, useRef, useState } from "react";
import { Button } from "~/components/ui/button.tsx";
import { ResponsiveImage } from "~/components/ui/responsive-image.tsx";
import { hasRenditions, renditionUrl } from "~/lib/image-renditions.ts";
import type { CaptionTrackDto, PlaybackDto } from "~/services/catalogue/types.ts";
import { type AdaptiveStream, useAdaptiveStream } from "./adaptive-stream.ts";
import { SeekPreview } from "./seek-preview.tsx";

/**
 * The detail page's player. The caller passes the full video only for an entitled viewer and
 * the 10-second preview otherwise; with neither it shows the cover and "Preview unavailable"
 * (never a fallback to anything longer). The animation's caption tracks go with either video
 * (the first, English when there is one, on by default). With `offers` (a viewer without access),
 * the preview's end shows them: over the picture from 1280 px, under it where the picture is too
 * small to hold them (a phone's is about 200 px high).
 *
 * With `playback` (the media pipeline's renditions) the server renders its progressive MP4,
 * which plays without JavaScript; once hydrated a full video moves to its HLS ladder, with a
 * quality menu when hls.js plays it and the storyboard's thumbnails while seeking
 * (adaptive-stream.ts). Without `playback` (no finished set yet) `src` plays as it is.
 */
export function VideoPlayer(props: VideoPlayerProps) {
  // A new animation, or the full video after the preview, is a new player: the old one's
  // hls.js, ended state and frozen URLs go with it.
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
  tracks?: CaptionTrackDto[];
  /** Premium and the licences for this animation, offered when the preview ends. */
  offers?: ReactNode;
};

function Player({ videoId, src: fileSrc, playback: latestPlayback = null, poster, title, isPreview, tracks = [], offers }: VideoPlayerProps) {
  const video = useRef<HTMLVideoElement>(null);
  const [ended, setEnded] = useState(false);
  // Signed URLs differ at each load of the page's data: the player keeps those it started with,
  // so a revalidation never swaps the source under a playing video (hls.js owns it by then).
  const [playback] = useState(latestPlayback);
  const stream = useAdaptiveStream(video, playback);
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
        <p className="relative rounded-lg bg-black/60 px-4 py-2 font-semibold text-white">
          {isPreview ? "Preview unavailable" : "Video unavailable"}
        </p>
      </div>
    );
  }
  return (
    <div className="relative">
      <div className="relative overflow-hidden rounded-xl bg-black">
        <video
          ref={video}
          data-video-id={videoId}
          src={src}
          poster={poster ? posterUrl(poster) : undefined}
          controls
          playsInline
          // A full video moves to its HLS ladder once hydrated: metadata preloaded from the MP4
          // first cost 600 KB on a throttled phone before the ladder's first ~200 KB segment
          // (bench/playback.ts). Without JavaScript the MP4 loads when play is pressed.
          preload={playback && !playback.isPreview ? "none" : "metadata"}
          controlsList="nodownload"
          className="aspect-video w-full"
          aria-label={isPreview ? `Preview of ${title}` : title}
          data-testid="animation-video"
          // The server's preview file ends at the 10-second cap: its end is where the offers come in.
          onEnded={offers ? () => setEnded(true) : undefined}
          onPlay={() => setEnded(false)}
        >
          <CaptionTracks tracks={tracks} />
          Your browser does not play this video.
        </video>
        {isPreview ? (
          <span className="pointer-events-none absolute top-3 left-3 rounded-full bg-black/70 px-3 py-1 text-xs font-semibold text-white">
            10-second preview
          </span>
        ) : null}
        {playback && !playback.isPreview ? <SeekPreview video={video} storyboard={playback.storyboard} /> : null}
        <QualityMenu stream={stream} />
      </div>
      {ended ? (
        <PreviewEnd
          onReplay={() => {
            // Playing an ended video starts it over; onPlay hides this panel, so focus goes back to the player.
            video.current?.focus();
            void video.current?.play();
          }}
        >
          {offers}
        </PreviewEnd>
      ) : null}
    </div>
  );
}

/**
 * Auto, then the ladder's rungs, highest first. Over the picture's top corner, so it takes no
 * room from the page when it appears (after hls.js has read the ladder); only while hls.js
 * plays, since the browser's own HLS cannot be steered.
 */
function QualityMenu({ stream }: { stream: AdaptiveStream }) {
  if (stream.rungs.length === 0) return null;
  return (
    <label className="absolute top-3 right-3 flex items-center gap-1.5 rounded-full bg-black/70 py-1 pr-2 pl-3 text-xs font-semibold text-white">
      Quality
      <select
        value={stream.level}
        onChange={(event) => stream.chooseLevel(Number(event.currentTarget.value))}
        className="rounded bg-transparent font-semibold text-white focus-visible:outline-2 focus-visible:outline-white"
      >
        <option value={-1} className="text-slate-900">
          Auto
        </option>
        {stream.rungs.map((rung) => (
          <option key={rung.level} value={rung.level} className="text-slate-900">
            {rung.height}p
          </option>
        ))}
      </select>
    </label>
  );
}

/** The preview's end: focus moves here, so keyboard and screen reader users hear what comes next. */
function PreviewEnd({ onReplay, children }: { onReplay: () => void; children: ReactNode }) {
  const panel = useRef<HTMLDivElement>(null);
  useEffect(() => panel.current?.focus(), []);
  return (
    <div className="mt-3 xl:absolute xl:inset-0 xl:mt-0 xl:flex xl:overflow-y-auto xl:rounded-xl xl:bg-black/70 xl:p-4">
      {/* A group, not a region: the page's own offers are the region of this name. */}
      <div
        ref={panel}
        role="group"
        tabIndex={-1}
        aria-labelledby="preview-end-title"
        className="rounded-xl border border-slate-200 bg-white p-4 shadow-sm xl:m-auto xl:w-full xl:max-w-md"
        data-testid="preview-end"
      >
        <h2 id="preview-end-title" className="text-lg font-semibold">
          Unlock the Full Animation
        </h2>
        <p className="mt-1 text-sm text-slate-600">The 10-second preview has ended. Premium members stream every animation in full.</p>
        {children}
        <Button variant="ghost" className="mt-2 w-full" onClick={onReplay}>
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
