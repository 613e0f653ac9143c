import { apiRoute, endpoint } from "~/lib/api-route.server.ts";
import { viewerPolicy } from "~/lib/http-cache.server.ts";
import { getViewerAccess } from "~/services/access.server.ts";
import { requireAdmin } from "~/services/auth/guards.server.ts";
import { deleteAnimation, updateAnimation } from "~/services/catalogue/animation-admin.server.ts";
import { getAnimation } from "~/services/catalogue/animations.server.ts";
import { AnimationSchema } from "~/validation/admin-catalogue.ts";
import { FIVE_MINUTES } from "./catalogue.server.ts";

/**
 * GET /api/animations/{slugOrId}: the animation as this caller may see it (no view counted).
 * PUT and DELETE /api/animations/{id} (admins): update with the same fields as the create, or
 * delete (409 while members hold active licences for it).
 */
export const loader = apiRoute({
  GET: {
    cache: (request) => viewerPolicy(request, FIVE_MINUTES),
    run: async ({ request, params }) => getAnimation(params.slugOrId!, await getViewerAccess(request)),
  },
  PUT: endpoint({
    auth: requireAdmin,
    body: AnimationSchema,
    run: ({ user, params, body }) => updateAnimation(user, params.slugOrId!, body),
  }),
  DELETE: endpoint({
    auth: requireAdmin,
    run: async ({ user, params }) => {
      await deleteAnimation(user, params.slugOrId!);
      return { message: "Animation deleted" };
    },
  }),
});
export const action = loader;
