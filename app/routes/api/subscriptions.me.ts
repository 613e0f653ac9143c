import { apiRoute } from "~/lib/api-route.server.ts";
import { requireUser } from "~/services/auth/guards.server.ts";
import { listSubscriptions } from "~/services/subscriptions.server.ts";

// The caller's own subscriptions, every status, newest first.
export const loader = apiRoute({ GET: { auth: requireUser, run: ({ user }) => listSubscriptions(user.id) } });
export const action = loader;
