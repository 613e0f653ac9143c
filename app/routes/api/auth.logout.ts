import { z } from "zod";
import { methodNotAllowed, parseBody } from "~/lib/api.server.ts";
import { destroySession } from "~/lib/session.server.ts";
import { revokeRefreshToken } from "~/services/auth/credentials.server.ts";
import type { Route } from "./+types/auth.logout";

const LogoutSchema = z.object({ refreshToken: z.string().optional() });

export const loader = () => methodNotAllowed(["POST"]);

/** Revokes the given refresh token and ends the cookie session, if any. */
export async function action({ request }: Route.ActionArgs) {
  if (request.method !== "POST") return methodNotAllowed(["POST"]);
  const { refreshToken } = await parseBody(request, LogoutSchema);
  if (refreshToken) await revokeRefreshToken(refreshToken);
  const cookie = await destroySession(request);
  return Response.json({ message: "You have been successfully logged out." }, { headers: { "Set-Cookie": cookie } });
}
