import { z } from "zod";
import { GeneralErrorBoundary, ErrorScreen } from "~/components/error-boundary.tsx";
import { ItemTable, PrintedDocument } from "~/components/account/printed-document.tsx";
import { asRouteError } from "~/lib/errors.server.ts";
import { formatDate } from "~/lib/format.ts";
import { parseParams } from "~/lib/params.server.ts";
import { NOINDEX } from "~/lib/seo.ts";
import { requireUser } from "~/services/auth/guards.server.ts";
import { invoiceMoney, invoiceTermsLine, invoiceTotals, partyLines } from "~/services/commerce/invoice-pdf.server.ts";
import { getInvoice } from "~/services/commerce/invoices.server.ts";
import { INVOICE_NOT_FOUND } from "~/validation/invoicing.ts";
import { UUID_RE } from "~/validation/account.ts";
import type { Route } from "./+types/invoice";

const InvoiceParams = z.object({ invoiceId: z.string().regex(UUID_RE) });

export const meta: Route.MetaFunction = ({ data }) => [{ title: `${data ? `${data.invoice.title} ${data.invoice.number}` : "Invoice"} | Medanim` }, NOINDEX];

export async function loader({ request, params }: Route.LoaderArgs) {
  const user = await requireUser(request);
  const { invoiceId } = parseParams(params, InvoiceParams, INVOICE_NOT_FOUND);
  const invoice = await getInvoice(user, invoiceId).catch(asRouteError);
  // The PDF's own blocks, so page and file print the same lines.
  return {
    invoice,
    seller: partyLines(invoice.seller),
    buyer: partyLines(invoice.buyer),
    netText: invoiceMoney(invoice.net, invoice.currency),
    totals: invoiceTotals(invoice),
    terms: invoice.licenceTermsVersion ? invoiceTermsLine(invoice.licenceTermsVersion) : null,
  };
}

export const headers: Route.HeadersFunction = () => ({ "Cache-Control": "private, no-store" });

/** An invoice or credit note meant to be printed as it is. */
export default function Invoice({ loaderData: { invoice, seller, buyer, netText, totals, terms } }: Route.ComponentProps) {
  return (
    <PrintedDocument back="/billing#invoices" pdfHref={`/billing/invoices/${invoice.id}/pdf`}>
      <header>
        <h1 className="text-2xl font-bold">{invoice.title}</h1>
        <p className="text-sm text-slate-700">{`Number ${invoice.number}`}</p>
        <p className="text-sm text-slate-700">{`Issued ${formatDate(invoice.issuedAt)}`}</p>
        {invoice.credits ? <p className="text-sm text-slate-700">{`Credits invoice ${invoice.credits}`}</p> : null}
      </header>
      <div className="mt-6 grid gap-6 text-sm sm:grid-cols-2">
        {(
          [
            ["Seller", seller],
            ["Billed to", buyer],
          ] as const
        ).map(([heading, lines]) => (
          <section key={heading}>
            <h2 className="font-semibold text-slate-600">{heading}</h2>
            <p className="mt-1 break-words whitespace-pre-line text-slate-900">{lines.join("\n")}</p>
          </section>
        ))}
      </div>
      <ItemTable amountLabel="Net" item={invoice.description} amount={netText} rows={totals} />
      {invoice.taxNote ? <p className="mt-6 text-sm text-slate-700">{invoice.taxNote}</p> : null}
      {invoice.paymentReference ? <p className="mt-2 text-sm break-all text-slate-700">{`Payment reference: ${invoice.paymentReference}`}</p> : null}
      {terms ? <p className="mt-2 text-sm text-slate-700">{terms}</p> : null}
    </PrintedDocument>
  );
}

export function ErrorBoundary() {
  return (
    <GeneralErrorBoundary
      statusHandlers={{ 404: () => <ErrorScreen title={INVOICE_NOT_FOUND} message="There is no invoice with this id in your account." /> }}
    />
  );
}
