import { Link } from "~/components/ui/link.tsx";
import { CARD_COVER_SIZES } from "~/components/catalogue/animation-card.tsx";
import { ResponsiveImage } from "~/components/ui/responsive-image.tsx";
import { formatDate, formatDuration, isExpiringSoon } from "~/lib/format.ts";

export type LibraryCardAnimation = {
  id: string;
  title: string;
  description: string;
  coverImage: string | null;
  duration: number;
  categoryName?: string | null;
  licenseType: "individual" | "category" | "global";
  expiryDate: string | Date | null;
};

const LICENCE_LABEL = { individual: "Individual license", category: "Category license", global: "Premium access" } as const;

/** A licensed animation: cover, licence type, expiry and an "Expiring Soon" badge at 30 days or less. */
export function LibraryCard({ animation, now, certificateHref }: { animation: LibraryCardAnimation; now: Date; certificateHref?: string | null }) {
  const soon = animation.expiryDate ? isExpiringSoon(animation.expiryDate, now) : false;
  return (
    <li className="overflow-hidden rounded-xl border border-slate-200 bg-white shadow-sm">
      <Link to={`/watch/${animation.id}`} className="block focus-visible:outline-2 focus-visible:outline-brand-600">
        <div className="relative aspect-video bg-slate-100">
          {animation.coverImage ? (
            <ResponsiveImage
              src={animation.coverImage}
              aspect="16x9"
              widths={[320, 640, 1280]}
              sizes={CARD_COVER_SIZES}
              alt=""
              className="h-full w-full object-cover"
            />
          ) : null}
          <span className="absolute right-2 bottom-2 rounded bg-black/70 px-1.5 py-0.5 text-xs text-white">{formatDuration(animation.duration)}</span>
        </div>
        <div className="p-4">
          <h3 className="font-semibold">{animation.title}</h3>
          {animation.categoryName ? <p className="text-xs text-slate-500">{animation.categoryName}</p> : null}
          <p className="mt-1 line-clamp-2 text-sm text-slate-600">{animation.description}</p>
          <div className="mt-3 flex flex-wrap items-center gap-2 text-xs">
            <span className="rounded-full bg-brand-50 px-2 py-0.5 font-medium text-brand-700">{LICENCE_LABEL[animation.licenseType]}</span>
            {animation.expiryDate ? <span className="text-slate-600">Expires {formatDate(animation.expiryDate)}</span> : null}
            {soon ? <span className="rounded-full bg-amber-100 px-2 py-0.5 font-semibold text-amber-900">Expiring Soon</span> : null}
          </div>
        </div>
      </Link>
      {certificateHref ? (
        // Outside the card's link (links do not nest); a plain <a>: the PDF is a file, not a page.
        <p className="border-t border-slate-100 px-4 py-2 text-sm">
          <a href={certificateHref} download className="font-medium text-brand-700 underline-offset-2 hover:underline">
            Certificate<span className="sr-only"> for {animation.title}</span> (PDF)
          </a>
        </p>
      ) : null}
    </li>
  );
}
