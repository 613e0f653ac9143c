import { apiRoute, endpoint } from "~/lib/api-route.server.ts";
import { requireUser } from "~/services/auth/guards.server.ts";
import { requestRefund } from "~/services/commerce/refunds.server.ts";
import { RefundRequestSchema } from "~/validation/account.ts";
import { RefundRequestCreated } from "~/validation/api-responses.ts";

// Body: subscriptionId, reason, description, contactEmail (and optionally paymentId).
export const loader = apiRoute({
  POST: endpoint({
    summary: "Ask for a refund of a subscription paid within 30 days",
    description:
      "Asks for a refund of one of the caller's subscriptions, paid within the last 30 days; the admins decide it. Records a pending request. 404 for someone else's subscription; 409 when a request is already pending or the payment was already refunded.",
    response: RefundRequestCreated,
    errors: [409],
    auth: requireUser,
    body: RefundRequestSchema,
    status: 201,
    run: async ({ user, body }) => ({ message: "Refund Request Submitted", refundRequest: await requestRefund(user, body) }),
  }),
});
export const action = loader;
