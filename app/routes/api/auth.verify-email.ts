import { ServiceError } from "~/lib/errors.server.ts";
import { apiError, methodNotAllowed, parseBody } from "~/lib/api.server.ts";
import { verifyEmail } from "~/services/account.server.ts";
import { VerifyEmailSchema } from "~/validation/account.ts";
import type { Route } from "./+types/auth.verify-email";

// Public: the link is opened from the mailbox, often in another browser than the signed-in one.
export const loader = () => methodNotAllowed(["POST"]);

export async function action({ request }: Route.ActionArgs) {
  if (request.method !== "POST") return methodNotAllowed(["POST"]);
  const { token } = await parseBody(request, VerifyEmailSchema);
  try {
    const user = await verifyEmail(token);
    return Response.json(
      { message: "Your email has been successfully verified!", user },
      { headers: { "Cache-Control": "private, no-store" } },
    );
  } catch (error) {
    if (error instanceof ServiceError) return apiError(error.message, error.status);
    throw error;
  }
}
