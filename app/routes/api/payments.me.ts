import { apiRoute } from "~/lib/api-route.server.ts";
import { requireUser } from "~/services/auth.server.ts";
import { listPayments } from "~/services/billing.server.ts";

// The caller's payment history (amount as a number of dollars), newest first.
export const loader = apiRoute({ GET: { auth: requireUser, run: ({ user }) => listPayments(user.id) } });
export const action = loader;
