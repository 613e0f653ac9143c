import { z } from "zod";
import { ServiceError } from "~/lib/errors.server.ts";
import { apiError, methodNotAllowed, parseBody } from "~/lib/api.server.ts";
import { clearRateLimit, clientAddress, consumeRateLimit, SIGN_IN_RULE, tooManyAttemptsMessage } from "~/lib/rate-limit.server.ts";
import { issueTokens, verifyLogin } from "~/services/auth.server.ts";
import { EmailSchema } from "~/validation/auth.ts";
import type { Route } from "./+types/auth.login";

// Any password length is checked against the hash: a short one is simply wrong.
const LoginSchema = z.object({ email: EmailSchema, password: z.string({ error: "Password is required" }).min(1, "Password is required") });

export const loader = () => methodNotAllowed(["POST"]);

export async function action({ request, context }: Route.ActionArgs) {
  if (request.method !== "POST") return methodNotAllowed(["POST"]);
  const { email, password } = await parseBody(request, LoginSchema);
  const limitKey = `signin:${clientAddress(context)}:${email.toLowerCase()}`;
  const limit = await consumeRateLimit(limitKey, SIGN_IN_RULE);
  if (!limit.allowed) {
    return apiError(tooManyAttemptsMessage(limit.retryAfterSeconds), 429, undefined, limit.retryAfterSeconds);
  }
  try {
    const user = await verifyLogin(email, password);
    await clearRateLimit(limitKey);
    return { ...(await issueTokens(user.id)), user };
  } catch (error) {
    if (!(error instanceof ServiceError)) throw error;
    return apiError(error.status === 401 ? "Invalid email or password" : error.message, error.status);
  }
}
