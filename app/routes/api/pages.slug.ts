import { apiError, methodNotAllowed } from "~/lib/api.server.ts";
import { cachedJson } from "~/lib/http-cache.server.ts";
import { getUser } from "~/services/auth/guards.server.ts";
import { getPage } from "~/services/content.server.ts";
import type { Route } from "./+types/pages.slug";

// GET /api/pages/slug/{slug}: the spec refetches it every time (an admin's edit shows at once),
// so it is never cached; the ETag still lets a client skip an unchanged body. Drafts only for
// admins. Content is sanitised HTML with its line breaks, as the content page renders it.
export async function loader({ request, params }: Route.LoaderArgs) {
  const user = await getUser(request);
  const page = await getPage(params.slug, { includeDrafts: user?.role === "admin" });
  if (!page) return apiError("Page not found", 404);
  return cachedJson(request, page, { scope: "no-store" });
}

export const action = () => methodNotAllowed(["GET"]);
