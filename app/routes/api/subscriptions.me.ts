import { cachedJson } from "~/lib/http-cache.server.ts";
import { methodNotAllowed } from "~/lib/api.server.ts";
import { requireUser } from "~/services/auth/guards.server.ts";
import { listSubscriptions } from "~/services/subscriptions.server.ts";
import type { Route } from "./+types/subscriptions.me";

// The caller's own subscriptions, every status, newest first.
export async function loader({ request }: Route.LoaderArgs) {
  const user = await requireUser(request);
  return cachedJson(request, await listSubscriptions(user.id), { scope: "no-store" });
}

export const action = () => methodNotAllowed(["GET"]);
