import type { ReactNode } from "react";
import { Link } from "~/components/ui/link.tsx";
import { BenefitList, FaqList, Guarantees, LicenceAfterEnd, PurchaseButton, SpecialtyList, Testimonial, type Faq, type MediaClaims } from "~/components/marketing.tsx";
import { formatPrice, formatYearlyPrice, pluralize } from "~/lib/format.ts";
import { getUser } from "~/services/auth/guards.server.ts";
import { getCatalogueClaims } from "~/services/catalogue/claims.server.ts";
import { getTestimonial } from "~/services/site/content.server.ts";
import { getCurrentLicenceTerms } from "~/services/licensing/licence-terms.server.ts";
import {
  findLicensableCategory,
  getCategoryLicenceFromPrice,
  getSingleAnimationOption,
  listLicensableCategories,
} from "~/services/commerce/offers.server.ts";
import { pageHead, siteOf } from "~/lib/seo.ts";
import type { Route } from "./+types/category-license";
import { LOAD_AS_DOCUMENT, STATIC_PAGE } from "~/lib/page-handle.ts";

// No behaviour of its own: the page does not hydrate (decision 025); the static page script
// adds the header's, the toast's and the cards' (lib/page-handle.ts).
export const handle = STATIC_PAGE;
export const clientMiddleware = LOAD_AS_DOCUMENT;

export const meta: Route.MetaFunction = ({ data, matches }) =>
  pageHead(siteOf(matches), {
    title: data?.title ?? "Category License – Annual Plan",
    description: "License a whole specialty: every animation in the category, downloads, commercial rights and Premium access.",
    // ?category= prices one category on the same offer: the offer has one URL.
    canonicalPath: "/category-license",
  });

// /category-license[?category={slug or id}]: the title is the category name plus
// "License – Annual Plan" at the category's licence price (its yearlyPrice, default 299). Only a
// sub-category is sold: without one (or for a main category) the page is generic and quotes the
// lowest sub-category price. Signed in, the button goes to /global-license to choose (or
// confirm) the category. `single` is what one animation costs beside it, for the FAQ's honest
// answer to "is there a smaller option?".
export async function loader({ request, url }: Route.LoaderArgs) {
  const [user, found, specialties, testimonial, terms] = await Promise.all([
    getUser(request),
    findLicensableCategory(url.searchParams.get("category")),
    listLicensableCategories(),
    getTestimonial(),
    getCurrentLicenceTerms(),
  ]);
  const category = found?.category ?? null;
  const [from, single, claims] = await Promise.all([
    category ? null : getCategoryLicenceFromPrice(),
    getSingleAnimationOption(category),
    // The named category's own files and additions; without one, the catalogue's.
    getCatalogueClaims(category ? { categoryIds: [category.id] } : {}),
  ]);
  return {
    signedIn: Boolean(user),
    category,
    specialties,
    title: category ? `${category.name} License – Annual Plan` : "Category License – Annual Plan",
    price: category ? category.price : from!.price,
    priceVaries: from?.varies ?? false,
    single,
    media: { resolution: claims.resolution, formats: claims.formats },
    freshness: claims.freshness,
    testimonial,
    licenceTerms: { version: terms.version, afterEnd: terms.afterEnd },
    returnTo: `${url.pathname}${url.search}`,
  };
}

export default function CategoryLicensePage({ loaderData }: Route.ComponentProps) {
  const { signedIn, category, title, priceVaries, single, media, freshness, returnTo } = loaderData;
  const downloads = [media.formats, media.resolution && `up to ${media.resolution}`].filter(Boolean).join(", in ");
  const price = formatPrice(loaderData.price);
  return (
    <main className="mx-auto max-w-6xl px-4 py-12">
      <header className="mx-auto max-w-3xl text-center">
        <p className="font-semibold tracking-wide text-brand-600 uppercase">Category License</p>
        <h1 className="mt-2 text-4xl font-bold tracking-tight">{title}</h1>
        <p className="mt-4 text-lg text-slate-600">
          {category ? `Every ${category.name} animation` : "Every animation in a specialty"}, including the ones published
          while your license runs, with downloads{downloads ? ` (${downloads})` : ""} and commercial rights for your practice.
        </p>
      </header>

      <section aria-labelledby="plan-title" className="mx-auto mt-10 max-w-md rounded-2xl border-2 border-brand-500 bg-white p-8 text-center shadow-lg">
        <h2 id="plan-title" className="text-xl font-bold">
          {title}
        </h2>
        <p className="mt-4">
          {priceVaries ? <span className="text-slate-500">from </span> : null}
          <span className="text-5xl font-bold">{price}</span>
          <span className="text-slate-500">/year</span>
        </p>
        <BenefitList
          items={[
            category ? `Every animation in ${category.name}` : "Every animation in the category you choose",
            "New animations in the category included as they are published",
            downloads ? `Downloads in ${downloads}` : "Downloads of every animation",
            "Commercial usage rights",
            "Premium Access included: stream the whole library",
            "Downloaded content stays yours permanently",
          ]}
        />
        <div className="mt-8">
          <PurchaseButton
            signedIn={signedIn}
            returnTo={returnTo}
            // A chosen category goes straight to its checkout; otherwise to choosing one.
            to={category ? `/purchase/category/${encodeURIComponent(category.slug)}` : "/global-license"}
          >
            Get Category License
          </PurchaseButton>
        </div>
      </section>
      <Guarantees media={media} freshness={freshness} />
      <SpecialtyList specialties={loaderData.specialties} />
      <Testimonial testimonial={loaderData.testimonial} />
      <FaqList name="category-license-faq" faqs={categoryFaqs(price, priceVaries, smallerOption(category, single), media, loaderData.licenceTerms)} />
    </main>
  );
}

function categoryFaqs(price: string, varies: boolean, smaller: ReactNode, media: MediaClaims, terms: { version: number; afterEnd: string }): Faq[] {
  const downloads = [media.formats, media.resolution && `up to ${media.resolution}`].filter(Boolean).join(", in ");
  return [
    {
      question: "What does a Category License include?",
      answer: `Every animation in the category, downloads${downloads ? ` in ${downloads}` : ""}, commercial usage rights, and Premium streaming access to the whole library while the license is active.`,
    },
    {
      question: "How much does a Category License cost?",
      answer: varies ? `Prices depend on the category, from ${price} per year.` : `${price} per year.`,
    },
    {
      question: "Are new animations included?",
      answer: "Yes. Every animation published in your category while the license is active is included at no extra cost.",
    },
    {
      question: "Which specialties can I license?",
      answer: "Each specialty listed under Available Specialties is licensed on its own, at the price shown beside it. The areas they are grouped under are not sold as a whole.",
    },
    {
      question: "Can I download the animations?",
      answer: (
        <>
          Yes. While the license is active every animation in the category can be downloaded{downloads ? ` in ${downloads}` : ""}. <LicenceAfterEnd terms={terms} />
        </>
      ),
    },
    {
      question: "Can I use the animations commercially?",
      answer: "Yes. The license includes commercial usage rights for your practice: consultations, presentations, your website and social media.",
    },
    {
      question: "Is Premium access included?",
      answer: "Yes. While the license is active you can stream every animation in the library, in every category.",
    },
    {
      question: "Can I cancel anytime?",
      answer: "Yes. You keep access until the end of the billing period you paid for.",
    },
    {
      question: "Is there a money-back guarantee?",
      answer: "Yes. Every license comes with a 30-day money-back guarantee.",
    },
    { question: "I only need one animation. Is there a smaller option?", answer: smaller },
  ];
}

/**
 * The honest answer to "is there a smaller option?": an Individual License is smaller, but it is
 * only cheaper where one animation costs less than the licence for its whole category.
 */
function smallerOption(
  category: { name: string; price: number; animationCount: number } | null,
  single: { price: number; categoryOftenCheaper: boolean } | null,
): ReactNode {
  const individual = <Link to="/individual-license" className="text-brand-700 underline">Individual License</Link>;
  if (!single) return <>An {individual} covers a single animation.</>;
  if (category && single.categoryOftenCheaper) {
    return (
      <>
        Not in {category.name}: an {individual} covers a single animation, but every one here costs {formatYearlyPrice(single.price)} or more,
        at least as much as this license for all {pluralize(category.animationCount, "animation")}.
      </>
    );
  }
  return (
    <>
      Yes: an {individual} covers a single animation, from {formatPrice(single.price)} per year.
      {single.categoryOftenCheaper && !category ? " In some specialties the Category License costs no more than one animation: each animation's page shows both prices." : null}
    </>
  );
}
