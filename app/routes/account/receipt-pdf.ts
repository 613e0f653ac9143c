import { z } from "zod";
import { asRouteError } from "~/lib/errors.server.ts";
import { parseParams } from "~/lib/params.server.ts";
import { requireUser } from "~/services/auth/guards.server.ts";
import { pdfHeaders, receiptFilename, renderReceiptPdf } from "~/services/licensing/documents-pdf.server.ts";
import { getReceipt, PAYMENT_NOT_FOUND } from "~/services/licensing/documents.server.ts";
import { UUID_RE } from "~/validation/account.ts";
import type { Route } from "./+types/receipt-pdf";

const ReceiptParams = z.object({ paymentId: z.string().regex(UUID_RE) });

/** The receipt as a PDF file (the owner's, or any for an admin). */
export async function loader({ request, params }: Route.LoaderArgs) {
  const user = await requireUser(request);
  const { paymentId } = parseParams(params, ReceiptParams, PAYMENT_NOT_FOUND);
  const receipt = await getReceipt(user, paymentId).catch(asRouteError);
  const bytes = await renderReceiptPdf(receipt);
  return new Response(bytes, { headers: pdfHeaders(receiptFilename(receipt), bytes.byteLength) });
}
