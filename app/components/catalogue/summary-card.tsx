import { Link } from "~/components/ui/link.tsx";
import { formatCount, formatDuration, formatYearlyPrice } from "~/lib/format.ts";
import type { AnimationSummaryDto, VerifiedAnimationDto } from "~/services/catalogue/types.ts";
import { Cover, Duration, PremiumBadge } from "./animation-card.tsx";

/**
 * A grid card of the category and doctor screens (subcategory screen, category
 * listing, doctor profile): cover with a placeholder, duration m:ss, title, description and a
 * link; with a catalogue row, the individual price. The listing variant adds the Premium badge
 * and the view count.
 */
export function SummaryCard({
  animation,
  href,
  linkLabel,
  showPremium = false,
  showViews = false,
}: {
  animation: AnimationSummaryDto | VerifiedAnimationDto;
  href: string;
  linkLabel: string;
  showPremium?: boolean;
  showViews?: boolean;
}) {
  return (
    <article className="flex flex-col overflow-hidden rounded-xl border border-slate-200 bg-white shadow-sm" data-testid="animation-card">
      <div className="relative aspect-video bg-slate-100">
        {/* A pointer's way in; the labelled link below stays the one tab stop. */}
        <Link to={href} tabIndex={-1} aria-hidden="true" className="absolute inset-0">
          <Cover src={animation.coverImage} />
        </Link>
        <Duration>{formatDuration(animation.duration)}</Duration>
      </div>
      <div className="flex flex-1 flex-col gap-2 p-4">
        {showPremium && "hasAccess" in animation && !animation.hasAccess ? <PremiumBadge /> : null}
        <h3 className="font-semibold leading-snug">{animation.title}</h3>
        <p className="line-clamp-3 text-sm text-slate-600">{animation.description}</p>
        <div className="mt-auto flex flex-col gap-2 pt-2">
          {"individualPrice" in animation ? (
            <div className="flex items-center justify-between text-sm">
              <span className="font-semibold">{formatYearlyPrice(animation.individualPrice)}</span>
              {showViews ? <span className="text-slate-500">{formatCount(animation.views)} views</span> : null}
            </div>
          ) : null}
          <Link
            to={href}
            className="inline-flex items-center justify-center rounded-lg bg-brand-600 px-3 py-2 text-sm font-semibold text-white hover:bg-brand-700"
            aria-label={`${linkLabel}: ${animation.title}`}
          >
            {linkLabel}
          </Link>
        </div>
      </div>
    </article>
  );
}
