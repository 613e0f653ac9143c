import { apiRoute, endpoint } from "~/lib/api-route.server.ts";
import { requireAdmin } from "~/services/auth/guards.server.ts";
import { STEP_UP } from "~/services/auth/step-up.server.ts";
import { approveRefund, rejectRefund } from "~/services/commerce/refunds.server.ts";
import { RefundDecisionSchema } from "~/validation/admin-refunds.ts";
import { RefundDecision } from "~/validation/api-responses-admin.ts";

// PUT /api/admin/refund-requests/{id}/approve and .../reject { adminNotes }:
// one module, the last path segment says which. Answers the decided request.
export const loader = apiRoute({
  PUT: endpoint({
    summary: "Approve (refund through the provider) or reject a pending refund request, with notes",
    description:
      "Approves a pending refund request, refunding the payment through the payment provider and canceling the subscription it paid for, or rejects it (the last path segment says which), with the admin's notes; the decision is recorded in the audit log. 409 when already decided; 502 when the provider fails (the request stays pending, so it can be approved again).",
    response: RefundDecision,
    errors: { 409: "This refund request has already been processed", 502: "The payment provider failed: the request stays pending" },
    auth: requireAdmin,
    stepUp: STEP_UP,
    body: RefundDecisionSchema,
    run: async ({ user, params, url, body }) => {
      const decide = url.pathname.endsWith("/reject") ? rejectRefund : approveRefund;
      return decide(user, params.id!, body.adminNotes);
    },
  }),
});
export const action = loader;
