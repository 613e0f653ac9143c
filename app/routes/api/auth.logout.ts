import { z } from "zod";
import { apiRoute, endpoint } from "~/lib/api-route.server.ts";
import { destroySession } from "~/lib/session.server.ts";
import { revokeRefreshToken } from "~/services/auth/credentials.server.ts";
import { getUser } from "~/services/auth/guards.server.ts";
import { MessageResponse } from "~/validation/api-responses.ts";

const LogoutSchema = z.object({ refreshToken: z.string().max(512).optional() });

/** Revokes the caller's refresh token and ends the cookie session, if any. */
export const loader = apiRoute({
  POST: endpoint({
    summary: "Sign out: revoke the refresh token and end the cookie session",
    description:
      "Revokes the refresh token in the body (a signed-in caller can only revoke their own), deletes the cookie session if the request carries one and clears its cookie. Answers 200 even when there was nothing to end, so a client can always call it.",
    response: MessageResponse,
    auth: getUser,
    body: LogoutSchema,
    run: async ({ request, user, body }) => {
      if (body.refreshToken) await revokeRefreshToken(body.refreshToken, user?.id);
      const cookie = await destroySession(request);
      return Response.json({ message: "You have been successfully logged out." }, { headers: { "Set-Cookie": cookie, "Cache-Control": "no-store" } });
    },
  }),
});
export const action = loader;
