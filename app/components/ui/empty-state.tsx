import type { ReactNode } from "react";

/**
 * "Nothing here yet": a dashed box with a title, an optional message and actions. `titleAs="h2"`
 * where the title is a heading of the page's outline.
 */
export function EmptyState({
  icon,
  title,
  titleAs: Title = "p",
  message,
  action,
  className = "",
}: {
  icon?: ReactNode;
  title: ReactNode;
  titleAs?: "p" | "h2" | "h3";
  message?: ReactNode;
  action?: ReactNode;
  className?: string;
}) {
  return (
    <div className={`rounded-2xl border border-dashed border-slate-300 bg-white p-8 text-center ${className}`}>
      {icon ? (
        <div aria-hidden="true" className="mx-auto mb-3 flex h-12 w-12 items-center justify-center rounded-full bg-slate-100 text-xl text-slate-500">
          {icon}
        </div>
      ) : null}
      <Title className={Title === "p" ? "font-medium" : "text-lg font-semibold"}>{title}</Title>
      {message ? <p className="mt-1 text-sm text-slate-600">{message}</p> : null}
      {action ? <div className="mt-4 flex flex-wrap justify-center gap-3">{action}</div> : null}
    </div>
  );
}
