import { apiRoute, endpoint } from "~/lib/api-route.server.ts";
import { requireUser } from "~/services/auth/guards.server.ts";
import { startCheckout } from "~/services/checkout.server.ts";
import { GlobalCheckoutSchema } from "~/validation/checkout.ts";
import { Checkout } from "~/validation/api-responses.ts";

// Body: priceType ("yearly"). Answers { checkoutId, provider, clientSecret } for the embedded form
// (or { url } when the provider only has a hosted page).
export const loader = apiRoute({
  POST: endpoint({
    summary: "Start buying premium: the embedded form's client secret, or a hosted page's url",
    response: Checkout,
    errors: [409, 502],
    auth: requireUser,
    body: GlobalCheckoutSchema,
    run: ({ user }) => startCheckout(user, { type: "global" }, "embedded"),
  }),
});
export const action = loader;
