import type { ReactNode } from "react";
import { Link } from "~/components/ui/link.tsx";

/**
 * An admin screen's frame: the back button to /admin (every admin list has one), the
 * title, an optional description and the screen's own actions (New ..., View ...).
 */
export function AdminPage({
  title,
  description,
  actions,
  back = true,
  children,
}: {
  title: string;
  description?: ReactNode;
  actions?: ReactNode;
  back?: boolean;
  children: ReactNode;
}) {
  return (
    <div className="space-y-6">
      {back ? (
        <Link to="/admin" className="inline-flex items-center gap-1 text-sm font-medium text-slate-600 hover:text-brand-700">
          <span aria-hidden="true">←</span> Back to Admin
        </Link>
      ) : null}
      <div className="flex flex-wrap items-end justify-between gap-4">
        <div>
          <h1 className="text-2xl font-bold tracking-tight">{title}</h1>
          {description ? <p className="mt-1 text-sm text-slate-600">{description}</p> : null}
        </div>
        {actions ? <div className="flex flex-wrap gap-2">{actions}</div> : null}
      </div>
      {children}
    </div>
  );
}

/** A white card for a form or a table. */
export function Panel({ title, children, className = "" }: { title?: string; children: ReactNode; className?: string }) {
  return (
    <section className={`rounded-2xl border border-slate-200 bg-white p-5 shadow-sm ${className}`} aria-label={title}>
      {title ? <h2 className="mb-4 text-lg font-semibold">{title}</h2> : null}
      {children}
    </section>
  );
}
