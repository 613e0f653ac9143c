import { apiRoute, endpoint } from "~/lib/api-route.server.ts";
import { requireUser } from "~/services/auth/guards.server.ts";
import { startCheckout } from "~/services/commerce/checkout.server.ts";
import { IndividualCheckoutSchema } from "~/validation/checkout.ts";
import { Checkout } from "~/validation/api-responses.ts";

// Body: animationId (id or slug). Answers like POST /api/subscriptions/global.
export const loader = apiRoute({
  POST: endpoint({
    summary: "Start buying an individual license: the embedded form's client secret, or a hosted page's url",
    description:
      "Starts a checkout for a license to one animation, at its individualPrice (what its pages and /api answers show): records a pending checkout and answers the embedded payment form's client secret, or a hosted page's URL. Nothing is bought until the payment succeeds. 404 for an unknown animation, 409 when the caller already holds a license for it (for the practice: when the practice holds one), 502 when the payment provider fails. With `forPractice: true` the license is bought for the caller's practice (403 unless its owner or manager): its price includes a seat for each member and open invitation beyond the 3 included, at the per-seat price in settings, and the invoice is made out to the practice.",
    response: Checkout,
    errors: [403, 404, 409, 502],
    auth: requireUser,
    body: IndividualCheckoutSchema,
    run: ({ user, body }) => startCheckout(user, { type: "individual", animation: body.animationId }, "embedded", { forPractice: body.forPractice }),
  }),
});
export const action = loader;
