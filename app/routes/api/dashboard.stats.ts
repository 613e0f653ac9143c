import { cachedJson } from "~/lib/http-cache.server.ts";
import { methodNotAllowed } from "~/lib/api.server.ts";
import { requireUser } from "~/services/auth/guards.server.ts";
import { getDashboardStats } from "~/services/library.server.ts";
import type { Route } from "./+types/dashboard.stats";

export async function loader({ request }: Route.LoaderArgs) {
  const user = await requireUser(request);
  const { totalSpent, activeSubscriptions, licensedAnimations } = await getDashboardStats(user.id);
  return cachedJson(request, { totalSpent, activeSubscriptions, licensedAnimations }, { scope: "no-store" });
}

export const action = () => methodNotAllowed(["GET"]);
