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
import { type CheckoutItem, practiceHolds, practiceOffer, productName, termIfPaidNow } from "~/services/commerce/checkout.server.ts";
import { canManage, getMembership } from "~/services/practices/practices.server.ts";
import { INCLUDED_SEATS } from "~/validation/practices.ts";
import { formatMoney } from "~/lib/format.ts";
import { getCurrentLicenceTerms } from "~/services/licensing/licence-terms.server.ts";
import { LICENCE_TERMS_PATH } from "~/services/licensing/licence-terms-text.ts";

// /purchase/individual/{idOrSlug} and /purchase/category/{slugOrId}: the checkout screen with the
// item, its price, until when it runs, what the licence gives and a pay button (docs/architecture.md,
// "Product decisions"). The button is a POST form (→ 303 to the hosted checkout) that, with
// JavaScript, opens the embedded form instead.

export const meta: Route.MetaFunction = ({ matches }) => [{ title: pageTitle(matches, "Checkout") }, NOINDEX];

/** `?for=practice`: the licence is bought for the buyer's practice (decision 030). */
function buysForPractice(request: Request) {
  return new URL(request.url).searchParams.get("for") === "practice";
}

/**
 * Who may be named as the buyer: the member, or their practice when they own or manage it. For
 * the practice: its seats and the price with the extra seats, and whether it holds the licence.
 */
async function practiceChoice(userId: string, request: Request, price: number, item: { type: "individual"; id: string } | { type: "category"; id: string }) {
  const membership = await getMembership(userId);
  if (!membership || !canManage(membership.role)) return null;
  const offer = await practiceOffer(membership.practiceId, price);
  const held = await practiceHolds(membership.practiceId, item);
  return { name: membership.practice.legalName, chosen: buysForPractice(request), held, ...offer };
}

export async function loader({ request, params }: Route.LoaderArgs) {
  const user = await requireUser(request);
  const access = await getViewerAccess(request);
  const provider = getPaymentProvider();
  const terms = await getCurrentLicenceTerms();
  const payment = { testMode: provider.name === "test", publishableKey: provider.publishableKey, termsVersion: terms.version };
  const p = params;
  if (p.idOrSlug !== undefined) {
    const animation = await findLicensableAnimation(p.idOrSlug);
    invariantResponse(animation, "Animation not found", { status: 404 });
    const practice = await practiceChoice(user.id, request, animation.price, { type: "individual", id: animation.id });
    const held = practice?.chosen ? practice.held : holdsLicence(access, { type: "individual", animationId: animation.id });
    const price = practice?.chosen ? practice.amount : animation.price;
    return {
      kind: "individual" as const,
      practice,
      ...payment,
      itemId: animation.id,
      title: productName.individual(animation.title),
      itemHref: `/animations/${animation.slug}`,
      price,
      ...termIfPaidNow(price),
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
  const practice = await practiceChoice(user.id, request, category.price, { type: "category", id: category.id });
  const held = practice?.chosen ? practice.held : holdsLicence(access, { type: "category", categoryId: category.id });
  const price = practice?.chosen ? practice.amount : category.price;
  const { resolution, formats } = await getCatalogueClaims({ categoryIds: [category.id] });
  return {
    kind: "category" as const,
    practice,
    ...payment,
    itemId: category.id,
    title: productName.category(category.name),
    itemHref: `/category/${category.slug}`,
    price,
    ...termIfPaidNow(price),
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
  return goToHostedCheckout(user, item, { forPractice: buysForPractice(request) });
}

export default function Checkout({ loaderData, actionData }: Route.ComponentProps) {
  const { kind, title, itemHref, price, until, renewal, betterBuy, media, held, testMode, publishableKey, itemId, termsVersion, practice } = loaderData;
  const forPractice = Boolean(practice?.chosen);
  const name = practice?.chosen ? `${title}, for ${practice.name} (${practice.seats} seats)` : title;
  return (
    <CheckoutPanel
      product={{ name, href: itemHref, price, until, renewal }}
      details={
        <>
          {practice ? <BuyerChoice practice={practice} /> : null}
          <BenefitList
            items={[
              kind === "individual"
                ? `Access to the full animation${media.resolution ? ` in ${media.resolution}` : ""}`
                : `Every animation in the category${media.resolution ? `, in up to ${media.resolution}` : ""}`,
              media.formats ? `Download of the files (${media.formats})` : "Download of the files",
              "Commercial usage rights",
              forPractice
                ? `Used by everyone in the practice: ${practice!.seats} seats (${practice!.extraSeats > 0 ? `${INCLUDED_SEATS} included, ${practice!.extraSeats} more at ${formatMoney(practice!.perSeat)} each` : "included in the price"})`
                : "Premium Access included: stream the whole library",
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
          ? { path: "/api/subscriptions/individual", body: { animationId: itemId, ...(forPractice ? { forPractice: "true" } : {}) } }
          : { path: "/api/subscriptions/category", body: { categoryId: itemId, ...(forPractice ? { forPractice: "true" } : {}) } }
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
            {forPractice ? "Your practice already holds this license" : "You already hold this license"}. Find it under{" "}
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

/**
 * Whom the licence is for: two links (a GET each, so the choice works without JavaScript), the
 * chosen one marked. The price, the seats and the invoice follow the choice.
 */
function BuyerChoice({ practice }: { practice: { name: string; chosen: boolean; seats: number } }) {
  const option = (chosen: boolean, to: string, label: string) => (
    <Link
      to={to}
      replace
      preventScrollReset
      aria-current={chosen ? "true" : undefined}
      className={`rounded-lg px-3 py-2 text-sm font-medium ring-1 ${chosen ? "bg-brand-50 text-brand-800 ring-brand-600" : "text-slate-700 ring-slate-300 hover:bg-slate-50"}`}
    >
      {label}
    </Link>
  );
  return (
    <div className="mt-2 mb-4" data-testid="buyer-choice">
      <p className="text-sm font-semibold text-slate-800">License for</p>
      <div className="mt-2 flex flex-wrap gap-2">
        {option(!practice.chosen, "?", "Myself")}
        {option(practice.chosen, "?for=practice", `${practice.name} (${practice.seats} seats)`)}
      </div>
      {practice.chosen ? <p className="mt-2 text-sm text-slate-600">Its members use it, and the invoice is made out to the practice.</p> : null}
    </div>
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
