import { Elements, PaymentElement, useElements, useStripe } from "@stripe/react-stripe-js";
import { loadStripe, type Stripe } from "@stripe/stripe-js";
import { useState } from "react";
import { Button } from "~/components/ui/button.tsx";
import { Form } from "~/components/ui/form.tsx";
import { confirmOnServer, type Outcome, readMessage } from "./client.ts";

// Stripe's Payment Element. This module is reached only through a dynamic import() from the
// checkout panel, so Stripe.js never weighs on other pages.

const stripes = new Map<string, Promise<Stripe | null>>();

export default function StripePaymentForm(props: {
  publishableKey: string;
  clientSecret: string;
  checkoutId: string;
  amountLabel: string;
  onDone: (outcome: Outcome) => void;
}) {
  let stripe = stripes.get(props.publishableKey);
  if (!stripe) {
    stripe = loadStripe(props.publishableKey);
    stripes.set(props.publishableKey, stripe);
  }
  return (
    <Elements stripe={stripe} options={{ clientSecret: props.clientSecret }}>
      <PaymentForm {...props} />
    </Elements>
  );
}

function PaymentForm({ checkoutId, amountLabel, onDone }: { checkoutId: string; amountLabel: string; onDone: (outcome: Outcome) => void }) {
  const stripe = useStripe();
  const elements = useElements();
  const [busy, setBusy] = useState(false);

  async function submit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!stripe || !elements) return;
    setBusy(true);
    try {
      const { error, paymentIntent } = await stripe.confirmPayment({
        elements,
        redirect: "if_required",
        confirmParams: { return_url: `${window.location.origin}/checkout/return?checkout=${checkoutId}` },
      });
      if (error) onDone({ ok: false, message: error.message ?? "Your payment was not completed." });
      else if (paymentIntent) onDone(await confirmOnServer(paymentIntent.id));
    } catch (error) {
      onDone({ ok: false, message: readMessage(error) });
    } finally {
      setBusy(false);
    }
  }

  return (
    <Form reloadDocument onSubmit={submit} className="flex flex-col gap-4">
      <PaymentElement />
      <Button type="submit" size="lg" disabled={!stripe || busy}>
        Pay {amountLabel}
      </Button>
    </Form>
  );
}
