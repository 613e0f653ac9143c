import { apiRoute, endpoint } from "~/lib/api-route.server.ts";
import { requireUser } from "~/services/auth/guards.server.ts";
import { startCheckout } from "~/services/commerce/checkout.server.ts";
import { CategoryCheckoutSchema } from "~/validation/checkout.ts";
import { Checkout } from "~/validation/api-responses.ts";

// Body: categoryId (id or slug) of a sub-category. Answers like POST /api/subscriptions/global.
export const loader = apiRoute({
  POST: endpoint({
    summary: "Start buying a category license: the embedded form's client secret, or a hosted page's url",
    description:
      "Starts a checkout for a license to a sub-category (by id or slug), at the price its pages show: records a pending checkout and answers the embedded payment form's client secret, or a hosted page's URL. Nothing is bought until the payment succeeds. 404 for an unknown category or a main category (only its sub-categories are sold), 409 when already held (for the practice: when the practice holds it), 502 when the payment provider fails. With `forPractice: true` the license is bought for the caller's practice (403 unless its owner or manager): its price includes a seat for each member and open invitation beyond the 3 included, at the per-seat price in settings, and the invoice is made out to the practice.",
    response: Checkout,
    errors: [403, 404, 409, 502],
    auth: requireUser,
    body: CategoryCheckoutSchema,
    run: ({ user, body }) => startCheckout(user, { type: "category", category: body.categoryId }, "embedded", { forPractice: body.forPractice }),
  }),
});
export const action = loader;
