import { apiRoute, endpoint } from "~/lib/api-route.server.ts";
import { requireUser } from "~/services/auth/guards.server.ts";
import { payTestCheckout } from "~/services/commerce/checkout.server.ts";
import { TestOutcomeSchema } from "~/validation/checkout.ts";
import { CheckoutResult } from "~/validation/api-responses.ts";

// The test-mode embedded form's Pay / Decline (test mode only; 404 otherwise): body outcome.
// Answers the checkout's result; the form then confirms through POST /api/payments/success.
export const loader = apiRoute({
  POST: endpoint({
    summary: "Pay or decline a test-mode checkout (test mode only)",
    description:
      "In test mode only (no STRIPE_SECRET_KEY; 404 otherwise): pays or declines the caller's own test checkout, producing the same payment events a Stripe webhook would, through the same fulfilment. Answers the checkout's result. 404 for an unknown checkout or someone else's.",
    response: CheckoutResult,
    auth: requireUser,
    body: TestOutcomeSchema,
    run: ({ user, params, body }) => payTestCheckout(user, params.checkoutId ?? "", body.outcome),
  }),
});
export const action = loader;
