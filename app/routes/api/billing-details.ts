import { z } from "zod";
import { apiRoute, endpoint } from "~/lib/api-route.server.ts";
import { requireUser } from "~/services/auth/guards.server.ts";
import { getBillingDetails, saveBillingDetails } from "~/services/commerce/invoices.server.ts";
import { BillingDetails } from "~/validation/api-responses.ts";
import { BillingDetailsSchema } from "~/validation/invoicing.ts";

const answer = ({ legalName, address, country, taxId, billingEmail }: NonNullable<Awaited<ReturnType<typeof getBillingDetails>>>) => ({
  legalName,
  address,
  country,
  taxId,
  billingEmail,
});

export const loader = apiRoute({
  GET: {
    summary: "Who the caller's invoices are made out to",
    description:
      "`billingDetails`: the legal name, address, country, VAT or tax id and billing e-mail invoices print; null until set (invoices then print the member's name and e-mail). Changes nothing.",
    response: z.object({ billingDetails: BillingDetails.nullable() }),
    auth: requireUser,
    run: async ({ user }) => {
      const details = await getBillingDetails(user.id);
      return { billingDetails: details && answer(details) };
    },
  },
  PUT: endpoint({
    summary: "Set who the caller's invoices are made out to",
    description:
      "Applies to invoices issued from now on (issued ones keep what they print). An EU country's VAT number must carry its country prefix (such as DE123456789): a business elsewhere in the EU than the seller is then billed by reverse charge. Recorded in the audit log.",
    response: BillingDetails,
    auth: requireUser,
    body: BillingDetailsSchema,
    run: async ({ user, body }) => answer(await saveBillingDetails(user, body)),
  }),
});
export const action = loader;
