import { AnimationCard, CardGrid } from "~/components/catalogue/animation-card.tsx";
import { SkeletonTemplate } from "~/components/catalogue/grid-skeleton.tsx";
import { Button } from "~/components/ui/button.tsx";
import { EmptyState } from "~/components/ui/empty-state.tsx";
import { Form } from "~/components/ui/form.tsx";
import { pluralize } from "~/lib/format.ts";
import { getViewerAccess, hasGlobalAccess } from "~/services/licensing/access.server.ts";
import { listAnimationCards } from "~/services/catalogue/animations.server.ts";
import { getCategoryTree } from "~/services/catalogue/categories.server.ts";
import { LOAD_AS_DOCUMENT, staticPageWith } from "~/lib/page-handle.ts";
import { pageHead, siteOf } from "~/lib/seo.ts";
import type { Route } from "./+types/search";

const PAGE_SIZE = 24;
const MAX_PAGES_PER_RENDER = 10;
/** The search term is debounced by 300 ms. */
const DEBOUNCE_MS = 300;

// The page does not hydrate: its script searches as the term is typed (decision 025).
export const handle = staticPageWith("search");
export const clientMiddleware = LOAD_AS_DOCUMENT;

export async function loader({ request, url }: Route.LoaderArgs) {
  const q = (url.searchParams.get("q") ?? "").trim().slice(0, 100);
  const pageValue = Number(url.searchParams.get("page"));
  const page = Number.isInteger(pageValue) && pageValue >= 1 && pageValue <= 10_000 ? pageValue : 1;
  // A blank term makes no query at all.
  if (!q) return { q, page, firstPage: 1, premium: false, results: null };
  const [access, tree] = await Promise.all([getViewerAccess(request), getCategoryTree()]);
  const firstPage = Math.max(1, page - MAX_PAGES_PER_RENDER + 1);
  const results = await listAnimationCards({ search: q, page: firstPage, limit: PAGE_SIZE, pages: page - firstPage + 1 }, tree);
  return { q, page, firstPage, premium: hasGlobalAccess(access), results };
}

export const meta: Route.MetaFunction = ({ data: loaderData, matches }) =>
  pageHead(siteOf(matches), {
    title: loaderData?.q ? `Search: ${loaderData.q}` : "Search",
    description: loaderData?.q
      ? `Medical animations matching “${loaderData.q}”: procedures, doctors and categories.`
      : "Search the medical animation library by procedure, doctor or category.",
    // The search page itself is a page of the site; a result list is not one for the index, but
    // its links lead to the animations.
    canonicalPath: "/search",
    robots: loaderData?.q ? "noindex, follow" : "index",
  });

function searchHref(q: string, page = 1) {
  return `/search?${new URLSearchParams(page > 1 ? { q, page: String(page) } : { q })}`;
}

export default function Search({ loaderData: { q, page, firstPage, premium, results } }: Route.ComponentProps) {
  return (
    <main className="mx-auto max-w-7xl px-4 py-10">
      <h1 className="text-3xl font-bold tracking-tight">Search Animations</h1>
      {/* The page's script searches as the term is typed (app/static-page/search-page.ts). */}
      <Form method="get" action="/search" role="search" className="mt-6 flex max-w-2xl gap-3" data-search-as-you-type={DEBOUNCE_MS}>
        <label htmlFor="search-q" className="sr-only">
          Search animations
        </label>
        <input
          id="search-q"
          type="search"
          name="q"
          defaultValue={q}
          maxLength={100}
          placeholder="Search by procedure, anatomy or title..."
          autoComplete="off"
          className="block w-full rounded-lg border border-slate-300 bg-white px-4 py-2.5 shadow-sm focus:border-brand-500 focus:ring-2 focus:ring-brand-100 focus:outline-none"
        />
        <Button type="submit">Search</Button>
      </Form>

      <section id="search-results" className="mt-8" aria-labelledby="results-title" aria-busy="false">
        <h2 id="results-title" className="sr-only">
          Search results
        </h2>
        <p className="text-slate-600" data-search-prompt hidden={results !== null}>
          Type a procedure, an anatomy term or a title to find animations.
        </p>
        <div data-search-found>{results ? <Results q={q} page={page} firstPage={firstPage} premium={premium} results={results} /> : null}</div>
        <SkeletonTemplate />
      </section>
    </main>
  );
}

type ResultsProps = Pick<Route.ComponentProps["loaderData"], "q" | "page" | "firstPage" | "premium"> & {
  results: NonNullable<Route.ComponentProps["loaderData"]["results"]>;
};

function Results({ q, page, firstPage, premium, results }: ResultsProps) {
  if (results.animations.length === 0) return <EmptyState title="No Results Found" message="Try another term, or browse all animations on the home page." />;
  return (
    <>
      {results.suggestion ? (
        <div className="mb-4 text-sm text-slate-600" role="status">
          <p className="text-base text-slate-800">
            Did you mean{" "}
            <a href={searchHref(results.suggestion)} className="font-semibold text-brand-700 italic underline hover:text-brand-800">
              {results.suggestion}
            </a>
            ?
          </p>
          <p className="mt-1">
            Showing {pluralize(results.total, "result")} for “{results.suggestion}”: nothing matched “{q}”.
          </p>
        </div>
      ) : (
        <p className="mb-4 text-sm text-slate-600" role="status">
          {pluralize(results.total, "result")} for “{q}”
        </p>
      )}
      <CardGrid>
        {results.animations.map((animation, i) => (
          <AnimationCard
            key={animation.id}
            animation={animation}
            premium={premium}
            priority={i === 0}
            // "More Results" leads to the first card of the page it adds.
            id={i > 0 && i % PAGE_SIZE === 0 ? `page-${firstPage + i / PAGE_SIZE}` : undefined}
          />
        ))}
      </CardGrid>
      {results.hasMore ? (
        <div className="mt-8 flex justify-center">
          <a
            href={`${searchHref(q, page + 1)}#page-${page + 1}`}
            className="rounded-lg bg-white px-5 py-2.5 text-sm font-semibold text-slate-800 shadow-sm ring-1 ring-slate-300 hover:bg-slate-50"
          >
            More Results
          </a>
        </div>
      ) : null}
    </>
  );
}
