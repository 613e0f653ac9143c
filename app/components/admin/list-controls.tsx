import type { ReactNode } from "react";
import { useLocation } from "react-router";
import { Form } from "~/components/ui/form.tsx";
import { Link } from "~/components/ui/link.tsx";
import { buttonClass } from "~/components/ui/button.tsx";

/** The current URL's query with some parameters set (null removes one). */
export function withQuery(search: string, changes: Record<string, string | number | null>) {
  const params = new URLSearchParams(search);
  for (const [key, value] of Object.entries(changes)) {
    if (value === null || value === "") params.delete(key);
    else params.set(key, String(value));
  }
  const query = params.toString();
  return query ? `?${query}` : "?";
}

/**
 * Previous/Next links that keep the filters. `total` (when the list knows it) adds "of N";
 * big lists pass `hasNext` instead of counting every row.
 */
export function Pager({ page, hasNext, totalPages, label = "Pages" }: { page: number; hasNext: boolean; totalPages?: number; label?: string }) {
  const { search } = useLocation();
  if (page <= 1 && !hasNext) return null;
  const link = "rounded-lg px-3 py-1.5 text-sm font-medium ring-1 ring-slate-300 hover:bg-slate-50";
  return (
    <nav aria-label={label} className="flex items-center justify-between gap-4">
      {page > 1 ? (
        <Link to={withQuery(search, { page: page - 1 === 1 ? null : page - 1, confirm: null })} className={link} rel="prev">
          Previous
        </Link>
      ) : (
        <span />
      )}
      <span className="text-sm text-slate-600">
        Page {page}
        {totalPages ? ` of ${totalPages}` : null}
      </span>
      {hasNext ? (
        <Link to={withQuery(search, { page: page + 1, confirm: null })} className={link} rel="next">
          Next
        </Link>
      ) : (
        <span />
      )}
    </nav>
  );
}

/**
 * Search and filters as a GET form: the list's URL holds them, so they work without
 * JavaScript, survive a reload and can be shared. "Clear Filters" is a link to the bare list.
 */
export function FilterForm({ children, clearTo }: { children: ReactNode; clearTo?: string }) {
  return (
    <Form method="get" role="search" className="flex flex-wrap items-end gap-3 rounded-2xl border border-slate-200 bg-white p-4 shadow-sm">
      {children}
      <button type="submit" className={buttonClass({ variant: "secondary" })}>
        Apply
      </button>
      {clearTo ? (
        <Link to={clearTo} className="px-2 py-2 text-sm font-medium text-slate-600 hover:text-brand-700">
          Clear Filters
        </Link>
      ) : null}
    </Form>
  );
}

/** A labelled search box for FilterForm. */
export function SearchInput({
  name = "search",
  label = "Search",
  defaultValue,
  placeholder,
}: {
  name?: string;
  label?: string;
  defaultValue?: string;
  placeholder?: string;
}) {
  return (
    <label className="flex min-w-56 flex-1 flex-col gap-1 text-sm font-medium text-slate-700">
      {label}
      <input
        type="search"
        name={name}
        defaultValue={defaultValue}
        placeholder={placeholder}
        className="rounded-lg border border-slate-300 px-3 py-2 font-normal"
      />
    </label>
  );
}

/** A labelled select for FilterForm; the first option is "all". */
export function FilterSelect({
  name,
  label,
  value,
  options,
  allLabel = "All",
}: {
  name: string;
  label: string;
  value?: string;
  options: Array<{ value: string; label: string }>;
  allLabel?: string;
}) {
  return (
    <label className="flex flex-col gap-1 text-sm font-medium text-slate-700">
      {label}
      <select name={name} defaultValue={value ?? ""} className="rounded-lg border border-slate-300 px-3 py-2 font-normal">
        <option value="">{allLabel}</option>
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
    </label>
  );
}

/** Tabs as links (Main / Sub, Templates / Email Logs): each tab is a URL. */
export function TabLinks({ tabs, label }: { tabs: Array<{ to: string; label: ReactNode; current: boolean }>; label: string }) {
  return (
    <nav aria-label={label} className="flex gap-1 border-b border-slate-200">
      {tabs.map((tab) => (
        <Link
          key={tab.to}
          to={tab.to}
          aria-current={tab.current ? "page" : undefined}
          className={`-mb-px border-b-2 px-4 py-2 text-sm font-medium ${
            tab.current ? "border-brand-600 text-brand-700" : "border-transparent text-slate-600 hover:text-slate-900"
          }`}
        >
          {tab.label}
        </Link>
      ))}
    </nav>
  );
}
