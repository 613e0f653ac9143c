import { methodNotAllowed } from "~/lib/api.server.ts";
import { cachedJson } from "~/lib/http-cache.server.ts";
import { getPublicSettings } from "~/services/content.server.ts";
import type { Route } from "./+types/settings";

// Spec section 7: an array of { key, value }, cached 5 minutes. Public keys only.
export async function loader({ request }: Route.LoaderArgs) {
  return cachedJson(request, await getPublicSettings(), { scope: "public", maxAge: 300 });
}

export const action = () => methodNotAllowed(["GET"]);
