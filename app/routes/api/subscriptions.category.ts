import { apiRoute, endpoint } from "~/lib/api-route.server.ts";
import { requireUser } from "~/services/auth/guards.server.ts";
import { startCheckout } from "~/services/checkout.server.ts";
import { CategoryCheckoutSchema } from "~/validation/checkout.ts";

// Body: categoryId (id or slug). Answers like POST /api/subscriptions/global.
export const loader = apiRoute({
  POST: endpoint({
    auth: requireUser,
    body: CategoryCheckoutSchema,
    run: ({ user, body }) => startCheckout(user, { type: "category", category: body.categoryId }, "embedded"),
  }),
});
export const action = loader;
