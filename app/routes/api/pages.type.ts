import { z } from "zod";
import { apiRoute } from "~/lib/api-route.server.ts";
import { anyone } from "~/services/auth/guards.server.ts";
import { notFound } from "~/lib/errors.server.ts";
import { publicFor } from "~/lib/http-cache.server.ts";
import { listPublishedPages } from "~/services/site/content.server.ts";
import { PAGE_TYPES } from "~/validation/content.ts";
import { PageLink } from "~/validation/api-responses.ts";

// GET /api/pages/type/legal: the footer's legal links (id, slug, title of published pages).
// A minute: a newly published page reaches the footer quickly without a query per visit.
export const loader = apiRoute({
  GET: {
    summary: "Published pages of a type (legal: the footer's links)",
    description:
      "The published pages of one type (legal: the footer's links), with id, slug and title. 404 for an unknown type. Cached a minute. Changes nothing.",
    auth: anyone,
    response: z.array(PageLink),
    cache: publicFor(60),
    run: ({ params }) => {
      const type = PAGE_TYPES.find((t) => t === params.type);
      if (!type) throw notFound("Page type not found");
      return listPublishedPages(type);
    },
  },
});
export const action = loader;
