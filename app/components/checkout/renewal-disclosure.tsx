import { Link } from "~/components/ui/link.tsx";
import { formatPrice } from "~/lib/format.ts";

/** When a yearly term renews and at what price (termIfPaidNow in checkout.server.ts). */
export type Renewal = { on: string; price: number };

/**
 * Beside the pay button: every item renews by itself at the end of its year, so the buyer reads
 * when, at what price and where to stop it before paying, not afterwards on /billing.
 */
export function RenewalDisclosure({ renewal }: { renewal: Renewal }) {
  return (
    <p className="mt-3 text-sm text-slate-600">
      Renews automatically on {renewal.on} at {formatPrice(renewal.price)}/year until you turn it off in{" "}
      <Link to="/billing" className="font-semibold underline">
        Billing → Auto-renew
      </Link>
      .
    </p>
  );
}
