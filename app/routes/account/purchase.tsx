import { data } from "react-router";
import { Link } from "~/components/ui/link.tsx";
import { CheckoutPanel } from "~/components/checkout/checkout-panel.tsx";
import { BenefitList, CheaperCategoryNote } from "~/components/marketing.tsx";
import { ErrorScreen, GeneralErrorBoundary } from "~/components/error-boundary.tsx";
import { buttonClass } from "~/components/ui/button.tsx";
import { pageTitle } from "~/lib/meta.ts";
import { requireUser } from "~/services/auth/guards.server.ts";
import { getViewerAccess, holdsLicence } from "~/services/licensing/access.server.ts";
import { getCatalogueClaims } from "~/services/catalogue/claims.server.ts";
import { findLicensableAnimation, findLicensableCategory, mainCategoryNotSold } from "~/services/commerce/offers.server.ts";
import { goToHostedCheckout } from "~/routes/checkout/hosted-checkout.server.ts";
import { NOINDEX } from "~/lib/seo.ts";
import type { Route } from "./+types/purchase";
import { invariantResponse } from "~/lib/errors.server.ts";
import { getPaymentProvider } from "~/lib/payments/index.server.ts";
import { type CheckoutItem, productName, termIfPaidNow } from "~/services/commerce/checkout.server.ts";
import { getCurrentLicenceTerms } from "~/services/licensing/licence-terms.server.ts";
import { LICENCE_TERMS_PATH } from "~/services/licensing/licence-terms-text.ts";

// /purchase/individual/{idOrSlug} and /purchase/category/{slugOrId}: the checkout screen with the
// item, its price, until when it runs, what the licence gives and a pay button (docs/architecture.md,
// "Product decisions"). The button is a POST form (→ 303 to the hosted checkout) that, with
// JavaScript, opens the embedded form instead.

export const meta: Route.MetaFunction = ({ matches }) => [{ title: pageTitle(matches, "Checkout") }, NOINDEX];

export async function loader({ request, params }: Route.LoaderArgs) {
  await requireUser(request);
  const access = await getViewerAccess(request);
  const provider = getPaymentProvider();
  const terms = await getCurrentLicenceTerms();
  const payment = { testMode: provider.name === "test", publishableKey: provider.publishableKey, termsVersion: terms.version };
  const p = params;
  if (p.idOrSlug !== undefined) {
    const animation = await findLicensableAnimation(p.idOrSlug);
    invariantResponse(animation, "Animation not found", { status: 404 });
    const held = holdsLicence(access, { type: "individual", animationId: animation.id });
    return {
      kind: "individual" as const,
      ...payment,
      itemId: animation.id,
      title: productName.individual(animation.title),
      itemHref: `/animations/${animation.slug}`,
      price: animation.price,
      ...termIfPaidNow(animation.price),
      // Where one animation costs as much as its whole category, the page says so.
      betterBuy: animation.cheaperCategory,
      // This animation's own files: a claim only for what it has.
      media: animation.media,
      held,
    };
  }
  const found = await findLicensableCategory(p.slugOrId ?? null);
  invariantResponse(found, "Category not found", { status: 404 });
  if (found.main) throw data({ message: mainCategoryNotSold(found.main.name), chooseSpecialty: true }, { status: 404 });
  const category = found.category;
  const held = holdsLicence(access, { type: "category", categoryId: category.id });
  const { resolution, formats } = await getCatalogueClaims({ categoryIds: [category.id] });
  return {
    kind: "category" as const,
    ...payment,
    itemId: category.id,
    title: productName.category(category.name),
    itemHref: `/category/${category.slug}`,
    price: category.price,
    ...termIfPaidNow(category.price),
    betterBuy: null,
    media: { resolution, formats },
    held,
  };
}

/** Without JavaScript: the pay button posts here and goes on to the hosted checkout (303). */
export async function action({ request, params }: Route.ActionArgs) {
  const user = await requireUser(request);
  const item: CheckoutItem =
    params.idOrSlug !== undefined ? { type: "individual", animation: params.idOrSlug } : { type: "category", category: params.slugOrId ?? "" };
  return goToHostedCheckout(user, item);
}

export default function Checkout({ loaderData, actionData }: Route.ComponentProps) {
  const { kind, title, itemHref, price, until, renewal, betterBuy, media, held, testMode, publishableKey, itemId, termsVersion } = loaderData;
  return (
    <CheckoutPanel
      product={{ name: title, href: itemHref, price, until, renewal }}
      details={
        <>
          <BenefitList
            items={[
              kind === "individual"
                ? `Access to the full animation${media.resolution ? ` in ${media.resolution}` : ""}`
                : `Every animation in the category${media.resolution ? `, in up to ${media.resolution}` : ""}`,
              media.formats ? `Download of the files (${media.formats})` : "Download of the files",
              "Commercial usage rights",
              "Premium Access included: stream the whole library",
              "One year, with a 30-day money-back guarantee",
            ]}
          />
          {betterBuy ? <CheaperCategoryNote category={betterBuy} /> : null}
          <p className="mt-4 text-sm text-slate-600" data-testid="terms-acceptance">
            By paying you accept the{" "}
            <Link to={LICENCE_TERMS_PATH} className="font-medium text-brand-700 underline">
              license terms (version {termsVersion})
            </Link>
            .
          </p>
        </>
      }
      api={
        kind === "individual"
          ? { path: "/api/subscriptions/individual", body: { animationId: itemId } }
          : { path: "/api/subscriptions/category", body: { categoryId: itemId } }
      }
      startLabel="Continue to Payment"
      testMode={testMode}
      publishableKey={publishableKey}
      success={{ title: "Your license is active", description: "Download rights and premium access are yours for a year." }}
      backTo={itemHref}
      formError={actionData?.formError}
      held={
        held ? (
          <p role="status" className="rounded-xl bg-emerald-50 p-4 text-emerald-900">
            You already hold this license. Find it under{" "}
            <Link to="/my-animations" className="font-semibold underline">
              My Animations
            </Link>
            .
          </p>
        ) : undefined
      }
    />
  );
}

export function ErrorBoundary() {
  return (
    <GeneralErrorBoundary
      statusHandlers={{
        404: ({ error }) => {
          const body = error.data as { message?: string; chooseSpecialty?: boolean } | undefined;
          return (
            <ErrorScreen
              title="Not Found"
              message={body?.message ?? "Nothing to buy here."}
              action={
                body?.chooseSpecialty ? (
                  <Link to="/global-license" className={buttonClass({})}>
                    Choose a Specialty
                  </Link>
                ) : undefined
              }
            />
          );
        },
      }}
    />
  );
}
