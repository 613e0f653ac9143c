import { Link } from "~/components/ui/link.tsx";
import {
  BenefitList,
  CheaperCategoryNote,
  FaqList,
  formatsAnswer,
  Guarantees,
  LicenceAfterEnd,
  LicenceCoverage,
  type MediaClaims,
  PurchaseButton,
  Testimonial,
  type Faq,
} from "~/components/marketing.tsx";
import { formatPrice } from "~/lib/format.ts";
import { getUser } from "~/services/auth/guards.server.ts";
import { getCatalogueClaims } from "~/services/catalogue/claims.server.ts";
import { getTestimonial } from "~/services/site/content.server.ts";
import { getCurrentLicenceTerms } from "~/services/licensing/licence-terms.server.ts";
import { findLicensableAnimation, getIndividualLicenceFromPrice } from "~/services/commerce/offers.server.ts";
import { termIfPaidNow } from "~/services/commerce/checkout.server.ts";
import { pageHead, siteOf } from "~/lib/seo.ts";
import type { Route } from "./+types/individual-license";
import { LOAD_AS_DOCUMENT, STATIC_PAGE } from "~/lib/page-handle.ts";

// No behaviour of its own: the page does not hydrate (decision 025); the static page script
// adds the header's, the toast's and the cards' (lib/page-handle.ts).
export const handle = STATIC_PAGE;
export const clientMiddleware = LOAD_AS_DOCUMENT;

export const meta: Route.MetaFunction = ({ matches }) =>
  pageHead(siteOf(matches), {
    title: "Individual Animation License",
    description: "License one animation for a year: download, commercial rights and Premium access included.",
    // ?animation= prices one animation on the same offer: the offer has one URL.
    canonicalPath: "/individual-license",
  });

// /individual-license?animation={id}: the page's button goes to /purchase/individual/{animation}
// when signed in with an animation, to / when signed in without one, else to /auth. With an
// animation the price is that animation's (what checkout charges); without one, the lowest.
export async function loader({ request, url }: Route.LoaderArgs) {
  const [user, animation, from, claims, testimonial, terms] = await Promise.all([
    getUser(request),
    findLicensableAnimation(url.searchParams.get("animation")),
    getIndividualLicenceFromPrice(),
    getCatalogueClaims(),
    getTestimonial(),
    getCurrentLicenceTerms(),
  ]);
  const price = animation ? animation.price : from.price;
  const priceVaries = animation ? false : from.varies;
  const term = termIfPaidNow(price);
  return {
    signedIn: Boolean(user),
    animation,
    price,
    priceVaries,
    categoryOftenCheaper: from.categoryOftenCheaper,
    // One animation's own files when it is named, else the best the catalogue has ("up to").
    media: animation ? { ...animation.media, upTo: false } : { resolution: claims.resolution, formats: claims.formats, upTo: true },
    freshness: claims.freshness,
    testimonial,
    // What the licence covers is the current terms record's own words (decision 028).
    licenceTerms: { version: terms.version, grant: terms.grant, afterEnd: terms.afterEnd, restrictions: terms.restrictions },
    // The year a payment made now buys and its renewal, as checkout states them.
    until: term.until,
    renewal: { ...term.renewal, from: priceVaries },
    returnTo: `${url.pathname}${url.search}`,
  };
}

export default function IndividualLicensePage({ loaderData }: Route.ComponentProps) {
  const { signedIn, animation, priceVaries, categoryOftenCheaper, media, freshness, returnTo } = loaderData;
  const inResolution = media.resolution ? ` in ${media.upTo ? "up to " : ""}${media.resolution}` : "";
  const price = formatPrice(loaderData.price);
  // An unknown animation parameter counts as none: better home than a purchase page that 404s.
  const next = animation ? `/purchase/individual/${animation.id}` : "/";
  return (
    <main className="mx-auto max-w-6xl px-4 py-12">
      <header className="mx-auto max-w-3xl text-center">
        <p className="font-semibold tracking-wide text-brand-600 uppercase">Individual License</p>
        <h1 className="mt-2 text-4xl font-bold tracking-tight">Individual Animation License</h1>
        {animation ? (
          <p className="mt-4 text-lg text-slate-700">
            For <Link to={`/animations/${animation.slug}`} className="font-semibold text-brand-700 underline">{animation.title}</Link>
          </p>
        ) : null}
        <p className="mt-4 text-lg text-slate-600">
          Own the rights to use one animation in your practice: download it{inResolution} and show it to patients, in
          presentations, on your website and on social media.
        </p>
      </header>

      <section aria-labelledby="plan-title" className="mx-auto mt-10 max-w-md rounded-2xl border-2 border-brand-500 bg-white p-8 text-center shadow-lg">
        <h2 id="plan-title" className="text-xl font-bold">
          Individual Animation License
        </h2>
        <p className="mt-4">
          {priceVaries ? <span className="text-slate-500">from </span> : null}
          <span className="text-5xl font-bold">{price}</span>
          <span className="text-slate-500">/year</span>
        </p>
        {animation?.cheaperCategory ? <CheaperCategoryNote category={animation.cheaperCategory} /> : null}
        <BenefitList
          items={[
            `Access to the full animation${inResolution}`,
            media.formats ? `Download of the files (${media.formats})` : "Download of the files",
            "Commercial usage rights",
            "Premium Access included: stream the whole library",
            "Downloaded content stays yours permanently",
          ]}
        />
        <div className="mt-8">
          <PurchaseButton signedIn={signedIn} returnTo={returnTo} to={next}>
            License This Animation
          </PurchaseButton>
        </div>
      </section>
      <Guarantees media={media} freshness={freshness} />
      <Testimonial testimonial={loaderData.testimonial} />
      <LicenceCoverage title="What an Individual License Covers" terms={loaderData.licenceTerms} until={loaderData.until} renewal={loaderData.renewal}>
        {animation ? null : (
          <p className="mt-6 text-center text-slate-600">
            Choose the animation to license: <Link to="/search" className="font-semibold text-brand-700 underline">search the catalogue</Link> or{" "}
            <Link to="/" className="font-semibold text-brand-700 underline">browse all animations</Link>, then use the Individual License button on its page.
          </p>
        )}
      </LicenceCoverage>
      <FaqList name="individual-license-faq" faqs={individualFaqs(price, { priceVaries, categoryOftenCheaper, media, terms: loaderData.licenceTerms })} />
    </main>
  );
}

function individualFaqs(
  price: string,
  {
    priceVaries,
    categoryOftenCheaper,
    media,
    terms,
  }: { priceVaries: boolean; categoryOftenCheaper: boolean; media: MediaClaims & { upTo: boolean }; terms: { version: number; afterEnd: string } },
): Faq[] {
  return [
    {
      question: "What does the Individual License include?",
      answer: "Access to the full animation, a download of its files, commercial usage rights for that animation, and Premium streaming access to the whole library while the license is active.",
    },
    {
      question: "How much does an Individual License cost?",
      answer: priceVaries ? `Each animation has its own price, from ${price} per year; the animation's page shows it.` : `${price} per animation per year.`,
    },
    {
      question: "Where can I use a licensed animation?",
      answer: "Anywhere in your practice's communication: patient consultations, presentations, your website, social media and printed QR links.",
    },
    {
      question: "Do I keep the files I downloaded?",
      answer: <LicenceAfterEnd terms={terms} />,
    },
    {
      question: "Which formats and resolutions are included?",
      answer: formatsAnswer(media),
    },
    {
      question: "Is Premium access included?",
      answer: "Yes. While your license is active you can stream every animation in the library, exactly as with Premium.",
    },
    {
      question: "Can I license several animations?",
      answer: categoryOftenCheaper
        ? "Yes, each with its own license. Compare first: in some specialties the Category License costs no more than one animation and covers every animation in it, including new ones."
        : "Yes, each with its own license. If you need a whole specialty, a Category License covers every animation in it, including new ones.",
    },
    {
      question: "Is there a money-back guarantee?",
      answer: "Yes. Every license comes with a 30-day money-back guarantee.",
    },
    {
      question: "What happens after a year?",
      answer: "Renew to keep downloading, embedding and streaming. Cancel anytime: your access continues until the end of the billing period.",
    },
    {
      question: "Can my colleagues use the license?",
      answer: (
        <>
          The license covers you and your practice. For several practices or a hospital,{" "}
          <Link to="/contact" className="text-brand-700 underline">contact us</Link> about a team license.
        </>
      ),
    },
  ];
}
