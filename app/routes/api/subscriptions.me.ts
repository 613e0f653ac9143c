import { apiRoute } from "~/lib/api-route.server.ts";
import { requireUser } from "~/services/auth.server.ts";
import { listSubscriptions } from "~/services/billing.server.ts";

// The caller's own subscriptions, every status, newest first.
export const loader = apiRoute({ GET: { auth: requireUser, run: ({ user }) => listSubscriptions(user.id) } });
export const action = loader;
