import { getViewerAccess } from "~/services/access.server.ts";
import { getAnimation } from "~/services/catalogue/animations.server.ts";
import type { Route } from "./+types/animations.slug";
import { catalogueJson, FIVE_MINUTES, viewerPolicy } from "./catalogue.server.ts";

/** GET /api/animations/{slugOrId}: the animation as this caller may see it (no view counted). */
export async function loader({ request, params }: Route.LoaderArgs) {
  return catalogueJson(request, viewerPolicy(request, FIVE_MINUTES), async () => getAnimation(params.slugOrId, await getViewerAccess(request)), {
    viewerDependent: true,
  });
}
