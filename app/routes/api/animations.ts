import { apiError } from "~/lib/api.server.ts";
import { getViewerAccess } from "~/services/access.server.ts";
import { getHomePageSize, listAnimationCards, listAnimations } from "~/services/catalogue/animations.server.ts";
import { AnimationListQuerySchema } from "~/validation/catalogue.ts";
import type { Route } from "./+types/animations";
import { catalogueJson, FIVE_MINUTES, publicFor, viewerPolicy } from "./catalogue.server.ts";

/**
 * GET /api/animations?category=&search=&page=&limit=&light= → `{ animations, hasMore, total }`.
 * `light=true` (the home page) carries cards without any access-dependent field, so it is
 * public; the full list is shaped for the caller.
 */
export async function loader({ request, url }: Route.LoaderArgs) {
  const params = Object.fromEntries([...url.searchParams].filter(([, v]) => v !== ""));
  const parsed = AnimationListQuerySchema.safeParse(params);
  if (!parsed.success) return apiError(parsed.error.issues[0]?.message ?? "Invalid query", 400);
  // Without a limit, the home page size (setting homepage_animations_per_page, default 6).
  const { category, search, page = 1, light } = parsed.data;
  const limit = parsed.data.limit ?? (await getHomePageSize());
  const query = { category, search, page, limit };
  if (light === "true" || light === "1") {
    return catalogueJson(request, publicFor(FIVE_MINUTES), () => listAnimationCards(query));
  }
  return catalogueJson(request, viewerPolicy(request, FIVE_MINUTES), async () => listAnimations(query, await getViewerAccess(request)), {
    viewerDependent: true,
  });
}
