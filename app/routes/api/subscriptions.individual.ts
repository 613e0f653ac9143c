import { apiRoute, endpoint } from "~/lib/api-route.server.ts";
import { requireUser } from "~/services/auth/guards.server.ts";
import { startCheckout } from "~/services/checkout.server.ts";
import { IndividualCheckoutSchema } from "~/validation/checkout.ts";

// Body: animationId (id or slug). Answers like POST /api/subscriptions/global.
export const loader = apiRoute({
  POST: endpoint({
    auth: requireUser,
    body: IndividualCheckoutSchema,
    run: ({ user, body }) => startCheckout(user, { type: "individual", animation: body.animationId }, "embedded"),
  }),
});
export const action = loader;
