import type { ReactNode } from "react";
import { Link } from "~/components/ui/link.tsx";
import { CheckoutPanel } from "~/components/checkout/checkout-panel.tsx";
import { TestModeBanner } from "~/components/checkout/test-mode-banner.tsx";
import { BenefitList, FaqList, Guarantees, PurchaseButton, Testimonial, type Faq } from "~/components/marketing.tsx";
import { ButtonLink } from "~/components/ui/button.tsx";
import { formatPrice, formatYearlyPrice } from "~/lib/format.ts";
import { getAccess, hasGlobalAccess } from "~/services/licensing/access.server.ts";
import { getCatalogueClaims } from "~/services/catalogue/claims.server.ts";
import { getTestimonial } from "~/services/site/content.server.ts";
import { getUser, requireUser } from "~/services/auth/guards.server.ts";
import { getPaymentProvider } from "~/lib/payments/index.server.ts";
import { getIndividualLicenceFromPrice, getPremiumPrice } from "~/services/commerce/offers.server.ts";
import { goToHostedCheckout } from "~/routes/checkout/hosted-checkout.server.ts";
import { productName, termIfPaidNow } from "~/services/commerce/checkout.server.ts";
import type { CatalogueClaims } from "~/services/catalogue/claims.server.ts";
import type { PageHandle } from "~/lib/page-handle.ts";
import { pageHead, siteOf } from "~/lib/seo.ts";
import type { Route } from "./+types/premium";

// A visitor's page is links and text: it loads no React (decision 025). A signed-in member's is
// the checkout, which hydrates.
export const handle: PageHandle = { hydrate: (data) => (data as { signedIn?: boolean } | undefined)?.signedIn !== false };

export const meta: Route.MetaFunction = ({ data, matches }) =>
  pageHead(siteOf(matches), {
    title: "Premium Access",
    description: `Unlimited streaming of every medical animation${data?.claims.resolution ? ` in up to ${data.claims.resolution}` : ""}. $9/month, billed annually.`,
    canonicalPath: "/premium",
  });

export async function loader({ request }: Route.LoaderArgs) {
  const user = await getUser(request);
  const [price, access, individual, claims, testimonial] = await Promise.all([
    getPremiumPrice(),
    getAccess(user),
    getIndividualLicenceFromPrice(),
    getCatalogueClaims(),
    getTestimonial(),
  ]);
  const provider = getPaymentProvider();
  return {
    price,
    // Animations are priced one by one: the FAQ quotes the lowest, "from" when they differ.
    individualPrice: individual.price,
    individualPriceVaries: individual.varies,
    claims,
    testimonial,
    signedIn: Boolean(user),
    alreadyPremium: hasGlobalAccess(access),
    testMode: provider.name === "test",
    publishableKey: provider.publishableKey,
    product: productName.global(),
    ...termIfPaidNow(price.yearly),
  };
}

/** Without JavaScript: the buy button posts here and goes on to the hosted checkout (303). */
export async function action({ request }: Route.ActionArgs) {
  return goToHostedCheckout(await requireUser(request), { type: "global" });
}

export default function PremiumPage({ loaderData, actionData }: Route.ComponentProps) {
  const { price, product, until, renewal, individualPrice, individualPriceVaries, claims, signedIn, alreadyPremium, testMode, publishableKey } = loaderData;
  if (alreadyPremium) return <AlreadyPremium />;
  const yearly = formatPrice(price.yearly);
  const monthly = formatPrice(price.monthly);
  // The plan page is the intro; the buy button leads on to the one checkout screen.
  const intro = (buy: ReactNode) => (
    <main className="mx-auto max-w-6xl px-4 py-12">
      <TestModeBanner show={testMode && signedIn} />
      <header className="mx-auto max-w-3xl text-center">
        <p className="font-semibold tracking-wide text-brand-600 uppercase">Premium Access</p>
        <h1 className="mt-2 text-4xl font-bold tracking-tight">Unlock the Complete Medical Animation Library</h1>
        <p className="mt-4 text-lg text-slate-600">
          Stream every medical and plastic-surgery animation in full
          {claims.resolution ? `, in up to ${claims.resolution}` : ""}, including every new one as soon as it is published.
        </p>
      </header>

      <section aria-labelledby="plan-title" className="mx-auto mt-10 max-w-md rounded-2xl border-2 border-brand-500 bg-white p-8 text-center shadow-lg">
        <h2 id="plan-title" className="text-xl font-bold">
          Premium – Annual Plan
        </h2>
        <p className="mt-4">
          <span className="text-5xl font-bold">{monthly}</span>
          <span className="text-slate-500">/month</span>
        </p>
        <p className="mt-1 text-sm text-slate-600">
          Billed annually at <strong>{formatYearlyPrice(price.yearly)}</strong>
        </p>
        <BenefitList items={benefits(claims)} />
        <div className="mt-8">
          {buy}
          {actionData?.formError ? (
            <p role="alert" className="mt-3 text-sm text-red-700">
              {actionData.formError}
            </p>
          ) : null}
        </div>
        <p className="mt-4 text-xs text-slate-500">
          Premium is for streaming. Downloads and commercial rights come with an{" "}
          <Link to="/individual-license" className="underline">Individual License</Link> or a{" "}
          <Link to="/category-license" className="underline">Category License</Link>.
        </p>
      </section>
      <Guarantees media={{ resolution: claims.resolution, formats: claims.formats }} freshness={claims.freshness} />
      <Testimonial testimonial={loaderData.testimonial} />
      <FaqList name="premium-faq" faqs={premiumFaqs(yearly, monthly, `${individualPriceVaries ? "from " : ""}${formatYearlyPrice(individualPrice)}`, claims)} />
    </main>
  );
  if (!signedIn) {
    return intro(
      <PurchaseButton signedIn={false} returnTo="/premium" to="/premium">
        Get Premium Access
      </PurchaseButton>,
    );
  }
  return (
    <CheckoutPanel
      product={{ name: product, price: price.yearly, until, renewal }}
      details={<BenefitList items={benefits(claims)} />}
      api={{ path: "/api/subscriptions/global", body: { priceType: "yearly" } }}
      startLabel="Get Premium Access"
      testMode={testMode}
      publishableKey={publishableKey}
      success={{ title: "Welcome to Premium!", description: "Every animation in the library is now yours to stream in full." }}
      backTo="/premium"
      intro={intro}
    />
  );
}

function benefits(claims: CatalogueClaims) {
  return [
    "Unlimited streaming of every animation in the library",
    claims.resolution ? `Full-length videos in up to ${claims.resolution}` : "Full-length videos",
    ...(claims.freshness ? [claims.freshness] : []),
    "Cancel anytime, with access until the end of your billing period",
    "30-day money-back guarantee",
  ];
}

function AlreadyPremium() {
  return (
    <main className="mx-auto flex max-w-xl flex-col items-center px-4 py-24 text-center">
      <h1 className="text-3xl font-bold">You Already Have Premium</h1>
      <p className="mt-3 text-slate-600">
        You already have premium access: every animation in the library is yours to stream in full. Need downloads or
        commercial rights? Add an Individual or Category License.
      </p>
      <div className="mt-8 flex flex-wrap justify-center gap-3">
        <ButtonLink to="/">Browse Animations</ButtonLink>
        <ButtonLink to="/dashboard" variant="secondary">
          Go to Dashboard
        </ButtonLink>
      </div>
    </main>
  );
}

/**
 * What the review records hold, and no more: a named doctor, a date and a next review date on
 * the animation's page, shown only while the review is current.
 */
const MEDICAL_REVIEW_ANSWER =
  "One of the doctors named on an animation reviews it medically. Its page then says who reviewed it, when, and when the next review is due; an animation whose review is missing or past its next review date shows no review line until a doctor reviews it again.";

function premiumFaqs(yearly: string, monthly: string, individual: string, claims: CatalogueClaims): Faq[] {
  const upTo = claims.resolution ? `up to ${claims.resolution}` : null;
  const downloads = [claims.formats, upTo].filter(Boolean).join(", ");
  return [
    {
      question: "What is included in Premium?",
      answer: `Unlimited streaming of every animation in the library, in full length${upTo ? ` and ${upTo}` : ""}, including every new animation we add.`,
    },
    {
      question: "How much does Premium cost?",
      answer: `${yearly} per year, which works out at ${monthly}/month billed annually.`,
    },
    {
      question: "Can I download animations with Premium?",
      answer: `Premium is for streaming. Downloads${downloads ? ` (${downloads})` : ""} and commercial usage rights come with an Individual License (${individual}) or a Category License, and both include Premium access.`,
    },
    {
      question: "Can I cancel anytime?",
      answer: "Yes. Cancel whenever you like and keep your access until the end of the billing period you paid for.",
    },
    {
      question: "Is there a money-back guarantee?",
      answer: "Yes. Every purchase comes with a 30-day money-back guarantee: request a refund within 30 days and we will return your payment.",
    },
    {
      question: "How often are new animations added?",
      answer: `${claims.freshness ? `${claims.freshness}. ` : ""}Premium members can stream each new animation as soon as it is published.`,
    },
    {
      question: "What video quality and formats are available?",
      answer: [
        upTo ? `Animations stream in ${upTo} resolution.` : "Each animation's page states its resolution.",
        claims.formats ? `Licensed downloads are provided in ${claims.formats}.` : null,
      ]
        .filter(Boolean)
        .join(" "),
    },
    {
      question: "Who checks the medical accuracy of the animations?",
      answer: MEDICAL_REVIEW_ANSWER,
    },
    {
      question: "Can I use the animations in my practice or on my website?",
      answer: "Streaming with Premium is for viewing. To use animations in presentations, on your website or on social media you need the commercial rights of an Individual or Category License.",
    },
    {
      question: "How do I get help with my subscription?",
      answer: (
        <>
          Visit the <Link to="/help" className="text-brand-700 underline">Help Center</Link> or{" "}
          <Link to="/contact" className="text-brand-700 underline">contact support</Link>: our team responds within 24 hours.
        </>
      ),
    },
  ];
}
