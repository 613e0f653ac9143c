import { Form } from "~/components/ui/form.tsx";
import { TestModeBanner } from "~/components/checkout/test-mode-banner.tsx";
import { ErrorScreen, GeneralErrorBoundary } from "~/components/error-boundary.tsx";
import { Button, buttonClass } from "~/components/ui/button.tsx";
import { Link } from "~/components/ui/link.tsx";
import { asRouteError, invariantResponse } from "~/lib/errors.server.ts";
import { readFormData } from "~/lib/form.server.ts";
import { pageTitle } from "~/lib/meta.ts";
import { TEST_CARDS, type TestCardNumber } from "~/lib/payments/test-mode.server.ts";
import { NOINDEX } from "~/lib/seo.ts";
import { redirectWithToast } from "~/lib/toast.server.ts";
import { requireUser } from "~/services/auth/guards.server.ts";
import { getTestCardSetup, saveTestCard } from "~/services/commerce/payment-methods.server.ts";
import type { Route } from "./+types/test-card";

// /checkout/test/card/{setupId}: the local test mode's card page (no STRIPE_SECRET_KEY), standing
// in for Stripe's hosted card setup. A plain form per test card; only the member who started
// the replacement may open it; in Stripe mode it does not exist (404).

export const meta: Route.MetaFunction = ({ matches }) => [{ title: pageTitle(matches, "Test card") }, NOINDEX];

export async function loader({ request, params }: Route.LoaderArgs) {
  const user = await requireUser(request);
  const setup = await getTestCardSetup(user, params.setupId).catch(asRouteError);
  return { setup, cards: Object.entries(TEST_CARDS).map(([number, card]) => ({ number, label: card.label })) };
}

export async function action({ request, params }: Route.ActionArgs) {
  const user = await requireUser(request);
  const number = (await readFormData(request)).get("card");
  invariantResponse(typeof number === "string" && number in TEST_CARDS, "Choose a test card", { status: 400 });
  const card = await saveTestCard(user, params.setupId, number as TestCardNumber).catch(asRouteError);
  return redirectWithToast("/billing", { title: "Card replaced", description: `Renewals are now charged to the ${card.brand} card ending in ${card.last4}.` });
}

export default function TestCard({ loaderData: { setup, cards } }: Route.ComponentProps) {
  return (
    <main className="mx-auto max-w-xl px-4 py-12">
      <TestModeBanner show />
      <h1 className="text-3xl font-bold tracking-tight">Replace your card</h1>
      <p className="mt-3 text-slate-600">Test mode: choose a test card. Nothing is charged now; your renewals are charged to the card you save.</p>
      {setup.status === "open" ? (
        <ul className="mt-6 grid gap-3">
          {cards.map((card) => (
            <li key={card.number}>
              <Form method="post">
                <input type="hidden" name="card" value={card.number} />
                <Button type="submit" variant={card.number === "4242" ? "primary" : "secondary"} className="w-full">
                  Save {card.label}
                </Button>
              </Form>
            </li>
          ))}
        </ul>
      ) : (
        <p role="status" className="mt-6 text-slate-700">
          This card replacement is already finished.
        </p>
      )}
      <div className="mt-8">
        <Link to={`/billing/card?setup=${setup.id}&canceled=1`} className={buttonClass({ variant: "secondary" })}>
          Cancel and go back
        </Link>
      </div>
    </main>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary statusHandlers={{ 404: () => <ErrorScreen title="Not Found" message="Card setup not found" /> }} />;
}
