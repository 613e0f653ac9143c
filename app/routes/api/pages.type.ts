import { apiError, methodNotAllowed } from "~/lib/api.server.ts";
import { cachedJson } from "~/lib/http-cache.server.ts";
import { listPublishedPages } from "~/services/content.server.ts";
import { PAGE_TYPES } from "~/validation/content.ts";
import type { Route } from "./+types/pages.type";

// GET /api/pages/type/legal: the footer's legal links (id, slug, title of published pages).
export async function loader({ request, params }: Route.LoaderArgs) {
  const type = PAGE_TYPES.find((t) => t === params.type);
  if (!type) return apiError("Page type not found", 404);
  // A minute: a newly published page reaches the footer quickly without a query per visit.
  return cachedJson(request, await listPublishedPages(type), { scope: "public", maxAge: 60 });
}

export const action = () => methodNotAllowed(["GET"]);
