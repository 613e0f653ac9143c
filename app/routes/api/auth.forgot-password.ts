import { ServiceError } from "~/lib/errors.server.ts";
import { apiError, methodNotAllowed, parseBody } from "~/lib/api.server.ts";
import { clientAddress } from "~/lib/rate-limit.server.ts";
import { requestPasswordReset } from "~/services/account.server.ts";
import { ForgotPasswordSchema, RESET_EMAIL_SENT } from "~/validation/account.ts";
import type { Route } from "./+types/auth.forgot-password";

export const loader = () => methodNotAllowed(["POST"]);

// Public, and the same answer whether or not the address has an account.
export async function action({ request, context }: Route.ActionArgs) {
  if (request.method !== "POST") return methodNotAllowed(["POST"]);
  const { email } = await parseBody(request, ForgotPasswordSchema);
  try {
    await requestPasswordReset(email, clientAddress(context));
  } catch (error) {
    if (error instanceof ServiceError) return apiError(error.message, error.status);
    throw error;
  }
  return Response.json({ message: RESET_EMAIL_SENT }, { headers: { "Cache-Control": "no-store" } });
}
