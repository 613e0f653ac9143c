import { apiRoute } from "~/lib/api-route.server.ts";
import { requireUser } from "~/services/auth/guards.server.ts";
import { listPayments } from "~/services/payments.server.ts";

// The caller's payment history (amount as a number of dollars), newest first.
export const loader = apiRoute({ GET: { auth: requireUser, run: ({ user }) => listPayments(user.id) } });
export const action = loader;
