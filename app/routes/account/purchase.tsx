import { Link } from "react-router";
import { BenefitList } from "~/components/marketing.tsx";
import { ErrorScreen, GeneralErrorBoundary } from "~/components/error-boundary.tsx";
import { buttonClass } from "~/components/ui/button.tsx";
import { Section } from "~/components/ui/section.tsx";
import { formatPrice } from "~/lib/format.ts";
import { pageTitle } from "~/lib/meta.ts";
import { requireUser } from "~/services/auth/guards.server.ts";
import { getViewerAccess, holdsLicence } from "~/services/access.server.ts";
import { findLicensableAnimation, findLicensableCategory } from "~/services/offers.server.ts";
import { INDIVIDUAL_LICENCE_PRICE } from "~/services/prices.server.ts";
import type { Route } from "./+types/purchase";
import { invariantResponse } from "~/lib/errors.server.ts";

// /purchase/individual/{idOrSlug} and /purchase/category/{slugOrId} (ARCHITECTURE.md: checkout
// pages with the item, its price, what the licence gives and a pay button). Taking the payment
// is the payments work: until it lands, this page says so plainly and takes nothing.

export const meta: Route.MetaFunction = ({ matches }) => [{ title: pageTitle(matches, "Checkout") }];

export async function loader({ request, params }: Route.LoaderArgs) {
  await requireUser(request);
  const access = await getViewerAccess(request);
  const p = params;
  if (p.idOrSlug !== undefined) {
    const animation = await findLicensableAnimation(p.idOrSlug);
    invariantResponse(animation, "Animation not found", { status: 404 });
    const held = holdsLicence(access, { type: "individual", animationId: animation.id });
    return {
      kind: "individual" as const,
      title: `Individual Animation License: ${animation.title}`,
      itemHref: `/animations/${animation.slug}`,
      price: INDIVIDUAL_LICENCE_PRICE,
      held,
    };
  }
  const category = await findLicensableCategory(p.slugOrId ?? null);
  invariantResponse(category, "Category not found", { status: 404 });
  const held = holdsLicence(access, { type: "category", categoryId: category.id });
  return {
    kind: "category" as const,
    title: `${category.name} License – Annual Plan`,
    itemHref: `/category/${category.slug}`,
    price: category.price,
    held,
  };
}

export default function Checkout({ loaderData: { kind, title, itemHref, price, held } }: Route.ComponentProps) {
  return (
    <main className="mx-auto max-w-xl px-4 py-12">
      <h1 className="text-3xl font-bold tracking-tight">Checkout</h1>
      <Section
        card
        id="order-title"
        title={
          <Link to={itemHref} className="hover:text-brand-700">
            {title}
          </Link>
        }
        className="mt-8"
      >
        <p className="mt-3">
          <span className="text-4xl font-bold">{formatPrice(price)}</span>
          <span className="text-slate-500">/year</span>
        </p>
        <BenefitList
          items={[
            kind === "individual" ? "4K access to the full animation" : "Every animation in the category, in 4K",
            "ZIP download (MP4 and WebM)",
            "Commercial usage rights",
            "Premium Access included: stream the whole library",
            "One year, with a 30-day money-back guarantee",
          ]}
        />
      </Section>
      {held ? (
        <p role="status" className="mt-6 rounded-xl bg-emerald-50 p-4 text-emerald-900">
          You already hold this licence. Find it under <Link to="/my-animations" className="font-semibold underline">My Animations</Link>.
        </p>
      ) : (
        <div role="status" className="mt-6 rounded-xl border border-amber-300 bg-amber-50 p-4 text-amber-950">
          <p className="font-semibold">Online payment is not available yet.</p>
          <p className="mt-1">
            Nothing has been charged. <Link to="/contact" className="font-semibold underline">Contact us</Link> to buy this
            licence today.
          </p>
        </div>
      )}
      <div className="mt-8">
        <Link to={itemHref} className={buttonClass({ variant: "secondary" })}>
          Back
        </Link>
      </div>
    </main>
  );
}

export function ErrorBoundary() {
  return (
    <GeneralErrorBoundary
      statusHandlers={{
        404: ({ error }) => (
          <ErrorScreen title="Not Found" message={(error.data as { message?: string })?.message ?? "Nothing to buy here."} />
        ),
      }}
    />
  );
}
