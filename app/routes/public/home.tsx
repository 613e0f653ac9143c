import { AnimationCard, CardGrid } from "~/components/catalogue/animation-card.tsx";
import { SkeletonTemplate } from "~/components/catalogue/grid-skeleton.tsx";
import { FilterBar, hrefFor } from "~/components/catalogue/filter-bar.tsx";
import { ButtonLink } from "~/components/ui/button.tsx";
import { getViewerAccess, hasGlobalAccess } from "~/services/licensing/access.server.ts";
import { LOAD_AS_DOCUMENT, STATIC_PAGE } from "~/lib/page-handle.ts";
import { getHomePageSize } from "~/services/catalogue/animations.server.ts";
import { listHomeCards } from "~/services/catalogue/home-list.server.ts";
import { getCategoryTree, listMainCategories } from "~/services/catalogue/categories.server.ts";
import { getReviewCoverage } from "~/services/catalogue/medical-review.server.ts";
import { pageHead, siteStructuredData } from "~/lib/seo.ts";
import { siteOrigin } from "~/lib/seo.server.ts";
import { getLayoutData } from "~/services/site/content.server.ts";
import type { Route } from "./+types/home";

/** Without JavaScript, `?page=N` shows pages up to N, at most this many at once. */
const MAX_PAGES_PER_RENDER = 10;

function pageParam(value: string | null) {
  const n = Number(value);
  return Number.isInteger(n) && n >= 1 && n <= 100_000 ? n : 1;
}

// The home page does not hydrate (decision 025): it is whole as the server renders it, and the
// static page script (app/static-page) adds the list's "Load More" in place, the cards' hover
// previews, the header's menus and the toast's timing, without React on the page.
export const handle = STATIC_PAGE;
export const clientMiddleware = LOAD_AS_DOCUMENT;

export async function loader({ request, url }: Route.LoaderArgs) {
  const category = url.searchParams.get("category")?.trim() || null;
  const page = pageParam(url.searchParams.get("page"));
  const [access, tree, pageSize, reviews, layout] = await Promise.all([
    getViewerAccess(request),
    getCategoryTree(),
    getHomePageSize(),
    getReviewCoverage(),
    getLayoutData(),
  ]);
  // Pages 1..N for a no-JS visitor who followed "Load More" N-1 times (bounded), below the "New"
  // shelf, which they never repeat.
  const firstPage = Math.max(1, page - MAX_PAGES_PER_RENDER + 1);
  const list = await listHomeCards({ category: category ?? undefined, page: firstPage, limit: pageSize, pages: page - firstPage + 1 }, tree);
  const categories = (await listMainCategories(tree)).map(({ id, name, slug, subcategories }) => ({
    id,
    name,
    slug,
    subcategories: subcategories.map(({ id, name, slug }) => ({ id, name, slug })),
  }));
  // The review copy is worded here, on the server: the page's JavaScript carries no text builders.
  const copy = {
    title: reviews.all ? "Medanim | Doctor-Verified Medical Animations" : "Medanim | Medical Animations",
    headline: headline(reviews.all),
    reviewCount: reviewCount(reviews),
    premiumLine: premiumLine(reviews.all),
  };
  // Built here, on the server, so lib/seo.ts stays off the home page's first load (its JavaScript is measured).
  const site = { origin: siteOrigin(request), platformName: layout.platformName };
  const head = pageHead(
    site,
    {
      title: copy.title,
      fullTitle: true,
      description: `${copy.headline}.`,
      // "Load More" (?page=N) renders pages 1..N, and ?category= narrows the list to what its
      // category page shows: neither is a page of its own, so both name the home page.
      canonicalPath: "/",
      // Google wants a raster logo of at least 112 px: the 512 px icon (scripts/make-icons.ts).
      jsonLd: siteStructuredData(site, { logoPath: "/icon-512.png", searchPath: "/search?q=" }),
    },
  );
  return { premium: hasGlobalAccess(access), categories, category, page, firstPage, pageSize, copy, head, ...list };
}

// "Doctor-verified" is said of the library only while every published animation has a current
// medical review (docs/architecture.md, "Claims come from data"); otherwise the copy drops it.
const headline = (allReviewed: boolean) =>
  allReviewed ? "The World's Most Advanced Doctor-Verified Medical Animations" : "The World's Most Advanced Medical Animations";

const premiumLine = (allReviewed: boolean) =>
  allReviewed ? "Enjoy unlimited access to all doctor-verified medical animations" : "Enjoy unlimited access to every medical animation in the library";

// The head is built in the loader (see there): the meta function only hands it over.
export const meta: Route.MetaFunction = ({ data: loaderData }) => loaderData?.head ?? [{ title: "Medanim | Medical Animations" }];

/** The count behind the claim, from the review records. */
function reviewCount({ reviewed, published, all }: { reviewed: number; published: number; all: boolean }) {
  if (reviewed === 0) return null;
  const noun = published === 1 ? "animation" : "animations";
  return all
    ? `All ${published} ${noun} medically reviewed: each page names the doctor, the date and the next review.`
    : `${reviewed} of ${published} ${noun} medically reviewed: each of them names the doctor, the date and the next review.`;
}

export default function Home({ loaderData }: Route.ComponentProps) {
  const { headline, reviewCount, premiumLine } = loaderData.copy;
  return (
    <main className="mx-auto max-w-7xl px-4 py-10">
      <section className="flex flex-col items-start gap-4">
        <h1 className="max-w-4xl text-4xl font-bold tracking-tight sm:text-5xl">{headline}</h1>
        {reviewCount ? (
          <p className="text-slate-600" data-testid="review-count">
            {reviewCount}
          </p>
        ) : null}
        {loaderData.premium ? (
          <div>
            <h2 className="text-2xl font-semibold text-brand-700">Welcome to Your Premium Library</h2>
            <p className="mt-1 text-slate-600">{premiumLine}</p>
          </div>
        ) : (
          <ButtonLink to="/premium" size="lg">
            Get Premium Access
          </ButtonLink>
        )}
      </section>
      {loaderData.newAnimations.length > 0 ? (
        <section className="mt-10" aria-labelledby="new-title" data-testid="new-shelf">
          <h2 id="new-title" className="text-2xl font-bold tracking-tight">
            New
          </h2>
          <p className="mt-1 text-slate-600">Published in the last 30 days</p>
          <div className="mt-4">
            <CardGrid>
              {loaderData.newAnimations.map((animation, i) => (
                <AnimationCard key={animation.id} animation={animation} premium={loaderData.premium} priority={i === 0} />
              ))}
            </CardGrid>
          </div>
        </section>
      ) : null}
      <div className="mt-10">
        <FilterBar categories={loaderData.categories} active={loaderData.category} />
      </div>
      {/* The cards' titles are h3: this h2 keeps the outline in order (axe heading-order). */}
      {/* A filter link (or the logo) loads the home page again: its skeleton stands in meanwhile. */}
      <section className="mt-8" aria-labelledby="animations-title" data-stand-in-for="^/$">
        <h2 id="animations-title" className="sr-only">
          Animations
        </h2>
        {/* With no "New" shelf above it, the list leads the page: its first cover is fetched first. */}
        <AnimationPages {...loaderData} leadsPage={loaderData.newAnimations.length === 0} />
        <SkeletonTemplate />
      </section>
    </main>
  );
}

type ListProps = Route.ComponentProps["loaderData"] & { leadsPage: boolean };

/** The list up to page n, as the home page's address says it. */
const listQuery = (category: string | null, n: number) => `${category ? `category=${encodeURIComponent(category)}&` : ""}page=${n}`;

/**
 * Without JavaScript "Load More Animations" is a link to `?page=N+1` that lands on the first new
 * card (`#page-N+1`). With JavaScript (app/static-page/list.ts) the next page's cards come from
 * /home/cards and are appended in place, when the link comes within 300 px of the viewport or is
 * pressed, with skeleton cards from the template below while they load; the address then says
 * `?page=N`, so Back from an animation renders the same pages (and the browser restores the place).
 */
function AnimationPages({ animations, hasMore, premium, category, page, firstPage, pageSize, leadsPage }: ListProps) {
  if (animations.length === 0) {
    return <p className="rounded-xl border border-dashed border-slate-300 p-10 text-center text-slate-600">No animations found</p>;
  }
  return (
    <>
      {firstPage > 1 ? (
        <p className="mb-4 text-sm">
          <a href={hrefFor(category)} className="text-brand-700 hover:underline">
            Back to the newest animations
          </a>
        </p>
      ) : null}
      <CardGrid id="animation-list">
        {animations.map((animation, i) => (
          // The first card of each page is the target of the no-JavaScript "Load More" link.
          <AnimationCard
            key={animation.id}
            animation={animation}
            premium={premium}
            id={i % pageSize ? undefined : `page-${firstPage + i / pageSize}`}
            priority={leadsPage && i === 0}
          />
        ))}
      </CardGrid>
      <p id="animation-list-status" className="mt-6 text-center text-slate-600" role="status" hidden />
      {hasMore ? (
        <div className="mt-8 flex justify-center">
          <a
            id="load-more"
            href={`/?${listQuery(category, page + 1)}#page-${page + 1}`}
            className="rounded-lg bg-white px-5 py-2.5 text-sm font-semibold text-slate-800 shadow-sm ring-1 ring-slate-300 hover:bg-slate-50"
          >
            Load More Animations
          </a>
        </div>
      ) : null}
    </>
  );
}
