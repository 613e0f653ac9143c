import { ServiceError } from "~/lib/errors.server.ts";
import { apiError, methodNotAllowed } from "~/lib/api.server.ts";
import { resendVerification } from "~/services/account.server.ts";
import { requireUser } from "~/services/auth/guards.server.ts";
import type { Route } from "./+types/auth.resend-verification";

export const loader = () => methodNotAllowed(["POST"]);

// No body (spec section 7): the link goes to the signed-in user's current address.
export async function action({ request }: Route.ActionArgs) {
  if (request.method !== "POST") return methodNotAllowed(["POST"]);
  const user = await requireUser(request);
  try {
    await resendVerification(user);
    return Response.json({ message: "Verification Email Sent" }, { headers: { "Cache-Control": "private, no-store" } });
  } catch (error) {
    if (error instanceof ServiceError) return apiError(error.message, error.status);
    throw error;
  }
}
