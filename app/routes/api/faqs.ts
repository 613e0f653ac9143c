import { methodNotAllowed } from "~/lib/api.server.ts";
import { cachedJson } from "~/lib/http-cache.server.ts";
import { listFaqs } from "~/services/content.server.ts";
import type { Route } from "./+types/faqs";

// GET /api/faqs?category={id or slug}&search={term}: active FAQs with categoryName, answers as
// sanitised HTML. A short public cache: the same for everyone, and view counts may lag a minute.
export async function loader({ request, url }: Route.LoaderArgs) {
  const faqs = await listFaqs({ category: url.searchParams.get("category"), search: url.searchParams.get("search") });
  return cachedJson(request, faqs, { scope: "public", maxAge: 60 });
}

export const action = () => methodNotAllowed(["GET"]);
