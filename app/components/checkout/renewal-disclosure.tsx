import { Link } from "~/components/ui/link.tsx";
import { formatYearlyPrice } from "~/lib/format.ts";

/**
 * When a yearly term renews and at what price (termIfPaidNow in checkout.server.ts). `from`: the
 * price is the lowest of several (a licence page that names no animation yet).
 */
export type Renewal = { on: string; price: number; from?: boolean };

/** The year a payment made now buys (termIfPaidNow's `until`), as checkout and the licence pages say it. */
export function TermUntil({ until, className }: { until: string; className?: string }) {
  return <p className={className}>One year of access, until {until}</p>;
}

/**
 * Beside the pay button: every item renews by itself at the end of its year, so the buyer reads
 * when, at what price and where to stop it before paying, not afterwards on /billing.
 */
export function RenewalDisclosure({ renewal, className = "mt-3 text-sm text-slate-600" }: { renewal: Renewal; className?: string }) {
  const price = formatYearlyPrice(renewal.price);
  return (
    <p className={className}>
      Renews automatically on {renewal.on} at {renewal.from ? `the same price (from ${price})` : price} until you turn it off in{" "}
      <Link to="/billing" className="font-semibold underline">
        Billing → Auto-renew
      </Link>
      .
    </p>
  );
}
