import { type ReactNode, useEffect, useId, useRef, useState } from "react";
import { Button } from "~/components/ui/button.tsx";
import { ResponsiveImage } from "~/components/ui/responsive-image.tsx";
import { enhancePlayer } from "~/lib/dom/player.ts";
import type { PlayerLanguage, PlayerWords } from "~/lib/i18n/player.ts";
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
 *
 * The same player plays in the licensed embed and a patient link (issue 46), which pass what the
 * site's pages do not: the viewer's language (its words and the default caption track), a title
 * and review line over the picture until it plays, the transcripts, the analytics key and a
 * player that fills its frame. Its words are rendered here (lib/i18n/player.ts), so the browser's
 * script needs none of them.
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
  isPreview: boolean;
  /** How long the preview plays (lib/preview.ts): its badge and its end say so. */
  previewSeconds: number;
  tracks?: CaptionTrackDto[];
  /** Premium and the licences for this animation, offered when the preview ends. */
  offers?: ReactNode;
  /** The player's words in the viewer's language (lib/i18n/player.ts playerWords, made by the loader). */
  words: PlayerWords;
  /** The viewer's language: the player's `lang` and the caption track on by default. */
  lang?: PlayerLanguage;
  /** Over the picture's top until it plays, back on pause and at the end: the title and a review line. */
  overlay?: { title: string; detail?: string | null };
  /** Under the player, each a disclosure that works without JavaScript; the one in `lang` first. */
  transcripts?: TranscriptDto[];
  /** Written as the <video>'s data-analytics, for the page's playback beacons. */
  analytics?: string;
  /** The player fills its container's height, square-cornered (the embed's frame). */
  fill?: boolean;
};

export type TranscriptDto = { language: string; label: string; text: string };

function Player({
  videoId,
  src: fileSrc,
  playback: latestPlayback = null,
  poster,
  isPreview,
  previewSeconds,
  tracks = [],
  offers,
  lang,
  words,
  overlay,
  transcripts = [],
  analytics,
  fill = false,
}: VideoPlayerProps) {
  const root = useRef<HTMLDivElement>(null);
  const detailId = useId();
  // Signed URLs differ at each load of the page's data: the player keeps those it started with,
  // so a revalidation never swaps the source under a playing video (hls.js owns it by then).
  const [playback] = useState(latestPlayback);
  useEffect(() => (root.current ? enhancePlayer(root.current) : undefined), []);
  const src = playback ? playback.mp4 : fileSrc;
  if (!src) {
    return (
      <div lang={lang} className={`relative flex items-center justify-center overflow-hidden bg-slate-900 ${fill ? "h-full" : "aspect-video rounded-xl"}`}>
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
        <p className="relative rounded-lg bg-black/60 px-4 py-2 font-semibold text-white">{words.unavailable}</p>
      </div>
    );
  }
  const ladder = playback && !playback.isPreview ? playback : null;
  return (
    <div ref={root} lang={lang} className={fill ? "relative flex h-full flex-col" : "relative"} data-player>
      <div className={`player-picture relative overflow-hidden bg-black ${fill ? "min-h-0 flex-1" : "rounded-xl"}`}>
        <video
          data-video-id={videoId}
          data-hls={ladder?.hls}
          data-mp4={ladder?.mp4}
          data-storyboard={ladder?.storyboard ?? undefined}
          data-analytics={analytics}
          src={src}
          poster={poster ? posterUrl(poster) : undefined}
          controls
          playsInline
          // A full video moves to its HLS ladder once the script runs: metadata preloaded from the
          // MP4 first cost 600 KB on a throttled phone before the ladder's first ~200 KB segment
          // (bench/playback.ts). Without JavaScript the MP4 loads when play is pressed.
          // A licence's player (analytics) fetches nothing before play either: its first video
          // request is a counted play, and a clinic's page view costs no video bytes.
          preload={ladder || analytics ? "none" : "metadata"}
          controlsList="nodownload"
          className={fill ? "h-full w-full object-contain" : "aspect-video w-full"}
          aria-label={words.label}
          // The overlay is hidden from assistive technology (the label names the video already);
          // its review line is read once, as the video's description.
          aria-describedby={overlay?.detail ? detailId : undefined}
          data-testid="animation-video"
        >
          <CaptionTracks tracks={tracks} lang={lang} />
          {words.noVideoSupport}
        </video>
        {overlay ? <Overlay title={overlay.title} detail={overlay.detail} detailId={detailId} /> : null}
        {isPreview ? (
          <span className="pointer-events-none absolute top-3 left-3 rounded-full bg-black/70 px-3 py-1 text-xs font-semibold text-white">
            {words.previewBadge}
          </span>
        ) : null}
        {ladder?.storyboard ? <SeekThumbnail /> : null}
        {ladder ? <QualityMenu words={words} /> : null}
        {fill && transcripts.length ? <Transcripts transcripts={transcripts} lang={lang} words={words} fill /> : null}
      </div>
      {offers ? <PreviewEnd seconds={previewSeconds}>{offers}</PreviewEnd> : null}
      {!fill && transcripts.length ? <Transcripts transcripts={transcripts} lang={lang} words={words} fill={false} /> : null}
    </div>
  );
}

/**
 * The title and review line over the picture's top, until the video plays; back when it pauses
 * or ends. The stylesheet fades it (app.css, `.player-overlay`): by the `data-playing` the
 * player's script sets, and by `:playing` where the browser knows it (Safari), so there without
 * JavaScript too.
 * Pointer events go through to the video's controls.
 */
function Overlay({ title, detail, detailId }: { title: string; detail?: string | null; detailId: string }) {
  return (
    <div
      aria-hidden="true"
      data-player-overlay
      className="player-overlay pointer-events-none absolute inset-x-0 top-0 bg-linear-to-b from-slate-900/90 via-slate-900/60 to-transparent px-3 pt-2 pb-6 text-white transition-opacity duration-300"
    >
      <p className="truncate text-sm font-semibold">{title}</p>
      {detail ? (
        <p id={detailId} className="line-clamp-2 text-xs text-slate-200">
          {detail}
        </p>
      ) : null}
    </div>
  );
}

/**
 * The transcripts under the player, the viewer's language first: each a <details> (it opens
 * without JavaScript), whose summary says Show or Hide transcript as it is closed or open.
 * In a frame-filling player (the embed) they lie over the picture's bottom corner, above the
 * controls and clear of the title and the quality menu, opening upwards, so the picture keeps the
 * whole frame (the snippet's box has the video's shape).
 */
function Transcripts({ transcripts, lang, words, fill }: { transcripts: TranscriptDto[]; lang?: PlayerLanguage; words: PlayerWords; fill: boolean }) {
  const ordered = [...transcripts].sort((a, b) => Number(sameLanguage(b.language, lang)) - Number(sameLanguage(a.language, lang)));
  return (
    <section
      aria-label={words.transcript}
      className={fill ? "absolute right-3 bottom-16 z-10 flex max-h-[calc(100%-5rem)] max-w-[calc(100%-1.5rem)] flex-col items-end" : "mt-3"}
      data-transcripts
    >
      {ordered.map((transcript) => (
        <details
          key={transcript.language}
          className={`group/transcript text-slate-900 ${fill ? "flex min-h-0 flex-col-reverse items-end" : "mt-2 rounded-lg border border-slate-200 bg-white px-4 py-3 first:mt-0"}`}
          data-testid="player-transcript"
        >
          <summary
            className={
              fill
                ? "cursor-pointer rounded-full bg-black/70 px-3 py-1 text-xs font-semibold text-white focus-visible:outline-2 focus-visible:outline-white"
                : "cursor-pointer text-sm font-medium text-slate-800"
            }
          >
            <span className="group-open/transcript:hidden">{words.showTranscript}</span>
            <span className="hidden group-open/transcript:inline">{words.hideTranscript}</span>
            {` (${transcript.label})`}
          </summary>
          <div
            lang={transcript.language}
            className={`overflow-y-auto text-sm leading-relaxed whitespace-pre-line text-slate-700 ${fill ? "mb-2 max-h-[calc(100vh-8rem)] min-h-0 w-80 max-w-full rounded-lg bg-white p-3 shadow-lg" : "mt-2 max-h-80"}`}
          >
            {transcript.text}
          </div>
        </details>
      ))}
    </section>
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
function QualityMenu({ words }: { words: PlayerWords }) {
  return (
    <label
      hidden
      data-quality
      className="absolute top-3 right-3 flex items-center gap-1.5 rounded-full bg-black/70 py-1 pr-2 pl-3 text-xs font-semibold text-white"
    >
      {words.quality}
      <select
        defaultValue="-1"
        className="rounded bg-transparent font-semibold text-white focus-visible:outline-2 focus-visible:outline-white [&>option]:text-slate-900"
      >
        <option value="-1">{words.auto}</option>
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

/** <track> elements for a <video>: the one in the viewer's language is on by default, else the first. */
export function CaptionTracks({ tracks, lang }: { tracks: CaptionTrackDto[]; lang?: PlayerLanguage }) {
  const chosen = Math.max(
    0,
    tracks.findIndex((track) => sameLanguage(track.language, lang)),
  );
  return tracks.map((track, index) => (
    <track key={track.language} kind="captions" srcLang={track.language} label={track.label} src={track.src} default={index === chosen} />
  ));
}

/** "es-MX" is Spanish: a track or transcript in the viewer's language. */
function sameLanguage(code: string, lang: PlayerLanguage | undefined) {
  return lang !== undefined && code.toLowerCase().split("-")[0] === lang;
}

/**
 * A poster has one URL (no srcset): the widest rendition, as WebP, which every browser that plays
 * the player's video decodes. It is the page's largest picture (its LCP element): the demo
 * cover's original JPEG was 18.9 KB, its WebP 8.7 KB.
 */
function posterUrl(poster: string) {
  return hasRenditions(poster) ? renditionUrl(poster, "16x9", 1280, "webp") : poster;
}
