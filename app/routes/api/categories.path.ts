import { apiRoute } from "~/lib/api-route.server.ts";
import { anyone } from "~/services/auth/guards.server.ts";
import { publicFor } from "~/lib/http-cache.server.ts";
import { getCategoryByPath } from "~/services/catalogue/categories.server.ts";
import { FIVE_MINUTES } from "./catalogue.server.ts";
import { CategoryDetail } from "~/validation/api-responses.ts";

/**
 * GET /api/categories/path/{mainSlug}: the main category with subcategories;
 * GET /api/categories/path/{mainSlug}/{subSlug}: that subcategory (with its id).
 */
export const loader = apiRoute({
  GET: {
    summary: "A category by its path: the main category, or its subcategory",
    description:
      "A category found by its URL path: the main category (with its subcategories) for one segment, the subcategory for two. 404 when either slug is unknown. Changes nothing.",
    auth: anyone,
    response: CategoryDetail,
    cache: publicFor(FIVE_MINUTES),
    run: ({ params }) => getCategoryByPath(params.mainSlug!, params.subSlug),
  },
});
export const action = loader;
