import { ServiceError } from "~/lib/errors.server.ts";
import { apiError, methodNotAllowed, parseBody } from "~/lib/api.server.ts";
import { requireUser } from "~/services/auth/guards.server.ts";
import { requestRefund } from "~/services/refunds.server.ts";
import { RefundRequestSchema } from "~/validation/account.ts";
import type { Route } from "./+types/refunds.request";

export const loader = () => methodNotAllowed(["POST"]);

// Body: subscriptionId, reason, description, contactEmail (and optionally paymentId).
export async function action({ request }: Route.ActionArgs) {
  if (request.method !== "POST") return methodNotAllowed(["POST"]);
  const user = await requireUser(request);
  const input = await parseBody(request, RefundRequestSchema);
  try {
    const refundRequest = await requestRefund(user, input);
    return Response.json(
      { message: "Refund Request Submitted", refundRequest },
      { status: 201, headers: { "Cache-Control": "private, no-store" } },
    );
  } catch (error) {
    if (error instanceof ServiceError) return apiError(error.message, error.status);
    throw error;
  }
}
