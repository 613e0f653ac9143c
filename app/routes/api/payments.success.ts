import { apiRoute, endpoint } from "~/lib/api-route.server.ts";
import { requireUser } from "~/services/auth/guards.server.ts";
import { confirmClientPayment } from "~/services/commerce/checkout.server.ts";
import { PaymentSuccessSchema } from "~/validation/checkout.ts";
import { PaymentConfirmed } from "~/validation/api-responses.ts";

// Body: paymentIntentId. 200 { message, subscription }; 402 { message } when the provider refused
// the payment; 404 for an unknown payment or someone else's.
export const loader = apiRoute({
  POST: endpoint({
    summary: "Confirm a payment made in the embedded form: the subscription it bought",
    description:
      "Confirms a payment the caller made in the embedded form with the payment provider and applies it, as the webhook would (once, however often either arrives): the payment, the subscription and its access. Answers the subscription it bought. 402 when the provider refused the payment; 404 for an unknown payment or someone else's.",
    response: PaymentConfirmed,
    errors: [402],
    auth: requireUser,
    body: PaymentSuccessSchema,
    run: ({ user, body }) => confirmClientPayment(user, body.paymentIntentId),
  }),
});
export const action = loader;
