import { type ReactNode, useEffect, useRef } from "react";
import { Link } from "~/components/ui/link.tsx";
import { Section } from "~/components/ui/section.tsx";
import { formatPrice } from "~/lib/format.ts";
import { type Renewal, RenewalDisclosure, TermUntil } from "./renewal-disclosure.tsx";
import { TestModeBanner } from "./test-mode-banner.tsx";

// The one checkout screen of all three products (premium, individual and category licenses) and
// of the test mode's hosted page: what is bought, its yearly price, until when it runs if paid
// now, then the pay step and one way back. Only the pay step and the back control change.

export type CheckoutProduct = {
  name: string;
  /** The product's own page, linked from its name. */
  href?: string;
  /** From the one price rule (app/services/commerce/prices.server.ts), or the amount a checkout fixed. */
  price: number;
  /** The end of the year a payment made now would buy, already formatted. */
  until: string;
  renewal: Renewal;
};

export function CheckoutScreen({
  product,
  testMode,
  details,
  pay,
  renews = true,
  formError,
  back,
  takeFocus = false,
}: {
  product: CheckoutProduct;
  testMode: boolean;
  /** What the product gives (a benefit list, a better-buy note). */
  details?: ReactNode;
  pay: ReactNode;
  /** Off when `pay` offers no payment (already held, already paid). */
  renews?: boolean;
  formError?: string | null;
  back: ReactNode;
  /** Set when the screen replaces, in place, the page whose button opened it: focus would be lost. */
  takeFocus?: boolean;
}) {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    if (takeFocus) heading.current?.focus();
  }, [takeFocus]);
  return (
    <main className="mx-auto max-w-xl px-4 py-12">
      <TestModeBanner show={testMode} />
      <h1 ref={heading} tabIndex={-1} className="text-3xl font-bold tracking-tight focus:outline-none">
        Checkout
      </h1>
      <Section
        card
        id="order-title"
        title={
          product.href ? (
            <Link to={product.href} className="hover:text-brand-700">
              {product.name}
            </Link>
          ) : (
            product.name
          )
        }
        className="mt-8"
      >
        <p className="mt-3">
          <span className="text-4xl font-bold">{formatPrice(product.price)}</span>
          <span className="text-slate-500">/year</span>
        </p>
        <TermUntil until={product.until} className="mt-1 text-sm text-slate-600" />
        {details}
      </Section>
      <div className="mt-6">
        {pay}
        {renews ? <RenewalDisclosure renewal={product.renewal} /> : null}
        {formError ? (
          <p role="alert" className="mt-3 text-sm text-red-700">
            {formError}
          </p>
        ) : null}
      </div>
      <div className="mt-8">{back}</div>
    </main>
  );
}
