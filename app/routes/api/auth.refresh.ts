import { ServiceError } from "~/lib/errors.server.ts";
import { apiError, methodNotAllowed, parseBody } from "~/lib/api.server.ts";
import { rotateRefreshToken } from "~/services/auth/credentials.server.ts";
import { RefreshSchema } from "~/validation/auth.ts";
import type { Route } from "./+types/auth.refresh";

export const loader = () => methodNotAllowed(["POST"]);

export async function action({ request }: Route.ActionArgs) {
  if (request.method !== "POST") return methodNotAllowed(["POST"]);
  const { refreshToken } = await parseBody(request, RefreshSchema);
  try {
    return await rotateRefreshToken(refreshToken);
  } catch (error) {
    if (error instanceof ServiceError) return apiError(error.message, error.status);
    throw error;
  }
}
