import { formatFileSize, formatFileTypes } from "~/lib/format.ts";
import type { DownloadDto } from "~/services/catalogue/types.ts";

/**
 * A licence holder's downloads, in the order the server gives them (the uploaded package
 * first, then the pipeline's MP4 and WebM): each a plain link with `download`, so it works
 * without JavaScript, naming its format and size ("Claims come from data": a size the server
 * does not know is left out, never guessed).
 */
export function DownloadList({ downloads }: { downloads: DownloadDto[] }) {
  if (downloads.length === 0) return null;
  return (
    <section aria-labelledby="downloads-title" className="rounded-xl border border-slate-200 bg-white p-4 shadow-sm">
      <h2 id="downloads-title" className="text-lg font-semibold">
        Downloads
      </h2>
      <ul aria-labelledby="downloads-title" className="mt-3 divide-y divide-slate-100">
        {downloads.map((download) => (
          <li key={download.href} className="flex flex-wrap items-center justify-between gap-x-4 gap-y-1 py-2">
            <a href={download.href} download className="font-medium text-brand-700 hover:underline">
              {download.label}
            </a>
            <span className="text-sm text-slate-600">
              {/* "WEBM" as people write it: WebM. */}
              {formatFileTypes([download.format])}
              {download.bytes !== null ? ` · ${formatFileSize(download.bytes)}` : ""}
            </span>
          </li>
        ))}
      </ul>
    </section>
  );
}
