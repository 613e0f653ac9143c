import { listCategories } from "~/services/catalogue/categories.server.ts";
import type { Route } from "./+types/categories";
import { catalogueJson, FIVE_MINUTES, publicFor } from "./catalogue.server.ts";

/** GET /api/categories: every active category, flat, with parentId and animationCount. */
export async function loader({ request }: Route.LoaderArgs) {
  return catalogueJson(request, publicFor(FIVE_MINUTES), () => listCategories());
}
