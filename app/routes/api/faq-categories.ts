import { methodNotAllowed } from "~/lib/api.server.ts";
import { cachedJson } from "~/lib/http-cache.server.ts";
import { listFaqCategories } from "~/services/content.server.ts";
import type { Route } from "./+types/faq-categories";

// GET /api/faq-categories: the Help Center's filter.
export async function loader({ request }: Route.LoaderArgs) {
  return cachedJson(request, await listFaqCategories(), { scope: "public", maxAge: 60 });
}

export const action = () => methodNotAllowed(["GET"]);
