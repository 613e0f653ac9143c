import { apiRoute, endpoint } from "~/lib/api-route.server.ts";
import { requireUser } from "~/services/auth/guards.server.ts";
import { startCheckout } from "~/services/commerce/checkout.server.ts";
import { GlobalCheckoutSchema } from "~/validation/checkout.ts";
import { Checkout } from "~/validation/api-responses.ts";

// Body: priceType ("yearly"). Answers { checkoutId, provider, clientSecret } for the embedded form
// (or { url } when the provider only has a hosted page).
export const loader = apiRoute({
  POST: endpoint({
    summary: "Start buying premium: the embedded form's client secret, or a hosted page's url",
    description:
      "Starts a checkout for premium (every animation, a year): records a pending checkout and answers the embedded payment form's client secret, or a hosted page's URL. Nothing is bought until the payment succeeds. 409 when the caller already has premium or holds licenses; 502 when the payment provider fails.",
    response: Checkout,
    errors: [409, 502],
    auth: requireUser,
    body: GlobalCheckoutSchema,
    run: ({ user }) => startCheckout(user, { type: "global" }, "embedded"),
  }),
});
export const action = loader;
