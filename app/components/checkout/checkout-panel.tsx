import { lazy, type ReactNode, Suspense, useState } from "react";
import { useNavigate } from "react-router";
import { Button } from "~/components/ui/button.tsx";
import { showToast } from "~/components/ui/show-toast.ts";
import { readMessage, confirmOnServer, type Outcome } from "./client.ts";

// The buy button of /premium and /purchase/*. Without JavaScript it is a plain POST form (the
// page's action answers 303 to the hosted checkout). With JavaScript it asks the /api for a
// client secret and shows the embedded form in place (the premium page's flow: intro view → payment
// form → back to the intro). Stripe.js is loaded only here, only when Stripe is configured.

const StripePaymentForm = lazy(() => import("./stripe-payment-form.tsx"));

export type CheckoutPanelProps = {
  /** The /api endpoint and its JSON body (POST /api/subscriptions/global {priceType}, …). */
  api: { path: string; body: Record<string, string> };
  label: ReactNode;
  amountLabel: string;
  testMode: boolean;
  publishableKey: string | null;
  /** Toast title after paying, and where to go then. */
  success: { title: string; description: string; to: string };
  /** The intro (plan, price, benefits); hidden while the payment form shows. */
  children?: ReactNode;
};

export function CheckoutPanel({ api, label, amountLabel, testMode, publishableKey, success, children }: CheckoutPanelProps) {
  const [payment, setPayment] = useState<{ checkoutId: string; clientSecret: string } | null>(null);
  const [busy, setBusy] = useState(false);
  const navigate = useNavigate();

  async function start(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setBusy(true);
    try {
      const response = await fetch(api.path, {
        method: "POST",
        headers: { "Content-Type": "application/json", Accept: "application/json" },
        body: JSON.stringify(api.body),
      });
      const body = (await response.json().catch(() => ({}))) as { url?: string; clientSecret?: string; checkoutId?: string; message?: string };
      if (!response.ok) throw new Error(body.message ?? `${response.status}: ${response.statusText}`);
      if (body.url) return window.location.assign(body.url);
      if (body.clientSecret && body.checkoutId) setPayment({ checkoutId: body.checkoutId, clientSecret: body.clientSecret });
      else throw new Error("The payment form could not be prepared.");
    } catch (error) {
      showToast({ type: "error", title: "Payment Setup Failed", description: readMessage(error) });
    } finally {
      setBusy(false);
    }
  }

  function done(outcome: Outcome) {
    if (outcome.ok) {
      showToast({ type: "success", title: success.title, description: success.description });
      navigate(success.to);
    } else {
      showToast({ type: "error", title: "Payment Failed", description: outcome.message });
    }
  }

  if (payment) {
    return (
      <div className="flex flex-col gap-4 text-left">
        {testMode ? (
          <TestModePaymentForm checkoutId={payment.checkoutId} amountLabel={amountLabel} onDone={done} />
        ) : (
          <Suspense fallback={<p className="text-slate-600">Loading the payment form…</p>}>
            <StripePaymentForm
              publishableKey={publishableKey ?? ""}
              clientSecret={payment.clientSecret}
              checkoutId={payment.checkoutId}
              amountLabel={amountLabel}
              onDone={done}
            />
          </Suspense>
        )}
        <Button variant="secondary" onClick={() => setPayment(null)}>
          Back
        </Button>
      </div>
    );
  }

  return (
    <>
      {children}
      <form method="post" onSubmit={start}>
        <input type="hidden" name="intent" value="checkout" />
        <Button type="submit" size="lg" className="w-full" disabled={busy}>
          {label}
        </Button>
      </form>
    </>
  );
}

/** The local test mode's embedded form: the same Pay / Decline as its hosted page. */
function TestModePaymentForm({ checkoutId, amountLabel, onDone }: { checkoutId: string; amountLabel: string; onDone: (outcome: Outcome) => void }) {
  const [busy, setBusy] = useState(false);
  async function press(outcome: "pay" | "decline") {
    setBusy(true);
    try {
      const response = await fetch(`/api/checkout/test/${checkoutId}`, {
        method: "POST",
        headers: { "Content-Type": "application/json", Accept: "application/json" },
        body: JSON.stringify({ outcome }),
      });
      if (!response.ok) {
        const body = (await response.json().catch(() => ({}))) as { message?: string };
        throw new Error(body.message ?? `${response.status}: ${response.statusText}`);
      }
      onDone(await confirmOnServer(`test_pi_${checkoutId}`));
    } catch (error) {
      onDone({ ok: false, message: readMessage(error) });
    } finally {
      setBusy(false);
    }
  }
  return (
    <section aria-label="Test payment" className="rounded-xl border border-slate-200 p-4">
      <p className="text-sm text-slate-600">Test mode: no card is needed and nothing is charged.</p>
      <div className="mt-4 flex flex-wrap gap-3">
        <Button disabled={busy} onClick={() => press("pay")}>
          Pay {amountLabel}
        </Button>
        <Button variant="secondary" disabled={busy} onClick={() => press("decline")}>
          Decline
        </Button>
      </div>
    </section>
  );
}
