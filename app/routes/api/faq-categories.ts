import { z } from "zod";
import { apiRoute } from "~/lib/api-route.server.ts";
import { anyone } from "~/services/auth/guards.server.ts";
import { publicFor } from "~/lib/http-cache.server.ts";
import { listFaqCategories } from "~/services/site/content.server.ts";
import { FaqCategory } from "~/validation/api-responses.ts";

// GET /api/faq-categories: the Help Center's filter.
export const loader = apiRoute({
  GET: {
    summary: "FAQ categories, for the Help Center's filter",
    description: "The FAQ categories, for the Help Center's filter. The same for every caller (cached a minute). Changes nothing.",
    auth: anyone,
    response: z.array(FaqCategory),
    cache: publicFor(60),
    run: () => listFaqCategories(),
  },
});
export const action = loader;
