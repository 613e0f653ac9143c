import { z } from "zod";
import { apiRoute, endpoint } from "~/lib/api-route.server.ts";
import { requireAdmin } from "~/services/auth/guards.server.ts";
import { listAdminSubscriptions } from "~/services/commerce/subscription-admin.server.ts";
import { SubscriptionListQuerySchema } from "~/validation/admin-subscriptions.ts";
import { AdminSubscription } from "~/validation/api-responses-admin.ts";

// GET /api/admin/subscriptions?search&status&type&page&limit=20 → array of admin rows.
// The admin guard is the parent route's middleware.
export const loader = apiRoute({
  GET: endpoint({
    summary: "Subscriptions, by search, status and type, 20 a page",
    description: "Subscriptions of every user, searchable and filtered by status and type, 20 a page. Changes nothing.",
    auth: requireAdmin,
    response: z.array(AdminSubscription),
    query: SubscriptionListQuerySchema,
    run: async ({ query }) => (await listAdminSubscriptions(query)).subscriptions,
  }),
});
export const action = loader;
