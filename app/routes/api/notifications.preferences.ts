import { cachedJson } from "~/lib/http-cache.server.ts";
import { methodNotAllowed, parseBody } from "~/lib/api.server.ts";
import { getPreferences, updatePreferences } from "~/services/account.server.ts";
import { requireUser } from "~/services/auth/guards.server.ts";
import { PreferencesApiSchema } from "~/validation/account.ts";
import type { Route } from "./+types/notifications.preferences";

export async function loader({ request }: Route.LoaderArgs) {
  const user = await requireUser(request);
  return cachedJson(request, await getPreferences(user.id), { scope: "no-store" });
}

// PUT with the booleans to change; keys left out keep their value.
export async function action({ request }: Route.ActionArgs) {
  if (request.method !== "PUT") return methodNotAllowed(["GET", "PUT"]);
  const user = await requireUser(request);
  const changes = await parseBody(request, PreferencesApiSchema);
  return cachedJson(request, await updatePreferences(user.id, changes), { scope: "no-store" });
}
