import { apiRoute } from "~/lib/api-route.server.ts";
import { viewerPolicy } from "~/lib/http-cache.server.ts";
import { getViewerAccess } from "~/services/access.server.ts";
import { getAnimation } from "~/services/catalogue/animations.server.ts";
import { FIVE_MINUTES } from "./catalogue.server.ts";

/** GET /api/animations/{slugOrId}: the animation as this caller may see it (no view counted). */
export const loader = apiRoute({
  GET: {
    cache: (request) => viewerPolicy(request, FIVE_MINUTES),
    run: async ({ request, params }) => getAnimation(params.slugOrId!, await getViewerAccess(request)),
  },
});
export const action = loader;
