import { z } from "zod";
import { apiRoute } from "~/lib/api-route.server.ts";
import { requireUser } from "~/services/auth/guards.server.ts";
import { listPayments } from "~/services/commerce/payments.server.ts";
import { OwnPayment } from "~/validation/api-responses.ts";

// The caller's payment history (amount as a number of dollars), newest first.
export const loader = apiRoute({
  GET: {
    summary: "The caller's payments, newest first",
    description: "The caller's own payments, newest first, amounts in dollars. Changes nothing.",
    response: z.array(OwnPayment),
    auth: requireUser,
    run: ({ user }) => listPayments(user.id),
  },
});
export const action = loader;
