import { apiRoute, endpoint } from "~/lib/api-route.server.ts";
import { requireUser } from "~/services/auth/guards.server.ts";
import { payTestCheckout } from "~/services/checkout.server.ts";
import { TestOutcomeSchema } from "~/validation/checkout.ts";
import { CheckoutResult } from "~/validation/api-responses.ts";

// The test-mode embedded form's Pay / Decline (test mode only; 404 otherwise): body outcome.
// Answers the checkout's result; the form then confirms through POST /api/payments/success.
export const loader = apiRoute({
  POST: endpoint({
    summary: "Pay or decline a test-mode checkout (test mode only)",
    response: CheckoutResult,
    auth: requireUser,
    body: TestOutcomeSchema,
    run: ({ user, params, body }) => payTestCheckout(user, params.checkoutId ?? "", body.outcome),
  }),
});
export const action = loader;
