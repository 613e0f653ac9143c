import { Link } from "react-router";
import { TestModeBanner } from "~/components/checkout/test-mode-banner.tsx";
import { ErrorScreen, GeneralErrorBoundary } from "~/components/error-boundary.tsx";
import { ButtonLink } from "~/components/ui/button.tsx";
import { asRouteError } from "~/lib/errors.server.ts";
import { formatPrice } from "~/lib/format.ts";
import { pageTitle } from "~/lib/meta.ts";
import { getPaymentProvider } from "~/lib/payments/index.server.ts";
import { requireUser } from "~/services/auth/guards.server.ts";
import { getCheckoutResult } from "~/services/checkout.server.ts";
import type { Route } from "./+types/return";

// /checkout/return?checkout={id}: where a hosted checkout comes back (paid, declined, canceled).
// The page only reads: the payment itself is granted by fulfilment (a webhook, a test-mode
// button), so a Stripe return that beats its webhook says "still confirming".

export const meta: Route.MetaFunction = ({ matches }) => [{ title: pageTitle(matches, "Checkout") }];

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
          <p className="mt-3 text-slate-600">
            {result.description}: {formatPrice(result.amount)} paid. A receipt is on its way to your inbox and in{" "}
            <Link to="/billing" className="font-semibold text-brand-700 underline">Billing</Link>.
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
