import { lazy, type ReactNode, Suspense, useState } from "react";
import { useNavigate } from "react-router";
import { Link } from "~/components/ui/link.tsx";
import { Button, buttonClass } from "~/components/ui/button.tsx";
import { showToast } from "~/components/ui/show-toast.ts";
import { Form } from "~/components/ui/form.tsx";
import { formatPrice } from "~/lib/format.ts";
import { readMessage, confirmOnServer, type Outcome } from "./client.ts";
import { type CheckoutProduct, CheckoutScreen } from "./checkout-screen.tsx";
import { RenewalDisclosure } from "./renewal-disclosure.tsx";

// The buying flow of /premium and /purchase/*. Without JavaScript the buy button is a plain POST
// form (the page's action answers 303 to the hosted checkout, which comes back to
// /checkout/return). With JavaScript it asks the /api for a client secret and shows the checkout
// screen with the embedded form; once paid it goes to the same /checkout/return, with the toast
// on top. Stripe.js is loaded only here, only when Stripe is configured.

const StripePaymentForm = lazy(() => import("./stripe-payment-form.tsx"));

export type CheckoutPanelProps = {
  product: CheckoutProduct;
  details?: ReactNode;
  /** The /api endpoint and its JSON body (POST /api/subscriptions/global {priceType}, …). */
  api: { path: string; body: Record<string, string> };
  startLabel: ReactNode;
  testMode: boolean;
  publishableKey: string | null;
  /** The toast shown over the confirmation after paying with JavaScript. */
  success: { title: string; description: string };
  /** Where Back leads before the payment form is open. */
  backTo: string;
  formError?: string | null;
  /** Shown instead of the buy button when the product is already held. */
  held?: ReactNode;
  /** A page of its own around the buy button (premium's plan page) instead of the checkout screen. */
  intro?: (start: ReactNode) => ReactNode;
};

export function CheckoutPanel({ product, details, api, startLabel, testMode, publishableKey, success, backTo, formError, held, intro }: CheckoutPanelProps) {
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
      if (body.clientSecret && body.checkoutId) {
        setPayment({ checkoutId: body.checkoutId, clientSecret: body.clientSecret });
        // The checkout screen replaces the page the button was on (premium's is long): start at its top.
        window.scrollTo({ top: 0 });
      } else throw new Error("The payment form could not be prepared.");
    } catch (error) {
      showToast({ type: "error", title: "Payment Setup Failed", description: readMessage(error) });
    } finally {
      setBusy(false);
    }
  }

  const amountLabel = formatPrice(product.price);

  if (payment) {
    const done = (outcome: Outcome) => {
      if (outcome.ok) {
        showToast({ type: "success", title: success.title, description: success.description });
        navigate(`/checkout/return?checkout=${payment.checkoutId}`);
      } else {
        showToast({ type: "error", title: "Payment Failed", description: outcome.message });
      }
    };
    return (
      <CheckoutScreen
        product={product}
        testMode={testMode}
        details={details}
        pay={
          testMode ? (
            <TestModePayForm checkoutId={payment.checkoutId} amountLabel={amountLabel} onDone={done} />
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
          )
        }
        takeFocus
        back={
          <Button variant="secondary" onClick={() => setPayment(null)}>
            Back
          </Button>
        }
      />
    );
  }

  const startForm = (
    <Form reloadDocument method="post" onSubmit={start}>
      <input type="hidden" name="intent" value="checkout" />
      <Button type="submit" size="lg" className="w-full" disabled={busy}>
        {startLabel}
      </Button>
    </Form>
  );
  if (intro)
    return intro(
      <>
        {startForm}
        <RenewalDisclosure renewal={product.renewal} />
      </>,
    );
  return (
    <CheckoutScreen
      product={product}
      testMode={testMode}
      details={details}
      pay={held ?? startForm}
      renews={!held}
      formError={formError}
      back={
        <Link to={backTo} className={buttonClass({ variant: "secondary" })}>
          Back
        </Link>
      }
    />
  );
}

/**
 * The local test mode's Pay / Decline, the same on its hosted page (plain forms posted to
 * /checkout/test/{id}) and in the embedded step, where JavaScript sends them to the /api instead.
 */
export function TestModePayForm({ checkoutId, amountLabel, onDone }: { checkoutId: string; amountLabel: string; onDone?: (outcome: Outcome) => void }) {
  const [busy, setBusy] = useState(false);
  async function press(event: React.FormEvent<HTMLFormElement>, outcome: "pay" | "decline") {
    if (!onDone) return;
    event.preventDefault();
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
        <Form reloadDocument method="post" action={`/checkout/test/${checkoutId}`} onSubmit={(event) => press(event, "pay")}>
          <input type="hidden" name="intent" value="pay" />
          <Button type="submit" size="lg" disabled={busy}>
            Pay {amountLabel}
          </Button>
        </Form>
        <Form reloadDocument method="post" action={`/checkout/test/${checkoutId}`} onSubmit={(event) => press(event, "decline")}>
          <input type="hidden" name="intent" value="decline" />
          <Button type="submit" size="lg" variant="secondary" disabled={busy}>
            Decline
          </Button>
        </Form>
      </div>
    </section>
  );
}
