import { apiRoute, endpoint } from "~/lib/api-route.server.ts";
import { getCredential, requireUser } from "~/services/auth/guards.server.ts";
import { listSignIns } from "~/services/auth/sessions.server.ts";
import { AccountSessions } from "~/validation/api-responses.ts";

export const loader = apiRoute({
  GET: endpoint({
    summary: "Where the account is signed in: browser sessions and API sign-ins",
    description:
      "The caller's live browser sessions and /api refresh-token families (one entry per sign-in, kept across refreshes): the device from the user agent, the approximate place when known, the address, when it signed in and was last used. The caller's own is marked `current` and comes first, then the most recently used; at most 50 of each kind.",
    auth: requireUser,
    response: AccountSessions,
    run: async ({ request, user }) => ({ sessions: await listSignIns(user.id, await getCredential(request)) }),
  }),
});
export const action = loader;
