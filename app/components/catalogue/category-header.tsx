import type { ReactNode } from "react";
import { ButtonLink } from "~/components/ui/button.tsx";
import { formatYearlyPrice } from "~/lib/format.ts";

/**
 * The heading of a category screen: name and description, and, when the category has a
 * yearly price, the purchase box leading to its checkout. `badge` and `note` are what the
 * main and subcategory screens add around the price.
 */
export function CategoryHeader({
  category,
  buyLabel,
  badge,
  note,
  className = "",
}: {
  category: { name: string; slug: string; description: string | null; yearlyPrice: number | null };
  buyLabel: string;
  badge?: ReactNode;
  note?: ReactNode;
  className?: string;
}) {
  return (
    <header className={`flex flex-col gap-4 md:flex-row md:items-end md:justify-between ${className}`}>
      <div>
        <h1 className="text-4xl font-bold tracking-tight">{category.name}</h1>
        {category.description ? <p className="mt-3 max-w-3xl text-lg text-slate-600">{category.description}</p> : null}
      </div>
      {category.yearlyPrice !== null ? (
        <div className="flex flex-col items-start gap-2 rounded-2xl border border-brand-100 bg-brand-50 p-4 md:items-end">
          {badge}
          <span className="text-2xl font-bold">{formatYearlyPrice(category.yearlyPrice)}</span>
          <ButtonLink to={`/purchase/category/${encodeURIComponent(category.slug)}`}>{buyLabel}</ButtonLink>
          {note}
        </div>
      ) : null}
    </header>
  );
}
