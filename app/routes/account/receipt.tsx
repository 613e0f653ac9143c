import { z } from "zod";
import { GeneralErrorBoundary, ErrorScreen } from "~/components/error-boundary.tsx";
import { ItemTable, PrintedDocument } from "~/components/account/printed-document.tsx";
import { asRouteError } from "~/lib/errors.server.ts";
import { formatDate, formatMoney } from "~/lib/format.ts";
import { parseParams } from "~/lib/params.server.ts";
import { requireUser } from "~/services/auth/guards.server.ts";
import { getReceipt, PAYMENT_NOT_FOUND, RECEIPT_STATUS_LABEL } from "~/services/licensing/documents.server.ts";
import { UUID_RE } from "~/validation/account.ts";
import { NOINDEX } from "~/lib/seo.ts";
import type { Route } from "./+types/receipt";

const ReceiptParams = z.object({ paymentId: z.string().regex(UUID_RE) });

export const meta: Route.MetaFunction = ({ data }) => [{ title: `${data ? `Receipt ${data.receipt.number}` : "Receipt"} | Medanim` }, NOINDEX];

export async function loader({ request, params }: Route.LoaderArgs) {
  const user = await requireUser(request);
  const { paymentId } = parseParams(params, ReceiptParams, PAYMENT_NOT_FOUND);
  const receipt = await getReceipt(user, paymentId).catch(asRouteError);
  return {
    receipt: {
      ...receipt,
      amountText: formatMoney(receipt.amount),
      statusText: RECEIPT_STATUS_LABEL[receipt.status],
    },
  };
}

export const headers: Route.HeadersFunction = () => ({ "Cache-Control": "private, no-store" });

/** A receipt page meant to be printed as it is: no account chrome inside the card, plain text. */
export default function Receipt({ loaderData: { receipt } }: Route.ComponentProps) {
  const rows: [string, string][] = [
    ["Date", formatDate(receipt.date)],
    ["Seller", receipt.platformName],
    ["Billed to", `${receipt.buyer.name} (${receipt.buyer.email})`],
    ["Status", receipt.statusText],
    ...(receipt.invoiceId ? ([["Invoice", receipt.invoiceId]] as [string, string][]) : []),
    ...(receipt.paymentIntentId ? ([["Payment reference", receipt.paymentIntentId]] as [string, string][]) : []),
    ["Payment id", receipt.paymentId],
    ...(receipt.licenceTerms ? ([["Accepted", receipt.licenceTerms]] as [string, string][]) : []),
  ];
  return (
    <PrintedDocument back="/billing" pdfHref={`/billing/receipts/${receipt.paymentId}/pdf`}>
      <header className="flex flex-wrap items-start justify-between gap-4">
        <div>
          <p className="text-sm font-semibold tracking-wide text-brand-700 uppercase">{receipt.platformName}</p>
          <h1 className="mt-1 text-2xl font-bold">Receipt</h1>
          <p className="text-sm text-slate-600">{`Receipt number ${receipt.number}`}</p>
        </div>
        <span
          className={`rounded-full px-3 py-1 text-sm font-semibold ${receipt.status === "completed" ? "bg-green-100 text-green-800" : receipt.status === "refunded" ? "bg-slate-100 text-slate-700" : "bg-amber-100 text-amber-900"}`}
        >
          {receipt.statusText}
        </span>
      </header>

      <dl className="mt-6 grid grid-cols-1 gap-x-6 gap-y-2 text-sm sm:grid-cols-[10rem_1fr]">
        {rows.map(([label, value]) => (
          <div key={label} className="contents">
            <dt className="text-slate-600">{label}</dt>
            <dd className="break-all text-slate-900">{value}</dd>
          </div>
        ))}
      </dl>

      <ItemTable amountLabel="Amount" item={receipt.description} amount={receipt.amountText} rows={[["Total", `${receipt.amountText} ${receipt.currency}`]]} />
      {receipt.status === "refunded" ? (
        <p className="mt-6 rounded-lg bg-slate-50 p-3 text-sm text-slate-700">This payment was refunded: {receipt.amountText} returned to the buyer.</p>
      ) : null}
    </PrintedDocument>
  );
}

export function ErrorBoundary() {
  return (
    <GeneralErrorBoundary
      statusHandlers={{ 404: () => <ErrorScreen title="Payment not found" message="There is no payment with this id in your account." /> }}
    />
  );
}
