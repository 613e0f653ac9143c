import { useRef, useState } from "react";
import { Link } from "~/components/ui/link.tsx";
import { formatSeconds } from "~/lib/duration.ts";
import type { AnimationCardDto } from "~/services/catalogue/types.ts";
import { ResponsiveImage } from "../ui/responsive-image.tsx";
import { previewSecondsOf } from "~/lib/preview.ts";

/** Where a card leads: the detail page, by slug (/animation/{slug}, the older card link, redirects there). */
export function animationHref(animation: { slug: string | null; id: string }) {
  return `/animations/${encodeURIComponent(animation.slug || animation.id)}`;
}

/**
 * The home and search card: cover, title, category name, duration in
 * seconds, a "Premium" badge and "View Full Animation" without global access (with a line saying
 * the page plays a free 10-second preview), "Watch Animation" with it. With JavaScript, hovering loads the muted 10-second preview and a play
 * overlay; nothing video-related is fetched until then.
 */
export function AnimationCard({
  animation,
  premium,
  id,
  priority = false,
}: {
  animation: AnimationCardDto;
  premium: boolean;
  id?: string;
  /** The first card of the page: its cover is the largest picture of a phone's first screen. */
  priority?: boolean;
}) {
  const href = animationHref(animation);
  const [hovered, setHovered] = useState(false);
  return (
    <article
      id={id}
      className="group flex flex-col overflow-hidden rounded-xl border border-slate-200 bg-white shadow-sm transition hover:shadow-md"
      data-testid="animation-card"
      // Where a page that does not hydrate finds the hover preview (app/static-page/previews.ts).
      data-preview={animation.previewVideo ?? undefined}
      data-title={animation.previewVideo ? animation.title : undefined}
      onMouseEnter={() => setHovered(true)}
      onMouseLeave={() => setHovered(false)}
    >
      <div className="relative aspect-video bg-slate-100">
        {/* The picture leads where the title does, for pointers only: the title link stays the one
            tab stop and the one name a screen reader hears. */}
        <Link to={href} tabIndex={-1} aria-hidden="true" className="absolute inset-0">
          <Cover src={animation.coverImage} priority={priority} />
        </Link>
        {hovered && animation.previewVideo ? <HoverPreview src={animation.previewVideo} title={animation.title} /> : null}
        <Duration>{formatSeconds(animation.duration)}</Duration>
      </div>
      {premium ? null : <PremiumBadge className="mx-4 mt-4" />}
      {/* One link per card (title, category and the call to action): cheaper to render than two. */}
      <Link to={href} className={`flex flex-1 flex-col gap-1 p-4 ${premium ? "" : "pt-2"}`}>
        <h3 className="font-semibold leading-snug group-hover:text-brand-700">{animation.title}</h3>
        {animation.categoryName ? <p className="text-sm text-slate-600">{animation.categoryName}</p> : null}
        {/* The card's label leads to the detail page, whose player is the free preview: say so. */}
        {premium ? null : (
          <span className="mt-auto block pt-2 text-xs text-slate-500">{`Free ${previewSecondsOf(animation.duration)}-second preview · full video with Premium or a license`}</span>
        )}
        <span className="mt-3 inline-flex items-center justify-center rounded-lg bg-brand-600 px-3 py-2 text-sm font-semibold text-white group-hover:bg-brand-700">
          {premium ? "Watch Animation" : "View Full Animation"}
        </span>
      </Link>
    </article>
  );
}

/**
 * "Premium" under the picture, not on it: covers carry their own lettering (the demo covers print
 * the specialty in the top left corner), and no corner of a picture is free at every width.
 */
export function PremiumBadge({ className = "" }: { className?: string }) {
  return <span className={`self-start rounded-full bg-amber-400 px-2 py-0.5 text-xs font-bold text-amber-950 ${className}`}>Premium</span>;
}

/** The duration over the picture's corner; clicks go through it to the picture's link. */
export function Duration({ children }: { children: string }) {
  return <span className="pointer-events-none absolute right-2 bottom-2 rounded bg-black/70 px-1.5 py-0.5 text-xs font-medium text-white">{children}</span>;
}

/** A grid card's cover: one column under 640 px, two to 1024 px, three in a 1280 px page after. */
export const CARD_COVER_SIZES = "(min-width: 1280px) 400px, (min-width: 1024px) 31vw, (min-width: 640px) 48vw, 94vw";

/** A cover with a placeholder behind it: a missing or broken image leaves the placeholder. */
export function Cover({ src, alt = "", sizes = CARD_COVER_SIZES, priority = false }: { src: string | null; alt?: string; sizes?: string; priority?: boolean }) {
  return (
    <>
      <div aria-hidden="true" className="absolute inset-0 flex items-center justify-center bg-gradient-to-br from-brand-50 to-slate-200">
        <span className="icon-play h-10 w-10 text-brand-500/60" />
      </div>
      {src ? (
        <ResponsiveImage
          src={src}
          aspect="16x9"
          widths={[320, 640, 1280]}
          sizes={sizes}
          alt={alt}
          priority={priority}
          className="absolute inset-0 h-full w-full object-cover"
        />
      ) : null}
    </>
  );
}

function HoverPreview({ src, title }: { src: string; title: string }) {
  const video = useRef<HTMLVideoElement>(null);
  const [overlay, setOverlay] = useState(true);
  function play() {
    const el = video.current;
    if (!el) return;
    el.muted = false;
    setOverlay(false);
    // A failed play is only logged, and the overlay comes back.
    el.play().catch((error: unknown) => {
      console.warn("Preview playback failed", error);
      setOverlay(true);
    });
  }
  return (
    <>
      <video
        ref={video}
        src={src}
        muted
        autoPlay
        loop
        playsInline
        preload="metadata"
        // Clicks pass to the picture's link beneath, as on the cover the preview replaces.
        className="pointer-events-none absolute inset-0 h-full w-full object-cover"
        aria-label={`Preview of ${title}`}
        onPause={() => setOverlay(true)}
      />
      {overlay ? (
        // Only the round button takes a click: the rest of the picture stays the card's link (a
        // pointer always hovers before it clicks, so a full-size button hid the link from it).
        <div className="pointer-events-none absolute inset-0 flex items-center justify-center bg-black/20">
          <button
            type="button"
            onClick={play}
            className="pointer-events-auto flex h-12 w-12 items-center justify-center rounded-full bg-white/90 text-brand-700 shadow"
            aria-label={`Play preview of ${title}`}
          >
            <span aria-hidden="true" className="icon-play h-6 w-6" />
          </button>
        </div>
      ) : null}
    </>
  );
}

export function AnimationCardSkeleton() {
  return (
    <div className="animate-pulse overflow-hidden rounded-xl border border-slate-200 bg-white" data-testid="animation-card-skeleton" aria-hidden="true">
      <div className="aspect-video bg-slate-200" />
      <div className="flex flex-col gap-2 p-4">
        <div className="h-4 w-3/4 rounded bg-slate-200" />
        <div className="h-3 w-1/3 rounded bg-slate-200" />
        <div className="mt-2 h-9 rounded bg-slate-200" />
      </div>
    </div>
  );
}

export function CardGrid({ children, id }: { children: React.ReactNode; id?: string }) {
  return (
    <div id={id} className="grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
      {children}
    </div>
  );
}
