import { cachedJson } from "~/lib/http-cache.server.ts";
import { methodNotAllowed } from "~/lib/api.server.ts";
import { requireUser } from "~/services/auth/guards.server.ts";
import { listPayments } from "~/services/payments.server.ts";
import type { Route } from "./+types/payments.me";

// The caller's payment history (amount as a number of dollars), newest first.
export async function loader({ request }: Route.LoaderArgs) {
  const user = await requireUser(request);
  return cachedJson(request, await listPayments(user.id), { scope: "no-store" });
}

export const action = () => methodNotAllowed(["GET"]);
