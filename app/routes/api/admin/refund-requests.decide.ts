import { apiRoute, endpoint } from "~/lib/api-route.server.ts";
import { requireAdmin } from "~/services/auth/guards.server.ts";
import { STEP_UP } from "~/services/auth/step-up.server.ts";
import { approveRefund, rejectRefund } from "~/services/commerce/refunds.server.ts";
import { RefundDecisionSchema } from "~/validation/admin-refunds.ts";
import { RefundDecision } from "~/validation/api-responses-admin.ts";

// PUT /api/admin/refund-requests/{id}/approve and .../reject { adminNotes, confirmDownloads? }:
// one module, the last path segment says which. Answers the decided request.
export const loader = apiRoute({
  PUT: endpoint({
    summary: "Approve (refund through the provider) or reject a pending refund request, with notes",
    description:
      "Approves a pending refund request, refunding the payment through the payment provider and canceling the subscription it paid for, or rejects it (the last path segment says which), with the admin's notes; the decision is recorded in the audit log. Downloaded files are the buyer's to keep: approving the refund of a licence whose files were downloaded since the payment needs `confirmDownloads: true` (see `evidence.downloads` in GET /api/admin/refund-requests/{id}), else 409 with how many files and `errors.confirmDownloads`; rejecting never needs it. 409 also when already decided; 502 when the provider fails (the request stays pending, so it can be approved again).",
    response: RefundDecision,
    errors: {
      409: "Already decided, or an approval of a licence whose files were downloaded since the payment without `confirmDownloads: true`",
      502: "The payment provider failed: the request stays pending",
    },
    auth: requireAdmin,
    stepUp: STEP_UP,
    body: RefundDecisionSchema,
    run: async ({ user, params, url, body }) => {
      if (url.pathname.endsWith("/reject")) return rejectRefund(user, params.id!, body.adminNotes);
      return approveRefund(user, params.id!, body.adminNotes, { confirmDownloads: body.confirmDownloads });
    },
  }),
});
export const action = loader;
