import { ServiceError } from "~/lib/errors.server.ts";
import { type AnimationListQuery, listAnimationCards } from "./animations.server.ts";
import type { CategoryTree } from "./categories.server.ts";
import { listNewAnimationCards, NEW_SHELF_SIZE } from "./claims.server.ts";
import type { AnimationCardDto, AnimationList } from "./types.ts";

// The home page's two lists: the "New" shelf and, below it, the whole catalogue, both newest
// first. The shelf is the head of the list, so the list starts where the shelf stops: no
// animation is shown twice on one screen (issue 45), and "Load More" (/home/cards) goes on from
// the same place.

export type HomeListQuery = Pick<AnimationListQuery, "category" | "page" | "limit" | "pages">;

export type HomeList = AnimationList<AnimationCardDto> & { newAnimations: AnimationCardDto[] };

/**
 * Pages `page`..`page + pages - 1` of the home list, and the "New" shelf above it. The list is
 * read NEW_SHELF_SIZE rows longer, beside the shelf rather than after it (no extra round trip),
 * and cut after the shelf's cards. A category filter hides the shelf (it belongs to the whole
 * catalogue), and a `?category=` that names no category lists nothing, where the API's list
 * answers 404.
 */
export async function listHomeCards(query: HomeListQuery, tree: CategoryTree): Promise<HomeList> {
  if (query.category) return { newAnimations: [], ...(await listCategoryCards(query, tree)) };
  const [newAnimations, list] = await Promise.all([listNewAnimationCards(tree), listAnimationCards({ ...query, readAhead: NEW_SHELF_SIZE }, tree)]);
  const onShelf = new Set(newAnimations.map((animation) => animation.id));
  const span = query.limit * (query.pages ?? 1);
  // On page 1 the rows cut are the shelf's own; the filter holds even while the two caches differ.
  const animations = list.animations
    .slice(newAnimations.length)
    .filter((animation) => !onShelf.has(animation.id))
    .slice(0, span);
  const total = Math.max(0, list.total - newAnimations.length);
  return { newAnimations, animations, total, hasMore: (query.page - 1) * query.limit + span < total };
}

async function listCategoryCards(query: HomeListQuery, tree: CategoryTree): Promise<AnimationList<AnimationCardDto>> {
  try {
    return await listAnimationCards(query, tree);
  } catch (error) {
    if (error instanceof ServiceError && error.status === 404) return { animations: [], hasMore: false, total: 0 };
    throw error;
  }
}
