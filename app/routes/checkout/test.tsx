import { Form, Link, redirect } from "react-router";
import { TestModeBanner } from "~/components/checkout/test-mode-banner.tsx";
import { ErrorScreen, GeneralErrorBoundary } from "~/components/error-boundary.tsx";
import { Button } from "~/components/ui/button.tsx";
import { Section } from "~/components/ui/section.tsx";
import { asRouteError, invariantResponse } from "~/lib/errors.server.ts";
import { formatPrice } from "~/lib/format.ts";
import { pageTitle } from "~/lib/meta.ts";
import { requireUser } from "~/services/auth/guards.server.ts";
import { getTestCheckout, payTestCheckout } from "~/services/checkout.server.ts";
import type { Route } from "./+types/test";
import { readFormData } from "~/lib/form.server.ts";

// /checkout/test/{checkoutId}: the local test mode's "hosted page" (no STRIPE_SECRET_KEY). Its
// two buttons are plain forms; each becomes the events a Stripe webhook would bring, applied by
// the same fulfilment. Only the buyer may open it; in Stripe mode it does not exist (404).

export const meta: Route.MetaFunction = ({ matches }) => [{ title: pageTitle(matches, "Test payment") }];

export async function loader({ request, params }: Route.LoaderArgs) {
  const user = await requireUser(request);
  const checkout = await getTestCheckout(user, params.checkoutId).catch(asRouteError);
  return { checkout };
}

export async function action({ request, params }: Route.ActionArgs) {
  const user = await requireUser(request);
  const intent = (await readFormData(request)).get("intent");
  invariantResponse(intent === "pay" || intent === "decline", "Choose Pay or Decline", { status: 400 });
  await payTestCheckout(user, params.checkoutId, intent).catch(asRouteError);
  return redirect(`/checkout/return?checkout=${params.checkoutId}`, 303);
}

export default function TestCheckout({ loaderData: { checkout } }: Route.ComponentProps) {
  const amount = formatPrice(checkout.amount);
  return (
    <main className="mx-auto max-w-xl px-4 py-12">
      <TestModeBanner show />
      <h1 className="text-3xl font-bold tracking-tight">Test payment</h1>
      <Section card id="test-order" title={checkout.description} className="mt-8">
        <p className="mt-3">
          <span className="text-4xl font-bold">{amount}</span>
          <span className="text-slate-500">/year</span>
        </p>
        {checkout.status === "completed" ? (
          <p role="status" className="mt-4 text-emerald-800">
            This checkout is already paid. <Link to={`/checkout/return?checkout=${checkout.id}`} className="font-semibold underline">See the result</Link>.
          </p>
        ) : (
          <div className="mt-6 flex flex-wrap gap-3">
            <Form method="post" reloadDocument>
              <input type="hidden" name="intent" value="pay" />
              <Button type="submit" size="lg">
                Pay {amount}
              </Button>
            </Form>
            <Form method="post" reloadDocument>
              <input type="hidden" name="intent" value="decline" />
              <Button type="submit" size="lg" variant="secondary">
                Decline
              </Button>
            </Form>
          </div>
        )}
      </Section>
      <p className="mt-6 text-sm text-slate-600">
        <Link to={`/checkout/return?checkout=${checkout.id}&canceled=1`} className="underline">
          Cancel and go back
        </Link>
      </p>
    </main>
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
