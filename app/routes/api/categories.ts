import { apiRoute } from "~/lib/api-route.server.ts";
import { publicFor } from "~/lib/http-cache.server.ts";
import { listCategories } from "~/services/catalogue/categories.server.ts";
import { FIVE_MINUTES } from "./catalogue.server.ts";

/** GET /api/categories: every active category, flat, with parentId and animationCount. */
export const loader = apiRoute({ GET: { cache: publicFor(FIVE_MINUTES), run: () => listCategories() } });
export const action = loader;
