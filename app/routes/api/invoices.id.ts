import { apiRoute } from "~/lib/api-route.server.ts";
import { requireUser } from "~/services/auth/guards.server.ts";
import { getInvoice } from "~/services/commerce/invoices.server.ts";
import { INVOICE_NOT_FOUND } from "~/validation/invoicing.ts";
import { InvoiceDetail } from "~/validation/api-responses.ts";

export const loader = apiRoute({
  GET: {
    summary: "One invoice or credit note",
    description:
      "As issued: the seller's and the buyer's details as they stood then, net, tax rate, tax and total. The caller's own, or any for an admin; 404 otherwise. Changes nothing.",
    response: InvoiceDetail,
    auth: requireUser,
    errors: { 404: INVOICE_NOT_FOUND },
    run: ({ user, params }) => getInvoice(user, params.id!),
  },
});
export const action = loader;
