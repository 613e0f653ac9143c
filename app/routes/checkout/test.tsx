import { redirect } from "react-router";
import { Link } from "~/components/ui/link.tsx";
import { TestModePayForm } from "~/components/checkout/checkout-panel.tsx";
import { CheckoutScreen } from "~/components/checkout/checkout-screen.tsx";
import { ErrorScreen, GeneralErrorBoundary } from "~/components/error-boundary.tsx";
import { buttonClass } from "~/components/ui/button.tsx";
import { asRouteError, invariantResponse } from "~/lib/errors.server.ts";
import { formatPrice } from "~/lib/format.ts";
import { pageTitle } from "~/lib/meta.ts";
import { requireUser } from "~/services/auth/guards.server.ts";
import { getTestCheckout, payTestCheckout, termIfPaidNow } from "~/services/commerce/checkout.server.ts";
import { NOINDEX } from "~/lib/seo.ts";
import type { Route } from "./+types/test";
import { readFormData } from "~/lib/form.server.ts";

// /checkout/test/{checkoutId}: the local test mode's "hosted page" (no STRIPE_SECRET_KEY), drawn as
// the app's one checkout screen. Its two buttons are plain forms; each becomes the events a Stripe
// webhook would bring, applied by the same fulfilment. Only the buyer may open it; in Stripe mode it does not exist (404).

export const meta: Route.MetaFunction = ({ matches }) => [{ title: pageTitle(matches, "Test payment") }, NOINDEX];

export async function loader({ request, params }: Route.LoaderArgs) {
  const user = await requireUser(request);
  const checkout = await getTestCheckout(user, params.checkoutId).catch(asRouteError);
  return { checkout, term: termIfPaidNow(checkout.amount) };
}

export async function action({ request, params }: Route.ActionArgs) {
  const user = await requireUser(request);
  const intent = (await readFormData(request)).get("intent");
  invariantResponse(intent === "pay" || intent === "decline", "Choose Pay or Decline", { status: 400 });
  await payTestCheckout(user, params.checkoutId, intent).catch(asRouteError);
  return redirect(`/checkout/return?checkout=${params.checkoutId}`, 303);
}

export default function TestCheckout({ loaderData: { checkout, term } }: Route.ComponentProps) {
  return (
    <CheckoutScreen
      product={{ name: checkout.description, price: checkout.amount, ...term }}
      testMode
      renews={checkout.status !== "completed"}
      pay={
        checkout.status === "completed" ? (
          <p role="status" className="text-emerald-800">
            This checkout is already paid.{" "}
            <Link to={`/checkout/return?checkout=${checkout.id}`} className="font-semibold underline">
              See the result
            </Link>
            .
          </p>
        ) : (
          <TestModePayForm checkoutId={checkout.id} amountLabel={formatPrice(checkout.amount)} />
        )
      }
      back={
        <Link to={`/checkout/return?checkout=${checkout.id}&canceled=1`} className={buttonClass({ variant: "secondary" })}>
          Cancel and go back
        </Link>
      }
    />
  );
}

export function ErrorBoundary() {
  return (
    <GeneralErrorBoundary
      statusHandlers={{
        404: () => <ErrorScreen title="Not Found" message="Checkout not found" />,
      }}
    />
  );
}
