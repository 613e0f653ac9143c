import type { ReactNode } from "react";
import { EmptyState } from "~/components/ui/empty-state.tsx";

export type Column<Row> = {
  header: string;
  cell: (row: Row) => ReactNode;
  /** Right-aligned figures, hidden-on-phone details. */
  className?: string;
};

/**
 * A server-paged table: the rows of one page, a caption for screen readers, and the product's empty
 * text when there is nothing ("No animations found"). Paging and filters are links and GET
 * forms around it (Pager, FilterForm), so all of it works without JavaScript.
 */
export function DataTable<Row>({
  caption,
  columns,
  rows,
  rowKey,
  empty,
}: {
  caption: string;
  columns: Array<Column<Row>>;
  rows: Row[];
  rowKey: (row: Row) => string;
  empty: ReactNode;
}) {
  if (rows.length === 0) return <EmptyState title={empty} />;
  return (
    // A phone scrolls the table, not the page: the region takes keyboard focus so the arrow keys
    // can scroll it too (relative: the caption's sr-only box stays inside the clip), and says so.
    <div role="region" aria-label={caption} tabIndex={0} className="relative overflow-x-auto rounded-2xl border border-slate-200 bg-white shadow-sm">
      <p aria-hidden="true" className="sticky left-0 px-4 pt-3 text-xs text-slate-500 sm:hidden">
        Scroll sideways for more columns →
      </p>
      <table className="min-w-full divide-y divide-slate-200 text-sm">
        <caption className="sr-only">{caption}</caption>
        <thead className="bg-slate-50 text-left text-xs font-semibold tracking-wide text-slate-600 uppercase">
          <tr>
            {columns.map((column) => (
              <th key={column.header} scope="col" className={`px-4 py-3 ${column.className ?? ""}`}>
                {column.header}
              </th>
            ))}
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {rows.map((row) => (
            <tr key={rowKey(row)} className="align-top hover:bg-slate-50">
              {columns.map((column) => (
                <td key={column.header} className={`px-4 py-3 ${column.className ?? ""}`}>
                  {column.cell(row)}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/**
 * For a value a member typed as one long word (an e-mail address): it keeps 10rem, and beyond
 * that breaks anywhere rather than widen its column, so one long address cannot push a row's last
 * columns, and their controls, out of the admin's 1280 px view.
 */
export const LONG_VALUE = "min-w-40 wrap-anywhere";

const BADGE_TONES = {
  green: "bg-green-50 text-green-800 ring-green-600/20",
  red: "bg-red-50 text-red-800 ring-red-600/20",
  yellow: "bg-amber-50 text-amber-800 ring-amber-600/20",
  blue: "bg-blue-50 text-blue-800 ring-blue-600/20",
  grey: "bg-slate-100 text-slate-700 ring-slate-500/20",
} as const;

/** A status word in a coloured pill (Active/Inactive, Published/Draft, sent/failed). */
export function Badge({ tone = "grey", children }: { tone?: keyof typeof BADGE_TONES; children: ReactNode }) {
  return <span className={`inline-flex items-center rounded-full px-2 py-0.5 text-xs font-medium ring-1 ring-inset ${BADGE_TONES[tone]}`}>{children}</span>;
}

export function ActiveBadge({ active }: { active: boolean }) {
  return <Badge tone={active ? "green" : "grey"}>{active ? "Active" : "Inactive"}</Badge>;
}
