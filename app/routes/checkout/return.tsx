import { Link } from "~/components/ui/link.tsx";
import { TestModeBanner } from "~/components/checkout/test-mode-banner.tsx";
import { ErrorScreen, GeneralErrorBoundary } from "~/components/error-boundary.tsx";
import { ButtonLink } from "~/components/ui/button.tsx";
import { asRouteError } from "~/lib/errors.server.ts";
import { formatLongDate, formatPrice } from "~/lib/format.ts";
import { pageTitle } from "~/lib/meta.ts";
import { getPaymentProvider } from "~/lib/payments/index.server.ts";
import { requireUser } from "~/services/auth/guards.server.ts";
import { getCheckoutResult } from "~/services/commerce/checkout.server.ts";
import { NOINDEX } from "~/lib/seo.ts";
import type { Route } from "./+types/return";

// /checkout/return?checkout={id}: the one confirmation of every purchase, where a hosted checkout
// comes back (paid, declined, canceled) and where the embedded form goes once paid, so with or
// without JavaScript the buyer sees what was bought, until when, and the receipt. The page only
// reads: the payment itself is granted by fulfilment (a webhook, a test-mode button), so a Stripe
// return that beats its webhook says "still confirming".

export const meta: Route.MetaFunction = ({ matches }) => [{ title: pageTitle(matches, "Checkout") }, NOINDEX];

export async function loader({ request }: Route.LoaderArgs) {
  const user = await requireUser(request);
  const url = new URL(request.url);
  const result = await getCheckoutResult(user, url.searchParams.get("checkout") ?? "", { canceled: url.searchParams.has("canceled") }).catch(asRouteError);
  return { result, testMode: getPaymentProvider().name === "test" };
}

export default function CheckoutReturn({ loaderData: { result, testMode } }: Route.ComponentProps) {
  return (
    <main className="mx-auto max-w-xl px-4 py-12 text-center">
      <TestModeBanner show={testMode} />
      {result.status === "paid" ? (
        <>
          <h1 className="text-3xl font-bold tracking-tight">{result.type === "global" ? "Welcome to Premium!" : "Your license is active"}</h1>
          <dl className="mx-auto mt-6 grid max-w-md grid-cols-[auto_1fr] gap-x-4 gap-y-2 rounded-2xl border border-slate-200 bg-white p-6 text-left shadow-sm">
            <dt className="text-slate-600">Purchased</dt>
            <dd className="font-semibold">{result.description}</dd>
            <dt className="text-slate-600">Paid</dt>
            <dd>{formatPrice(result.amount)}</dd>
            {result.endDate ? (
              <>
                <dt className="text-slate-600">Active until</dt>
                <dd>{formatLongDate(result.endDate)}</dd>
              </>
            ) : null}
          </dl>
          <p className="mt-4 text-slate-600">
            A copy of the receipt is on its way to your inbox.{" "}
            {result.paymentId ? (
              <Link to={`/billing/receipts/${result.paymentId}`} className="font-semibold text-brand-700 underline">
                View receipt
              </Link>
            ) : (
              <Link to="/billing" className="font-semibold text-brand-700 underline">
                Billing
              </Link>
            )}
          </p>
          <div className="mt-8 flex flex-wrap justify-center gap-3">
            {result.type === "global" ? (
              <ButtonLink to="/">Start watching</ButtonLink>
            ) : (
              <>
                {result.animationId ? <ButtonLink to={`/watch/${result.animationId}`}>Watch and download</ButtonLink> : null}
                <ButtonLink to="/my-animations" variant={result.animationId ? "secondary" : "primary"}>
                  My Animations
                </ButtonLink>
              </>
            )}
          </div>
        </>
      ) : result.status === "failed" ? (
        <>
          <h1 className="text-3xl font-bold tracking-tight">Payment Failed</h1>
          <p role="alert" className="mt-3 text-red-800">
            {result.message}
          </p>
          <p className="mt-2 text-slate-600">Nothing was granted for {result.description}.</p>
          <div className="mt-8 flex justify-center gap-3">
            <ButtonLink to="/">Back to the library</ButtonLink>
          </div>
        </>
      ) : (
        <>
          <h1 className="text-3xl font-bold tracking-tight">Still confirming your payment</h1>
          <p role="status" className="mt-3 text-slate-600">
            The payment provider has not confirmed {result.description} yet. This takes a few seconds.
          </p>
          <div className="mt-8 flex justify-center">
            <Link to={`/checkout/return?checkout=${result.checkoutId}`} reloadDocument className="font-semibold text-brand-700 underline">
              Reload
            </Link>
          </div>
        </>
      )}
    </main>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary statusHandlers={{ 404: () => <ErrorScreen title="Not Found" message="Checkout not found" /> }} />;
}
