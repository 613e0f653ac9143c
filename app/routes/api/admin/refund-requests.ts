import { z } from "zod";
import { apiRoute, endpoint } from "~/lib/api-route.server.ts";
import { requireAdmin } from "~/services/auth/guards.server.ts";
import { listRefundRequests } from "~/services/commerce/refund-admin.server.ts";
import { RefundListQuerySchema } from "~/validation/admin-refunds.ts";
import { AdminRefundRequest } from "~/validation/api-responses-admin.ts";

// GET /api/admin/refund-requests (the list; optional search, status, page,
// limit) → array of rows with userName, userEmail, paymentAmount, paymentDescription.
export const loader = apiRoute({
  GET: endpoint({
    summary: "Refund requests, by search and status",
    description:
      "Refund requests, searchable and filtered by status, with the member's name and e-mail address and the payment's amount and description. Changes nothing.",
    auth: requireAdmin,
    response: z.array(AdminRefundRequest),
    query: RefundListQuerySchema,
    run: async ({ query }) => (await listRefundRequests(query)).requests,
  }),
});
export const action = loader;
