import { renderToString } from "react-dom/server";
import { MemoryRouter } from "react-router";
import { AnimationCard } from "~/components/catalogue/animation-card.tsx";
import { cachedText, viewerPolicy } from "~/lib/http-cache.server.ts";
import { getViewerAccess, hasGlobalAccess } from "~/services/licensing/access.server.ts";
import { getHomePageSize } from "~/services/catalogue/animations.server.ts";
import { listHomeCards } from "~/services/catalogue/home-list.server.ts";
import { getCategoryTree } from "~/services/catalogue/categories.server.ts";
import type { Route } from "./+types/home-cards";

/**
 * One page of the home list's cards as HTML, for the home page's script (app/static-page): the
 * page does not hydrate, so "Load More" and the scroll observer append the server's own card
 * markup (the same component the page renders) instead of building cards in the browser.
 * `?category=` and `?page=` as the home page takes them (the list after the "New" shelf, as there).
 * The wrapper says whether a page follows.
 */
export async function loader({ request, url }: Route.LoaderArgs) {
  const category = url.searchParams.get("category")?.trim() || undefined;
  const page = Number(url.searchParams.get("page"));
  if (!Number.isInteger(page) || page < 1 || page > 100_000) {
    return new Response("page must be a whole number from 1", { status: 400, headers: { "Content-Type": "text/plain; charset=utf-8" } });
  }
  const [access, tree, pageSize] = await Promise.all([getViewerAccess(request), getCategoryTree(), getHomePageSize()]);
  const list = await listHomeCards({ category, page, limit: pageSize }, tree);
  const premium = hasGlobalAccess(access);
  const html = renderToString(
    // The cards' links are <Link>s: rendered here as the plain anchors the page itself has.
    <MemoryRouter>
      <div data-has-more={list.hasMore ? "true" : "false"}>
        {list.animations.map((animation, i) => (
          <AnimationCard key={animation.id} animation={animation} premium={premium} id={i === 0 ? `page-${page}` : undefined} />
        ))}
      </div>
    </MemoryRouter>,
  );
  const response = cachedText(request, html, "text/html; charset=utf-8", viewerPolicy(request, 60));
  // A piece of a page, not a page: never in a search index.
  response.headers.set("X-Robots-Tag", "noindex");
  return response;
}
