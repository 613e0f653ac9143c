import { getCategory } from "~/services/catalogue/categories.server.ts";
import type { Route } from "./+types/categories.slug";
import { catalogueJson, FIVE_MINUTES, publicFor } from "./catalogue.server.ts";

/** GET /api/categories/{slugOrId}: the category with its parent and subcategories. */
export async function loader({ request, params }: Route.LoaderArgs) {
  return catalogueJson(request, publicFor(FIVE_MINUTES), () => getCategory(params.slugOrId));
}
