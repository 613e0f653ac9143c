import { ServiceError } from "~/lib/errors.server.ts";
import { apiError, methodNotAllowed, parseBody } from "~/lib/api.server.ts";
import { updateProfile } from "~/services/account.server.ts";
import { requireUser } from "~/services/auth/guards.server.ts";
import { ProfileSchema } from "~/validation/account.ts";
import type { Route } from "./+types/auth.profile";

export const loader = () => methodNotAllowed(["PUT"]);

export async function action({ request }: Route.ActionArgs) {
  if (request.method !== "PUT") return methodNotAllowed(["PUT"]);
  const user = await requireUser(request);
  const input = await parseBody(request, ProfileSchema);
  try {
    const result = await updateProfile(user, input);
    return Response.json(
      {
        message: result.emailChanged ? "Profile updated. Please verify your new email address." : "Profile updated",
        user: result.user,
      },
      { headers: { "Cache-Control": "private, no-store" } },
    );
  } catch (error) {
    if (error instanceof ServiceError) return apiError(error.message, error.status, error.field ? { errors: { [error.field]: [error.message] } } : undefined);
    throw error;
  }
}
