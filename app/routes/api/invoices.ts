import { z } from "zod";
import { apiRoute } from "~/lib/api-route.server.ts";
import { requireUser } from "~/services/auth/guards.server.ts";
import { listInvoices } from "~/services/commerce/invoices.server.ts";
import { InvoiceSummary } from "~/validation/api-responses.ts";

export const loader = apiRoute({
  GET: {
    summary: "The caller's invoices and credit notes, newest first",
    description:
      "Every completed payment has an invoice and every refund a credit note (amounts negative). The PDF of one is at /billing/invoices/{id}/pdf. Changes nothing.",
    response: z.array(InvoiceSummary),
    auth: requireUser,
    run: ({ user }) => listInvoices(user.id),
  },
});
export const action = loader;
