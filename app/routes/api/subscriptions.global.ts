import { apiRoute, endpoint } from "~/lib/api-route.server.ts";
import { requireUser } from "~/services/auth/guards.server.ts";
import { startCheckout } from "~/services/checkout.server.ts";
import { GlobalCheckoutSchema } from "~/validation/checkout.ts";

// Body: priceType ("yearly"). Answers { checkoutId, provider, clientSecret } for the embedded form
// (or { url } when the provider only has a hosted page).
export const loader = apiRoute({
  POST: endpoint({
    auth: requireUser,
    body: GlobalCheckoutSchema,
    run: ({ user }) => startCheckout(user, { type: "global" }, "embedded"),
  }),
});
export const action = loader;
