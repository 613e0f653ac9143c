import { requireUser } from "~/services/auth/guards.server.ts";
import type { Route } from "./+types/auth.me";

export async function loader({ request }: Route.LoaderArgs) {
  const user = await requireUser(request);
  return Response.json({ user }, { headers: { "Cache-Control": "private, no-store" } });
}
