import { getCategoryByPath } from "~/services/catalogue/categories.server.ts";
import type { Route } from "./+types/categories.path";
import { catalogueJson, FIVE_MINUTES, publicFor } from "./catalogue.server.ts";

/**
 * GET /api/categories/path/{mainSlug}: the main category with subcategories;
 * GET /api/categories/path/{mainSlug}/{subSlug}: that subcategory (with its id).
 */
export async function loader({ request, params }: Route.LoaderArgs) {
  return catalogueJson(request, publicFor(FIVE_MINUTES), () => getCategoryByPath(params.mainSlug, params.subSlug));
}
