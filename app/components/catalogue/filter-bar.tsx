import { Link } from "~/components/ui/link.tsx";

export type FilterCategory = { id: string; name: string; slug: string; subcategories: Array<{ id: string; name: string; slug: string }> };

const BASE = "rounded-full px-4 py-1.5 text-sm font-medium ring-1 transition";
const ON = "bg-brand-600 text-white ring-brand-600";
const OFF = "bg-white text-slate-700 ring-slate-300 hover:bg-slate-50";

/** `?category=` links (any choice starts again at page 1: the page parameter is dropped). */
export function hrefFor(slug: string | null) {
  return slug ? `/?category=${encodeURIComponent(slug)}` : "/";
}

/**
 * The home filter bar: "All Categories" and one link per main category;
 * the chosen main category reveals "All {main} Procedures" and its subcategories; choosing the
 * active main category again clears the filter. Links, so it works without JavaScript.
 */
export function FilterBar({ categories, active }: { categories: FilterCategory[]; active: string | null }) {
  const activeMain = categories.find((c) => c.slug === active) ?? categories.find((c) => c.subcategories.some((s) => s.slug === active)) ?? null;
  return (
    <nav aria-label="Filter by category" className="flex flex-col gap-3">
      <ul className="flex flex-wrap gap-2">
        <li>
          <Link to="/" className={`${BASE} ${activeMain ? OFF : ON}`} aria-current={activeMain ? undefined : "page"} preventScrollReset>
            All Categories
          </Link>
        </li>
        {categories.map((main) => {
          const isActive = activeMain?.id === main.id;
          return (
            <li key={main.id}>
              <Link
                to={hrefFor(isActive ? null : main.slug)}
                className={`${BASE} ${isActive ? ON : OFF}`}
                aria-current={isActive ? "true" : undefined}
                preventScrollReset
              >
                {main.name}
              </Link>
            </li>
          );
        })}
      </ul>
      {activeMain ? (
        <ul className="flex flex-wrap gap-2" aria-label={`${activeMain.name} subcategories`}>
          <li>
            <Link
              to={hrefFor(activeMain.slug)}
              className={`${BASE} ${active === activeMain.slug ? ON : OFF}`}
              aria-current={active === activeMain.slug ? "page" : undefined}
              preventScrollReset
            >
              All {activeMain.name} Procedures
            </Link>
          </li>
          {activeMain.subcategories.map((sub) => (
            <li key={sub.id}>
              <Link
                to={hrefFor(sub.slug)}
                className={`${BASE} ${active === sub.slug ? ON : OFF}`}
                aria-current={active === sub.slug ? "page" : undefined}
                preventScrollReset
              >
                {sub.name}
              </Link>
            </li>
          ))}
        </ul>
      ) : null}
    </nav>
  );
}
