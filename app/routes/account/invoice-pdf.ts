import { z } from "zod";
import { asRouteError } from "~/lib/errors.server.ts";
import { parseParams } from "~/lib/params.server.ts";
import { requireUser } from "~/services/auth/guards.server.ts";
import { invoiceFilename, renderInvoicePdf } from "~/services/commerce/invoice-pdf.server.ts";
import { getInvoice } from "~/services/commerce/invoices.server.ts";
import { INVOICE_NOT_FOUND } from "~/validation/invoicing.ts";
import { pdfHeaders } from "~/services/licensing/documents-pdf.server.ts";
import { UUID_RE } from "~/validation/account.ts";
import type { Route } from "./+types/invoice-pdf";

const InvoiceParams = z.object({ invoiceId: z.string().regex(UUID_RE) });

/** The invoice or credit note as a PDF file (the buyer's, or any for an admin). */
export async function loader({ request, params }: Route.LoaderArgs) {
  const user = await requireUser(request);
  const { invoiceId } = parseParams(params, InvoiceParams, INVOICE_NOT_FOUND);
  const invoice = await getInvoice(user, invoiceId).catch(asRouteError);
  const bytes = await renderInvoicePdf(invoice);
  return new Response(bytes, { headers: pdfHeaders(invoiceFilename(invoice), bytes.byteLength) });
}
