import { z } from "zod";
import { apiRoute, endpoint } from "~/lib/api-route.server.ts";
import { anyone } from "~/services/auth/guards.server.ts";
import { getPaymentProvider } from "~/lib/payments/index.server.ts";
import { WebhookSignatureError } from "~/lib/payments/provider.server.ts";
import { applyPaymentEvent } from "~/services/commerce/fulfilment.server.ts";

// Stripe's webhook: the raw body is what the signature covers, so no body schema. A bad or stale
// signature answers 400; an event we do not act on 200; a database failure 500 so Stripe retries.
// Described once, as the path it is (not under the document's `webhooks`, which is for calls a
// client's own server would receive).
export const loader = apiRoute({
  POST: endpoint({
    summary: "Stripe's webhook: signed payment, subscription and refund events, each with one effect",
    description:
      "Called by Stripe, not by clients: the event is trusted only when its Stripe-Signature header verifies against STRIPE_WEBHOOK_SECRET, which stands in for authentication. Applies payments, renewals, subscription changes, refunds and cards saved on Stripe's card page; each event has one effect however often it is delivered. An event we do not act on answers 200 too.",
    auth: anyone,
    headers: { "Stripe-Signature": { required: true, description: "Stripe's signature of the raw body with STRIPE_WEBHOOK_SECRET, and its timestamp" } },
    rawBody: {
      mediaType: "application/json",
      description: "A Stripe Event object, exactly as Stripe sent it: the signature covers these bytes",
      schema: z.looseObject({ id: z.string(), type: z.string() }),
    },
    response: z.object({ received: z.literal(true) }).describe("Received: acted on, already acted on, or not an event we act on"),
    errors: {
      400: "Missing, bad or stale signature; or test mode (no STRIPE_SECRET_KEY), where webhooks are not used",
      500: "The event's effect could not be stored: Stripe delivers it again later",
    },
    run: async ({ request }) => {
      const raw = await request.text();
      let event;
      try {
        event = await getPaymentProvider().parseWebhook(raw, request.headers.get("Stripe-Signature"));
      } catch (error) {
        if (error instanceof WebhookSignatureError)
          return Response.json({ message: error.message || "Invalid signature" }, { status: 400, headers: { "Cache-Control": "no-store" } });
        throw error;
      }
      await applyPaymentEvent(event, "stripe");
      return { received: true };
    },
  }),
});
export const action = loader;
