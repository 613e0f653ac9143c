import { Link } from "~/components/ui/link.tsx";
import { CARD_COVER_SIZES } from "~/components/catalogue/animation-card.tsx";
import { ResponsiveImage } from "~/components/ui/responsive-image.tsx";
import { formatCount, formatDate, formatDuration, formatFileSize, isExpiringSoon } from "~/lib/format.ts";

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

/** What the member may download of it: the package and its files (the Downloads library). */
export type LibraryCardDownloads = {
  packageHref: string | null;
  files: { name: string; href: string; label: string; width: number | null; height: number | null; size: number | null }[];
  downloads: { count: number; lastAt: string | Date | null };
};

const LICENCE_LABEL = { individual: "Individual license", category: "Category license", global: "Premium access" } as const;

/** A licensed animation: cover, licence type, expiry and an "Expiring Soon" badge at 30 days or less. */
export function LibraryCard({
  animation,
  now,
  certificateHref,
  downloads,
}: {
  animation: LibraryCardAnimation;
  now: Date;
  certificateHref?: string | null;
  downloads?: LibraryCardDownloads;
}) {
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
      {downloads ? <DownloadLinks title={animation.title} downloads={downloads} /> : null}
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

/** Plain links to files (no JavaScript needed): the package first, the single files behind a disclosure. */
function DownloadLinks({ title, downloads }: { title: string; downloads: LibraryCardDownloads }) {
  const { packageHref, files, downloads: taken } = downloads;
  if (!packageHref) return <p className="border-t border-slate-100 px-4 py-2 text-sm text-slate-600">The download package is being prepared.</p>;
  return (
    <div className="border-t border-slate-100 px-4 py-3 text-sm">
      <a
        href={packageHref}
        download
        className="inline-flex w-full items-center justify-center rounded-lg bg-emerald-700 px-4 py-2 font-semibold text-white hover:bg-emerald-800 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-emerald-700"
      >
        Download package (ZIP)<span className="sr-only"> of {title}</span>
      </a>
      <details className="mt-2">
        <summary className="caret cursor-pointer list-none font-medium text-brand-700 [&::-webkit-details-marker]:hidden">
          Single files ({files.length})<span className="sr-only"> of {title}</span>
        </summary>
        <ul className="mt-2 flex flex-col gap-1.5">
          {files.map((file) => (
            <li key={file.name} className="flex items-baseline justify-between gap-3">
              <a href={file.href} download className="min-w-0 break-words text-brand-700 underline-offset-2 hover:underline">
                {file.label}
                {file.width && file.height ? `, ${Math.min(file.width, file.height)}p` : ""}
              </a>
              {file.size !== null ? <span className="shrink-0 text-xs text-slate-500 tabular-nums">{formatFileSize(file.size)}</span> : null}
            </li>
          ))}
        </ul>
      </details>
      {taken.count ? (
        <p className="mt-2 text-xs text-slate-600">
          Downloaded {taken.count === 1 ? "once" : `${formatCount(taken.count)} times`}
          {taken.lastAt ? `, last on ${formatDate(taken.lastAt)}` : ""}
        </p>
      ) : null}
    </div>
  );
}
