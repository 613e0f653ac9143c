import { type ReactNode, useEffect, useRef, useState } from "react";
import { Button } from "~/components/ui/button.tsx";
import { ResponsiveImage } from "~/components/ui/responsive-image.tsx";
import type { CaptionTrackDto } from "~/services/catalogue/types.ts";

/**
 * The detail page's player. The caller passes the full video only for an entitled viewer and
 * the 10-second preview otherwise; with neither it shows the cover and "Preview unavailable"
 * (never a fallback to anything longer). The animation's caption tracks go with either video
 * (the first, English when there is one, on by default). With `offers` (a viewer without access),
 * the preview's end shows them: over the picture from 1280 px, under it where the picture is too
 * small to hold them (a phone's is about 200 px high).
 */
export function VideoPlayer({
  videoId,
  src,
  poster,
  title,
  isPreview,
  tracks = [],
  offers,
}: {
  /** Slow loads of this video are reported (PerformanceReporter in the root). */
  videoId: string;
  src: string | null;
  poster: string | null;
  title: string;
  isPreview: boolean;
  tracks?: CaptionTrackDto[];
  /** Premium and the licences for this animation, offered when the preview ends. */
  offers?: ReactNode;
}) {
  const video = useRef<HTMLVideoElement>(null);
  const [ended, setEnded] = useState(false);
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
            loading="eager"
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
          poster={poster ?? undefined}
          controls
          playsInline
          preload="metadata"
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
