import { ServiceError } from "~/lib/errors.server.ts";
import { apiError, methodNotAllowed, parseBody } from "~/lib/api.server.ts";
import { resetPassword } from "~/services/account.server.ts";
import { ResetPasswordSchema } from "~/validation/account.ts";
import type { Route } from "./+types/auth.reset-password";

export const loader = () => methodNotAllowed(["POST"]);

// Public. A bad token answers 400 with a message containing 'Invalid or expired'.
export async function action({ request }: Route.ActionArgs) {
  if (request.method !== "POST") return methodNotAllowed(["POST"]);
  const { token, password } = await parseBody(request, ResetPasswordSchema);
  try {
    await resetPassword(token, password);
  } catch (error) {
    if (error instanceof ServiceError) return apiError(error.message, error.status);
    throw error;
  }
  return Response.json({ message: "Password reset successful" }, { headers: { "Cache-Control": "no-store" } });
}
