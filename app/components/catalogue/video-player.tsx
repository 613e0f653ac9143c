import type { CaptionTrackDto } from "~/services/catalogue/types.ts";

/**
 * The detail page's player. The caller passes the full video only for an entitled viewer and
 * the 10-second preview otherwise; with neither it shows the cover and "Preview unavailable"
 * (never a fallback to anything longer). The animation's caption tracks go with either video
 * (the first, English when there is one, on by default).
 */
export function VideoPlayer({
  videoId,
  src,
  poster,
  title,
  isPreview,
  tracks = [],
}: {
  /** Slow loads of this video are reported (PerformanceReporter in the root). */
  videoId: string;
  src: string | null;
  poster: string | null;
  title: string;
  isPreview: boolean;
  tracks?: CaptionTrackDto[];
}) {
  if (!src) {
    return (
      <div className="relative flex aspect-video items-center justify-center overflow-hidden rounded-xl bg-slate-900">
        {poster ? <img src={poster} alt="" className="absolute inset-0 h-full w-full object-cover opacity-50" /> : null}
        <p className="relative rounded-lg bg-black/60 px-4 py-2 font-semibold text-white">
          {isPreview ? "Preview unavailable" : "Video unavailable"}
        </p>
      </div>
    );
  }
  return (
    <div className="relative overflow-hidden rounded-xl bg-black">
      <video
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
  );
}

/** <track> elements for a <video>: the first is the default. Shared with the /watch player. */
export function CaptionTracks({ tracks }: { tracks: CaptionTrackDto[] }) {
  return tracks.map((track, index) => (
    <track key={track.language} kind="captions" srcLang={track.language} label={track.label} src={track.src} default={index === 0} />
  ));
}
