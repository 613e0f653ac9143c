import { apiRoute, endpoint } from "~/lib/api-route.server.ts";
import { requireAdmin } from "~/services/auth/guards.server.ts";
import { cancelSubscription, reactivateSubscription, SUBSCRIPTION_NOT_FOUND } from "~/services/commerce/subscriptions.server.ts";
import { notFound } from "~/lib/errors.server.ts";
import { UUID_RE } from "~/validation/account.ts";
import { SubscriptionChange } from "~/validation/api-responses-admin.ts";

// PUT /api/admin/subscriptions/{id}/cancel and PUT .../reactivate: one module,
// the last path segment says which. Answers { id, status, endDate }.
export const loader = apiRoute({
  PUT: endpoint({
    summary: "Cancel an active subscription, or reactivate a canceled one",
    description:
      "Cancels an active subscription or reactivates a canceled one (the last path segment says which), with the payment provider when it renews there, and records it in the audit log. 409 when the subscription is not in a state that allows it; 502 when the provider fails.",
    response: SubscriptionChange,
    errors: [409, 502],
    auth: requireAdmin,
    run: async ({ user, params, url }) => {
      if (!UUID_RE.test(params.id ?? "")) throw notFound(SUBSCRIPTION_NOT_FOUND);
      const change = url.pathname.endsWith("/reactivate") ? reactivateSubscription : cancelSubscription;
      return change(user, params.id!);
    },
  }),
});
export const action = loader;
