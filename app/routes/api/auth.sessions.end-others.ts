import { apiRoute, endpoint } from "~/lib/api-route.server.ts";
import { pluralize } from "~/lib/format.ts";
import { getCredential, requireUser } from "~/services/auth/guards.server.ts";
import { endOtherSignIns } from "~/services/auth/sessions.server.ts";
import { AccountSessionsEnded } from "~/validation/api-responses.ts";

export const loader = apiRoute({
  POST: endpoint({
    summary: "Sign out everywhere else",
    description:
      "Ends every browser session and API sign-in of the account except the one making this call, and says how many were ended. Recorded in the audit log when there was anything to end.",
    auth: requireUser,
    response: AccountSessionsEnded,
    run: async ({ request, user }) => {
      const ended = await endOtherSignIns(user, await getCredential(request));
      return { message: ended ? `Signed out ${pluralize(ended, "other session")}` : "There were no other sessions", ended };
    },
  }),
});
export const action = loader;
