import { apiRoute, endpoint } from "~/lib/api-route.server.ts";
import { requireUser } from "~/services/auth/guards.server.ts";
import { endSignIn, SIGN_IN_NOT_FOUND } from "~/services/auth/sessions.server.ts";
import { MessageResponse } from "~/validation/api-responses.ts";

export const loader = apiRoute({
  DELETE: endpoint({
    summary: "Sign out one session or API sign-in",
    description:
      "Ends one entry of GET /api/auth/sessions: a browser session's next request is anonymous; an API sign-in's refresh token can no longer refresh and its access tokens are refused at once. Ending the caller's own signs the caller out. Recorded in the audit log. 404 for an id that is not one of the caller's live sessions.",
    auth: requireUser,
    response: MessageResponse,
    errors: { 404: SIGN_IN_NOT_FOUND },
    run: async ({ user, params }) => {
      await endSignIn(user, params.id!, user);
      return { message: "Signed out" };
    },
  }),
});
export const action = loader;
