type Shared = { url: string; title: string; text: string };

/** The places a link can be sent without JavaScript: each one's own "share this URL" address. */
export function shareTargets({ url, title, text }: Shared) {
  const q = (params: Record<string, string>) => new URLSearchParams(params).toString();
  return [
    { name: "E-mail", href: `mailto:?${q({ subject: title, body: `${text}\n\n${url}` }).replace(/\+/g, "%20")}` },
    { name: "LinkedIn", href: `https://www.linkedin.com/sharing/share-offsite/?${q({ url })}` },
    { name: "X", href: `https://x.com/intent/post?${q({ text: title, url })}` },
    { name: "WhatsApp", href: `https://wa.me/?${q({ text: `${title} ${url}` })}` },
  ];
}

/**
 * Share on the animation page. Without JavaScript it is a <details> toggle: the link in a field to
 * select and copy, and links that open e-mail, LinkedIn, X and WhatsApp with the animation filled
 * in. With JavaScript (the page's script, app/static-page/animation-page.ts) the toggle opens the
 * device's own share sheet (the Web Share API) where there is one, and the Copy button appears;
 * where there is no sheet, or it fails, the toggle opens as without JavaScript. Closing the share
 * sheet is not a failure.
 */
export function ShareControl(shared: Shared) {
  return (
    <details className="group relative self-start" data-testid="share" data-share-title={shared.title} data-share-text={shared.text}>
      <summary className="inline-flex cursor-pointer list-none items-center gap-2 rounded-lg px-3 py-1.5 text-sm font-semibold text-slate-900 ring-1 ring-slate-300 hover:bg-slate-50 [&::-webkit-details-marker]:hidden">
        <svg aria-hidden="true" viewBox="0 0 20 20" className="h-4 w-4 fill-current">
          <path d="M13 3a3 3 0 1 1 .8 2L7.9 8.5a3 3 0 0 1 0 3l5.9 3.5a3 3 0 1 1-.8 1.5L7 13a3 3 0 1 1 0-6l6-3.5A3 3 0 0 1 13 3Z" />
        </svg>
        Share
      </summary>
      <div className="mt-2 flex w-[min(22rem,calc(100vw-2rem))] flex-col gap-3 rounded-xl border border-slate-200 bg-white p-4 shadow-sm">
        <label className="flex flex-col gap-1 text-sm font-medium text-slate-700">
          Link to this animation
          <input readOnly value={shared.url} data-share-url className="rounded-lg border border-slate-300 px-3 py-2 font-normal text-slate-900" />
        </label>
        {/* The status stays in the page (empty) so that screen readers announce what it gets. */}
        <div className="flex flex-wrap items-center gap-3">
          <button type="button" hidden data-share-copy className="rounded-lg bg-brand-600 px-3 py-1.5 text-sm font-semibold text-white hover:bg-brand-700">
            Copy link
          </button>
          <p role="status" className="text-sm text-emerald-800" />
        </div>
        <ul className="flex flex-wrap gap-x-4 gap-y-2 text-sm">
          {shareTargets(shared).map((target) => (
            <li key={target.name}>
              <a
                href={target.href}
                {...(target.href.startsWith("mailto:") ? {} : { target: "_blank", rel: "noopener noreferrer" })}
                className="font-semibold text-brand-700 hover:underline"
              >
                {target.name}
              </a>
            </li>
          ))}
        </ul>
      </div>
    </details>
  );
}
