import { apiRoute } from "~/lib/api-route.server.ts";
import { publicFor } from "~/lib/http-cache.server.ts";
import { listFaqs } from "~/services/content.server.ts";

// GET /api/faqs?category={id or slug}&search={term}: active FAQs with categoryName, answers as
// sanitised HTML. A short public cache: the same for everyone, and view counts may lag a minute.
export const loader = apiRoute({
  GET: {
    cache: publicFor(60),
    run: ({ url }) => listFaqs({ category: url.searchParams.get("category"), search: url.searchParams.get("search") }),
  },
});
export const action = loader;
