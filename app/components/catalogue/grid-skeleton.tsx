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

/**
 * The skeleton card a page that does not hydrate keeps for its script (app/static-page): five
 * under the home list while its next page loads, six in place of a region marked
 * `data-stand-in-for` while the page a link leads to loads.
 */
/** Main and subcategory screens' paths: their regions stand in for another category's page. */
export const CATEGORY_PAGES = "^/category/[^/]+(?:/[^/]+)?/?$";

export function SkeletonTemplate() {
  return (
    <template id="card-skeleton">
      <AnimationCardSkeleton />
    </template>
  );
}
