import { z } from "zod";
import { apiRoute, endpoint } from "~/lib/api-route.server.ts";
import { getPaymentProvider } from "~/lib/payments/index.server.ts";
import { WebhookSignatureError } from "~/lib/payments/provider.server.ts";
import { applyPaymentEvent } from "~/services/fulfilment.server.ts";

// Stripe's webhook: the raw body is what the signature covers, so no body schema. A bad or stale
// signature answers 400; an event we do not act on 200; a database failure 5xx so Stripe retries.
export const loader = apiRoute({
  POST: endpoint({
    summary: "Stripe's webhook (see webhooks.stripe): signed events, each with one effect",
    response: z.object({ received: z.literal(true) }),
    run: async ({ request }) => {
      const raw = await request.text();
      let event;
      try {
        event = await getPaymentProvider().parseWebhook(raw, request.headers.get("Stripe-Signature"));
      } catch (error) {
        if (error instanceof WebhookSignatureError) return Response.json({ message: error.message || "Invalid signature" }, { status: 400, headers: { "Cache-Control": "no-store" } });
        throw error;
      }
      await applyPaymentEvent(event, "stripe");
      return { received: true };
    },
  }),
});
export const action = loader;
