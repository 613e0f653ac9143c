import { data } from "react-router";
import { ServiceError } from "~/lib/errors.server.ts";
import { apiError, methodNotAllowed, parseBody } from "~/lib/api.server.ts";
import { clientAddress, consumeRateLimit, signUpRule, tooManyAttemptsMessage } from "~/lib/rate-limit.server.ts";
import { issueTokens, registerUser } from "~/services/auth/credentials.server.ts";
import { sendVerificationEmail } from "~/services/verification.server.ts";
import { SignUpSchema } from "~/validation/auth.ts";
import type { Route } from "./+types/auth.register";

export const loader = () => methodNotAllowed(["POST"]);

export async function action({ request, context }: Route.ActionArgs) {
  if (request.method !== "POST") return methodNotAllowed(["POST"]);
  const input = await parseBody(request, SignUpSchema);
  const limit = await consumeRateLimit(`signup:${clientAddress(context)}`, signUpRule());
  if (!limit.allowed) {
    return apiError(tooManyAttemptsMessage(limit.retryAfterSeconds), 429, undefined, limit.retryAfterSeconds);
  }
  try {
    const user = await registerUser(input);
    await sendVerificationEmail(user);
    const tokens = await issueTokens(user.id);
    return data(
      { ...tokens, user, message: "Account created. Please check your email to verify your account." },
      { status: 201 },
    );
  } catch (error) {
    if (error instanceof ServiceError) return apiError(error.message, error.status);
    throw error;
  }
}
