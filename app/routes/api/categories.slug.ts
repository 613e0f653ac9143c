import { apiRoute } from "~/lib/api-route.server.ts";
import { publicFor } from "~/lib/http-cache.server.ts";
import { getCategory } from "~/services/catalogue/categories.server.ts";
import { FIVE_MINUTES } from "./catalogue.server.ts";

/** GET /api/categories/{slugOrId}: the category with its parent and subcategories. */
export const loader = apiRoute({ GET: { cache: publicFor(FIVE_MINUTES), run: ({ params }) => getCategory(params.slugOrId!) } });
export const action = loader;
