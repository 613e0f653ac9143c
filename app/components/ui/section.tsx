import type { ReactNode } from "react";

const CARD = "rounded-2xl border border-slate-200 bg-white p-6 shadow-sm";

/**
 * A titled part of a page: an h2, an optional description and an optional action beside the
 * heading (a "View all" link). With `id` the heading names the section, so it is a landmark
 * region screen readers list; without it the section is not a landmark. `card` draws it on a
 * white card; `as="nav"` for a titled group of links.
 */
export function Section({
  id,
  title,
  description,
  action,
  card = false,
  as: Tag = "section",
  className = "",
  children,
}: {
  id?: string;
  title: ReactNode;
  description?: ReactNode;
  action?: ReactNode;
  card?: boolean;
  as?: "section" | "nav";
  className?: string;
  children: ReactNode;
}) {
  const heading = (
    <h2 id={id} className={card ? "text-lg font-semibold" : "text-xl font-semibold"}>
      {title}
    </h2>
  );
  return (
    <Tag aria-labelledby={id} className={[card ? CARD : "", className].filter(Boolean).join(" ") || undefined}>
      {action ? (
        <div className="flex items-center justify-between gap-4">
          {heading}
          {action}
        </div>
      ) : (
        heading
      )}
      {description ? <p className="mt-1 text-sm text-slate-600">{description}</p> : null}
      {children}
    </Tag>
  );
}
