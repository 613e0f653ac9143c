import { apiRoute, endpoint } from "~/lib/api-route.server.ts";
import { notFound } from "~/lib/errors.server.ts";
import { requireAdmin } from "~/services/auth/guards.server.ts";
import { getRefundCase } from "~/services/commerce/refund-evidence.server.ts";
import { REFUND_REQUEST_NOT_FOUND } from "~/services/commerce/refunds.server.ts";
import { AdminRefundCase } from "~/validation/api-responses-admin.ts";

// GET /api/admin/refund-requests/{id}: the request and what its refund would take back, as the
// decision page shows them (one service).
export const loader = apiRoute({
  GET: endpoint({
    summary: "A refund request with what its refund would take back",
    description:
      "The refund request (as in the list) and its evidence: the licence the payment bought; the files downloaded under it since the payment (the buyer keeps them; approving then needs `confirmDownloads: true`); its plays on the clinic's sites and patient links since the payment's day; its embed sites with their plays; the patient links created since the payment; and the refund window (30 days from the payment) with whether the request came inside it. Changes nothing.",
    auth: requireAdmin,
    response: AdminRefundCase,
    errors: { 404: REFUND_REQUEST_NOT_FOUND },
    run: async ({ params }) => {
      const refundCase = await getRefundCase(params.id!);
      if (!refundCase) throw notFound(REFUND_REQUEST_NOT_FOUND);
      return refundCase;
    },
  }),
});
export const action = loader;
