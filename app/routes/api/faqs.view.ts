import { z } from "zod";
import { apiRoute } from "~/lib/api-route.server.ts";
import { anyone } from "~/services/auth/guards.server.ts";
import { notFound } from "~/lib/errors.server.ts";
import { registerFaqView } from "~/services/site/content.server.ts";

// POST /api/faqs/{id}/view: sent when an FAQ is opened (empty body).
export const loader = apiRoute({
  POST: {
    summary: "Count a view of an FAQ (sent when it is opened)",
    description: "Adds one to an active FAQ's view count (sent when a visitor opens it) and answers the new count. 404 for an unknown or inactive FAQ.",
    auth: anyone,
    response: z.object({ views: z.number().int() }),
    run: async ({ params }) => {
      const views = await registerFaqView(params.id!);
      if (views === null) throw notFound("FAQ not found");
      return { views };
    },
  },
});
export const action = loader;
