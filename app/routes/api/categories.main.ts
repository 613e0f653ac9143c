import { listMainCategories } from "~/services/catalogue/categories.server.ts";
import type { Route } from "./+types/categories.main";
import { catalogueJson, publicFor, TEN_MINUTES } from "./catalogue.server.ts";

/** GET /api/categories/main: main categories with subcategories[] (cached 10 minutes, spec section 9). */
export async function loader({ request }: Route.LoaderArgs) {
  return catalogueJson(request, publicFor(TEN_MINUTES), () => listMainCategories());
}
