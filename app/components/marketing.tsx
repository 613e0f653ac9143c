import type { ReactNode } from "react";
import { Link } from "~/components/ui/link.tsx";
import { formatYearlyPrice, pluralize } from "~/lib/format.ts";
import { LICENCE_TERMS_PATH, LICENCE_TERMS_SECTIONS, type LicenceTermsBody } from "~/services/licensing/licence-terms-text.ts";
import { type Renewal, RenewalDisclosure, TermUntil } from "./checkout/renewal-disclosure.tsx";
import { ButtonLink } from "./ui/button.tsx";

// Building blocks of the premium, individual licence and category licence pages, and the
// marketing claims they share.

export type Faq = { question: string; answer: ReactNode };

/** The current licence terms' rule for the end of a licence, as the licence FAQs answer it (decision 028). */
export function LicenceAfterEnd({ terms }: { terms: { version: number; afterEnd: string } }) {
  return (
    <>
      {terms.afterEnd}{" "}
      <Link to={LICENCE_TERMS_PATH} className="text-brand-700 underline">
        License terms, version {terms.version}
      </Link>
      .
    </>
  );
}

/** The 10-question FAQ: `<details name>` keeps one entry open at a time, with or without JS. */
export function FaqList({ name, faqs, title = "Frequently Asked Questions" }: { name: string; faqs: Faq[]; title?: string }) {
  return (
    <section aria-labelledby={`${name}-title`} className="mx-auto mt-16 max-w-3xl">
      <h2 id={`${name}-title`} className="text-center text-2xl font-bold">
        {title}
      </h2>
      <div className="mt-6 divide-y divide-slate-200 rounded-2xl border border-slate-200 bg-white">
        {faqs.map((faq) => (
          <details key={faq.question} name={name} className="group px-5 py-4">
            <summary className="flex items-center justify-between gap-4 font-semibold">
              <span>{faq.question}</span>
              <span aria-hidden="true" className="text-xl text-slate-400 transition group-open:rotate-45">
                +
              </span>
            </summary>
            <div className="mt-3 text-slate-600">{faq.answer}</div>
          </details>
        ))}
      </div>
    </section>
  );
}

export function BenefitList({ items }: { items: ReactNode[] }) {
  return (
    <ul className="mt-6 flex flex-col gap-3 text-left">
      {items.map((item, i) => (
        <li key={i} className="flex items-start gap-3">
          <svg aria-hidden="true" viewBox="0 0 20 20" className="mt-0.5 h-5 w-5 flex-none text-emerald-600" fill="currentColor">
            <path fillRule="evenodd" d="M16.7 5.3a1 1 0 0 1 0 1.4l-8 8a1 1 0 0 1-1.4 0l-4-4a1 1 0 1 1 1.4-1.4L8 12.6l7.3-7.3a1 1 0 0 1 1.4 0Z" />
          </svg>
          <span>{item}</span>
        </li>
      ))}
    </ul>
  );
}

/** One static testimonial, the same on every sales page. */
export type TestimonialData = { quote: string; author: string; demo: boolean };

/** The testimonial an admin set (content.server.ts getTestimonial); the demo's is labelled as such. */
export function Testimonial({ testimonial }: { testimonial: TestimonialData | null }) {
  if (!testimonial) return null;
  return (
    <figure className="mx-auto mt-16 max-w-3xl rounded-2xl bg-brand-50 p-8 text-center" data-testid="testimonial">
      {testimonial.demo ? <DemoContentLabel /> : null}
      <blockquote className="text-lg text-slate-800">“{testimonial.quote}”</blockquote>
      {testimonial.author ? <figcaption className="mt-4 text-sm font-semibold text-slate-700">{testimonial.author}</figcaption> : null}
    </figure>
  );
}

/** Marks the demo's invented testimonial and contact details. */
export function DemoContentLabel() {
  return (
    <p
      className="mb-3 inline-block rounded-full bg-amber-100 px-3 py-0.5 text-xs font-semibold tracking-wide text-amber-900 uppercase"
      data-testid="demo-content"
    >
      Demo content
    </p>
  );
}

/**
 * What a licence covers, in the current licence terms' own words (decision 028: nothing else words
 * the licence), with the term a payment made now buys and its renewal (termIfPaidNow) after what
 * the licence allows, and a link to the whole terms.
 */
export function LicenceCoverage({
  title,
  terms,
  until,
  renewal,
  children,
}: {
  title: string;
  terms: Pick<LicenceTermsBody, "version" | "grant" | "afterEnd" | "restrictions">;
  until: string;
  renewal: Renewal;
  children?: ReactNode;
}) {
  const term = (
    <>
      <TermUntil until={until} />
      <RenewalDisclosure renewal={renewal} className="mt-1" />
    </>
  );
  // The record's sections in its order, the term right after what the licence allows.
  const rows = LICENCE_TERMS_SECTIONS.flatMap(([key, heading]) => [
    { key, heading, text: terms[key] as ReactNode },
    ...(key === "grant" ? [{ key: "term", heading: "How long it runs", text: term }] : []),
  ]);
  return (
    <section aria-labelledby="coverage-title" className="mx-auto mt-16 max-w-3xl">
      <h2 id="coverage-title" className="text-center text-2xl font-bold">
        {title}
      </h2>
      <dl className="mt-6 divide-y divide-slate-200 rounded-2xl border border-slate-200 bg-white">
        {rows.map((row) => (
          <div key={row.key} className="px-5 py-4">
            <dt className="font-semibold">{row.heading}</dt>
            <dd className="mt-1 text-slate-600">{row.text}</dd>
          </div>
        ))}
      </dl>
      <p className="mt-3 text-center text-sm">
        <Link to={LICENCE_TERMS_PATH} className="text-brand-700 underline">
          License terms, version {terms.version}
        </Link>
      </p>
      {children}
    </section>
  );
}

export type SpecialtyGroup = {
  name: string;
  slug: string;
  subcategories: { id: string; name: string; path: string; price: number; animationCount: number }[];
};

/**
 * What a category licence can be bought for: the sub-specialties under each main category, with
 * the catalogue's own counts and their licence prices. A main category is a heading, not an
 * offer: only sub-categories are sold (decision 009).
 */
export function SpecialtyList({ specialties }: { specialties: SpecialtyGroup[] }) {
  const groups = specialties.filter((g) => g.subcategories.length > 0);
  if (groups.length === 0) return null;
  return (
    <section aria-labelledby="specialties-title" className="mx-auto mt-16 max-w-3xl">
      <h2 id="specialties-title" className="text-center text-2xl font-bold">
        Available Specialties
      </h2>
      {groups.map((group) => (
        <div key={group.slug} className="mt-6">
          <h3 className="font-semibold text-slate-700">{group.name}</h3>
          <ul className="mt-2 grid gap-3 sm:grid-cols-2">
            {group.subcategories.map((s) => (
              <li key={s.id}>
                <Link
                  to={s.path}
                  className="flex items-center justify-between gap-2 rounded-xl border border-slate-200 bg-white px-4 py-3 hover:border-brand-500"
                >
                  <span className="font-medium">{s.name}</span>
                  <span className="text-right text-sm whitespace-nowrap">
                    <span className="block font-semibold text-brand-700">{formatYearlyPrice(s.price)}</span>
                    <span className="block text-slate-500">{pluralize(s.animationCount, "animation")}</span>
                  </span>
                </Link>
              </li>
            ))}
          </ul>
        </div>
      ))}
    </section>
  );
}

/**
 * Said wherever one animation is offered although the licence for its whole category costs no
 * more: the smaller purchase is not the cheaper one.
 */
export function CheaperCategoryNote({ category }: { category: { name: string; slug: string; price: number; animationCount: number } }) {
  return (
    <p className="mt-4 rounded-lg bg-amber-50 p-3 text-left text-sm text-amber-900" data-testid="cheaper-category">
      The{" "}
      <Link to={`/purchase/category/${encodeURIComponent(category.slug)}`} className="font-semibold underline">
        {category.name} Category License
      </Link>{" "}
      costs {formatYearlyPrice(category.price)}, no more than this one animation, and covers every animation in {category.name} (
      {pluralize(category.animationCount, "animation")}).
    </p>
  );
}

/** What the files are ("480p", "MP4"), from the catalogue's records; null where nothing backs a claim. */
export type MediaClaims = { resolution: string | null; formats: string | null; upTo?: boolean };

/**
 * Guarantee and cancellation promises, and the media and freshness claims the data backs
 * (services/catalogue/claims.server.ts): a claim without data is left out.
 */
export function Guarantees({ media, freshness }: { media: MediaClaims; freshness: string | null }) {
  const files = [media.formats, media.resolution && `${media.upTo === false ? "" : "up to "}${media.resolution}`].filter(Boolean).join(" · ");
  return (
    <ul className="mt-6 flex flex-wrap justify-center gap-x-6 gap-y-2 text-sm text-slate-600">
      <li>30-day money-back guarantee</li>
      <li>Cancel anytime</li>
      {files ? <li>{files}</li> : null}
      {freshness ? <li>{freshness}</li> : null}
    </ul>
  );
}

/** The FAQ's "Which formats and resolutions?", answered from the records. */
export function formatsAnswer(media: MediaClaims): string {
  const upTo = media.upTo === false ? "" : "up to ";
  if (media.formats && media.resolution) return `The download contains the animation in ${media.formats}, in ${upTo}${media.resolution} resolution.`;
  if (media.formats) return `The download contains the animation in ${media.formats}.`;
  if (media.resolution) return `The animation's video is ${upTo}${media.resolution}.`;
  return "Each animation's page lists the resolution and formats of its files.";
}

/**
 * The purchase button. Signed-in buyers go to `to`. Anonymous ones go to sign in (or sign up) and
 * then straight on to `to`, the step they asked for, with what they chose in it; only when the
 * button leads nowhere in particular (`to` is the home page) do they come back here (`returnTo`).
 */
export function PurchaseButton({ signedIn, returnTo, to, children }: { signedIn: boolean; returnTo: string; to: string; children: ReactNode }) {
  if (!signedIn) {
    return (
      <ButtonLink to={`/auth?redirectTo=${encodeURIComponent(to === "/" ? returnTo : to)}`} size="lg" className="w-full">
        {children}
      </ButtonLink>
    );
  }
  return (
    <ButtonLink to={to} size="lg" className="w-full">
      {children}
    </ButtonLink>
  );
}
