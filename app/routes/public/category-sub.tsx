import { CardGrid } from "~/components/catalogue/animation-card.tsx";
import { CategoryHeader } from "~/components/catalogue/category-header.tsx";
import { CategoryErrorBoundary } from "~/components/catalogue/category-not-found.tsx";
import { CATEGORY_PAGES, SkeletonTemplate } from "~/components/catalogue/grid-skeleton.tsx";
import { LOAD_AS_DOCUMENT, STATIC_PAGE } from "~/lib/page-handle.ts";
import { SummaryCard } from "~/components/catalogue/summary-card.tsx";
import { asRouteError } from "~/lib/errors.server.ts";
import { EmptyState } from "~/components/ui/empty-state.tsx";
import { TextLink } from "~/components/ui/text-link.tsx";
import { pluralize } from "~/lib/format.ts";
import { pageTitle } from "~/lib/meta.ts";
import { getViewerAccess } from "~/services/licensing/access.server.ts";
import { CATEGORY_LIST_LIMIT, listAnimationSummaries } from "~/services/catalogue/animations.server.ts";
import { getCategoryByPath, getCategoryTree } from "~/services/catalogue/categories.server.ts";
import { pageHead, siteOf } from "~/lib/seo.ts";
import type { Route } from "./+types/category-sub";

// The page does not hydrate (decision 025): the static page script adds the layout's behaviour
// and the skeleton of 6 cards while another category's page loads (data-stand-in-for).
export const handle = STATIC_PAGE;
export const clientMiddleware = LOAD_AS_DOCUMENT;

// /category/{mainSlug}/{subSlug}: the subcategory screen.

export async function loader({ request, params }: Route.LoaderArgs) {
  const [tree, access] = await Promise.all([getCategoryTree(), getViewerAccess(request)]);
  const category = await getCategoryByPath(params.mainSlug, params.subSlug, tree).catch(asRouteError);
  const list = await listAnimationSummaries({ category: category.id, page: 1, limit: CATEGORY_LIST_LIMIT }, access, tree);
  return { category, animations: list.animations };
}

export const meta: Route.MetaFunction = ({ data: screen, matches }) =>
  screen
    ? pageHead(siteOf(matches), {
        title: screen.category.name,
        description: `${screen.category.name}: ${screen.category.description ? `${screen.category.description} ` : ""}${pluralize(screen.category.animationCount, "medical animation")}, each procedure explained step by step.`,
        // At most 50 animations on one page, no ?page=: the category has one URL.
        canonicalPath: `/category/${encodeURIComponent(screen.category.parent?.slug ?? "")}/${encodeURIComponent(screen.category.slug)}`,
      })
    : [{ title: pageTitle(matches, "Category Not Found") }];

export default function SubcategoryScreen({ loaderData: { category, animations }, params }: Route.ComponentProps) {
  const main = category.parent;
  return (
    <main className="mx-auto max-w-7xl px-4 py-10">
      <TextLink to={`/category/${encodeURIComponent(params.mainSlug)}`} className="text-sm">← Back to {main?.name ?? "category"}</TextLink>
      <CategoryHeader
        category={category}
        buyLabel="Buy Category Access"
        note={<span className="text-sm text-slate-600">Access all {category.animationCount} animations</span>}
        className="mt-3"
      />
      <section className="mt-10" aria-labelledby="animations-title" data-stand-in-for={CATEGORY_PAGES}>
        <h2 id="animations-title" className="mb-4 text-sm font-normal text-slate-500">
          {pluralize(category.animationCount, "animation")}
        </h2>
        {animations.length === 0 ? (
          <EmptyState title="No Animations Available" />
        ) : (
          <CardGrid>
            {animations.map((animation) => (
              <SummaryCard
                key={animation.id}
                animation={animation}
                href={`/category/${encodeURIComponent(params.mainSlug)}/${encodeURIComponent(params.subSlug)}/${encodeURIComponent(animation.slug || animation.id)}`}
                linkLabel="Watch"
              />
            ))}
          </CardGrid>
        )}
      </section>
      <SkeletonTemplate />
    </main>
  );
}

export const ErrorBoundary = CategoryErrorBoundary;
