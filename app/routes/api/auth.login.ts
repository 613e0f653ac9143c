import { z } from "zod";
import { ServiceError } from "~/lib/errors.server.ts";
import { apiError, methodNotAllowed, parseBody } from "~/lib/api.server.ts";
import { clientAddress } from "~/lib/rate-limit.server.ts";
import { issueTokens } from "~/services/auth/credentials.server.ts";
import { signIn } from "~/services/auth/sign-in.server.ts";
import { EmailSchema } from "~/validation/auth.ts";
import type { Route } from "./+types/auth.login";

// Any password length is checked against the hash: a short one is simply wrong.
const LoginSchema = z.object({ email: EmailSchema, password: z.string({ error: "Password is required" }).min(1, "Password is required") });

export const loader = () => methodNotAllowed(["POST"]);

export async function action({ request, context }: Route.ActionArgs) {
  if (request.method !== "POST") return methodNotAllowed(["POST"]);
  const { email, password } = await parseBody(request, LoginSchema);
  try {
    const user = await signIn({ email, password }, clientAddress(context));
    return { ...(await issueTokens(user.id)), user };
  } catch (error) {
    if (!(error instanceof ServiceError)) throw error;
    // The /api contract's text for bad credentials; the form adds "Please try again."
    return apiError(error.status === 401 ? "Invalid email or password" : error.message, error.status, undefined, error.retryAfterSeconds);
  }
}
