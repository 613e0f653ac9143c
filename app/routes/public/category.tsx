import { CategoryHeader } from "~/components/catalogue/category-header.tsx";
import { CategoryErrorBoundary } from "~/components/catalogue/category-not-found.tsx";
import { CATEGORY_PAGES, SkeletonTemplate } from "~/components/catalogue/grid-skeleton.tsx";
import { LOAD_AS_DOCUMENT, STATIC_PAGE } from "~/lib/page-handle.ts";
import { SummaryCard } from "~/components/catalogue/summary-card.tsx";
import { TextLink } from "~/components/ui/text-link.tsx";
import { animationHref, CardGrid, Cover } from "~/components/catalogue/animation-card.tsx";
import { ButtonLink } from "~/components/ui/button.tsx";
import { asRouteError } from "~/lib/errors.server.ts";
import { EmptyState } from "~/components/ui/empty-state.tsx";
import { Section } from "~/components/ui/section.tsx";
import { formatYearlyPrice, pluralize } from "~/lib/format.ts";
import { pageTitle } from "~/lib/meta.ts";
import type { AnimationSummaryDto, CategoryDetailDto } from "~/services/catalogue/types.ts";
import { getViewerAccess } from "~/services/licensing/access.server.ts";
import { CATEGORY_LIST_LIMIT, listAnimationSummaries } from "~/services/catalogue/animations.server.ts";
import { getCategory, getCategoryTree } from "~/services/catalogue/categories.server.ts";
import { pageHead, siteOf } from "~/lib/seo.ts";
import type { Route } from "./+types/category";

// The page does not hydrate (decision 025): the static page script adds the layout's behaviour
// and the skeleton of 6 cards while another category's page loads (data-stand-in-for).
export const handle = STATIC_PAGE;
export const clientMiddleware = LOAD_AS_DOCUMENT;

// /category/{slug}: a main category shows its screen (Specialties); a subcategory shows the
// public category listing.

type Screen =
  | { kind: "main"; category: CategoryDetailDto }
  | { kind: "listing"; category: CategoryDetailDto; animations: AnimationSummaryDto[] };

export async function loader({ request, params }: Route.LoaderArgs): Promise<Screen> {
  const tree = await getCategoryTree();
  const category = await getCategory(params.slug, tree).catch(asRouteError);
  if (category.parentId === null) return { kind: "main", category };
  const access = await getViewerAccess(request);
  const list = await listAnimationSummaries({ category: category.id, page: 1, limit: CATEGORY_LIST_LIMIT }, access, tree);
  return { kind: "listing", category, animations: list.animations };
}

export const meta: Route.MetaFunction = ({ data: screen, matches }) =>
  screen
    ? pageHead(siteOf(matches), {
        title: screen.category.name,
        description: categoryDescription(screen),
        // At most 50 animations on one page, no ?page=: the category has one URL. A subcategory
        // asked for by its own slug is the listing of /category/{main}/{sub}.
        canonicalPath: screen.category.parent
          ? `/category/${encodeURIComponent(screen.category.parent.slug)}/${encodeURIComponent(screen.category.slug)}`
          : `/category/${encodeURIComponent(screen.category.slug)}`,
      })
    : [{ title: pageTitle(matches, "Category Not Found") }];

/** The category's own text, then what the page lists: a main category its subcategories, a listing its animations. */
function categoryDescription({ kind, category }: Screen) {
  const lists =
    kind === "main" && category.subcategories.length
      ? `Procedures: ${category.subcategories.map((sub) => sub.name).join(", ")}.`
      : `${pluralize(category.animationCount, "medical animation")}, each procedure explained step by step.`;
  return `${category.name}: ${category.description ? `${category.description} ` : ""}${lists}`;
}

export default function CategoryScreen({ loaderData }: Route.ComponentProps) {
  return loaderData.kind === "main" ? (
    <MainCategory category={loaderData.category} />
  ) : (
    <CategoryListing category={loaderData.category} animations={loaderData.animations} />
  );
}

function MainCategory({ category }: { category: CategoryDetailDto }) {
  return (
    <main className="mx-auto max-w-7xl px-4 py-10">
      <CategoryHeader
        category={category}
        buyLabel="Buy Full Access"
        badge={<span className="rounded-full bg-brand-600 px-3 py-0.5 text-xs font-semibold text-white">Complete Access</span>}
      />
      <Section id="specialties" title="Specialties" className="mt-10">
        <div className="mt-6" data-stand-in-for={CATEGORY_PAGES}>
          {category.subcategories.length === 0 ? (
            <EmptyState title="No Specialties Available" />
          ) : (
            <CardGrid>
              {category.subcategories.map((sub) => (
                <article key={sub.id} className="flex flex-col gap-3 rounded-xl border border-slate-200 bg-white p-5 shadow-sm" data-testid="specialty-card">
                  <div className="flex items-start justify-between gap-3">
                    <h3 className="text-lg font-semibold">{sub.name}</h3>
                    {sub.yearlyPrice !== null ? (
                      <span className="whitespace-nowrap text-sm font-semibold text-brand-700">{formatYearlyPrice(sub.yearlyPrice)}</span>
                    ) : null}
                  </div>
                  {sub.description ? <p className="text-sm text-slate-600">{sub.description}</p> : null}
                  <p className="text-sm text-slate-500">{pluralize(sub.animationCount, "animation")}</p>
                  <ButtonLink
                    to={`/category/${encodeURIComponent(category.slug)}/${encodeURIComponent(sub.slug)}`}
                    variant="secondary"
                    className="mt-auto"
                    aria-label={`View Animations: ${sub.name}`}
                  >
                    View Animations
                  </ButtonLink>
                </article>
              ))}
            </CardGrid>
          )}
        </div>
      </Section>
      <SkeletonTemplate />
    </main>
  );
}

function CategoryListing({ category, animations }: { category: CategoryDetailDto; animations: AnimationSummaryDto[] }) {
  return (
    <main className="mx-auto max-w-7xl px-4 py-10">
      {category.parent ? (
        <TextLink to={`/category/${encodeURIComponent(category.parent.slug)}`} className="text-sm">← {category.parent.name}</TextLink>
      ) : null}
      <header className="mt-3 flex flex-col gap-6 md:flex-row md:items-center">
        {category.thumbnail ? (
          <div className="relative aspect-video w-full overflow-hidden rounded-xl md:w-64">
            <Cover src={category.thumbnail} sizes="(min-width: 768px) 256px, 94vw" priority />
          </div>
        ) : null}
        <div>
          <h1 className="text-4xl font-bold tracking-tight">{category.name}</h1>
          {category.description ? <p className="mt-3 max-w-3xl text-lg text-slate-600">{category.description}</p> : null}
          <div className="mt-4 flex flex-wrap gap-2">
            <span className="rounded-full bg-slate-200 px-3 py-1 text-sm font-medium text-slate-800">
              {pluralize(category.animationCount, "animation")}
            </span>
            {category.yearlyPrice !== null ? (
              <span className="rounded-full bg-brand-100 px-3 py-1 text-sm font-semibold text-brand-700">
                Category License: {formatYearlyPrice(category.yearlyPrice)}
              </span>
            ) : null}
          </div>
        </div>
      </header>
      <section className="mt-10" aria-label="Animations" data-stand-in-for={CATEGORY_PAGES}>
        {animations.length === 0 ? (
          <EmptyState title="No animations found in this category." action={<ButtonLink to="/">Browse All Categories</ButtonLink>} />
        ) : (
          <CardGrid>
            {animations.map((animation) => (
              <SummaryCard key={animation.id} animation={animation} href={animationHref(animation)} linkLabel="Watch Preview" showPremium showViews />
            ))}
          </CardGrid>
        )}
      </section>
      <SkeletonTemplate />
    </main>
  );
}

export const ErrorBoundary = CategoryErrorBoundary;
