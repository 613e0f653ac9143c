import { z } from "zod";
import { apiRoute, endpoint } from "~/lib/api-route.server.ts";
import { anyone } from "~/services/auth/guards.server.ts";
import { publicFor } from "~/lib/http-cache.server.ts";
import { listFaqs } from "~/services/site/content.server.ts";
import { Faq } from "~/validation/api-responses.ts";

// GET /api/faqs?category={id or slug}&search={term}: active FAQs with categoryName, answers as
// sanitised HTML. A short public cache: the same for everyone, and view counts may lag a minute.
const FaqQuerySchema = z.object({
  category: z.string().optional().describe("a category's id or slug"),
  search: z.string().optional().describe("words in the question or answer, any case"),
});

export const loader = apiRoute({
  GET: endpoint({
    summary: "Active FAQs, by category and search",
    description:
      "The active FAQs, with their category's name and the answers as sanitised HTML, filtered by category (id or slug) and search words. The same for every caller (cached a minute). Changes nothing.",
    auth: anyone,
    response: z.array(Faq),
    cache: publicFor(60),
    query: FaqQuerySchema,
    run: ({ query }) => listFaqs(query),
  }),
});
export const action = loader;
