import { AnimationCardSkeleton, CardGrid } from "./animation-card.tsx";

export function GridSkeleton({ count = 6 }: { count?: number }) {
  return (
    <CardGrid>
      {Array.from({ length: count }, (_, i) => (
        <AnimationCardSkeleton key={i} />
      ))}
    </CardGrid>
  );
}

/** Main and subcategory screens' paths: their regions stand in for another category's page. */
export const CATEGORY_PAGES = "^/category/[^/]+(?:/[^/]+)?/?$";

/**
 * The loading grid a page that does not hydrate keeps for its script (app/static-page): five of
 * its cards under the home list while its next page loads, the whole grid in place of a region
 * marked `data-stand-in-for` while the page a link leads to loads.
 */
export function SkeletonTemplate() {
  return (
    <template id="skeleton-grid">
      <GridSkeleton />
    </template>
  );
}
