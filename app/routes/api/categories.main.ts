import { z } from "zod";
import { apiRoute } from "~/lib/api-route.server.ts";
import { anyone } from "~/services/auth/guards.server.ts";
import { publicFor } from "~/lib/http-cache.server.ts";
import { listMainCategories } from "~/services/catalogue/categories.server.ts";
import { TEN_MINUTES } from "./catalogue.server.ts";
import { CategoryDetail } from "~/validation/api-responses.ts";

/** GET /api/categories/main: main categories with subcategories[] (cached 10 minutes). */
export const loader = apiRoute({
  GET: {
    summary: "Main categories with their subcategories",
    description:
      "The main categories, each with its subcategories, as the catalogue's menu shows them. The same for every caller (cached 10 minutes). Changes nothing.",
    auth: anyone,
    response: z.array(CategoryDetail),
    cache: publicFor(TEN_MINUTES),
    run: () => listMainCategories(),
  },
});
export const action = loader;
