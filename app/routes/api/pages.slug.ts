import { apiRoute } from "~/lib/api-route.server.ts";
import { notFound } from "~/lib/errors.server.ts";
import { getUser } from "~/services/auth/guards.server.ts";
import { getPage } from "~/services/site/content.server.ts";
import { PublicPage } from "~/validation/api-responses.ts";

// GET /api/pages/slug/{slug}: clients refetch it every time (an admin's edit shows at once),
// so it is never cached; the ETag still lets a client skip an unchanged body. Drafts only for
// admins. Content is sanitised HTML with its line breaks, as the content page renders it.
export const loader = apiRoute({
  GET: {
    summary: "A published page by slug (drafts for admins); never cached",
    description:
      "A published page by slug, its content as sanitised HTML. An admin also gets unpublished drafts, to preview them; anyone else gets 404 for a draft. Never cached. Changes nothing.",
    response: PublicPage,
    auth: getUser,
    run: async ({ user, params }) => {
      const page = await getPage(params.slug!, { includeDrafts: user?.role === "admin" });
      if (!page) throw notFound("Page not found");
      return page;
    },
  },
});
export const action = loader;
