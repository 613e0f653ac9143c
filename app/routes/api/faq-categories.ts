import { apiRoute } from "~/lib/api-route.server.ts";
import { publicFor } from "~/lib/http-cache.server.ts";
import { listFaqCategories } from "~/services/content.server.ts";

// GET /api/faq-categories: the Help Center's filter.
export const loader = apiRoute({ GET: { cache: publicFor(60), run: () => listFaqCategories() } });
export const action = loader;
