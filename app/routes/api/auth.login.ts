import { z } from "zod";
import { apiRoute, endpoint } from "~/lib/api-route.server.ts";
import { anyone } from "~/services/auth/guards.server.ts";
import { ServiceError } from "~/lib/errors.server.ts";
import { clientAddress } from "~/lib/rate-limit.server.ts";
import { factorSummary } from "~/services/auth/second-factor.server.ts";
import { beginSecondStep, issueSignInTokens, signIn } from "~/services/auth/sign-in.server.ts";
import { EmailSchema } from "~/validation/auth-forms.ts";
import { LoginResponse } from "~/validation/api-responses.ts";

const PASSKEY_ONLY_API =
  "This account's second factor is a passkey, which API clients cannot use. Set up an authenticator app or make recovery codes on your profile to sign in here.";

// Any password length is checked against the hash: a short one is simply wrong.
const LoginSchema = z.object({ email: EmailSchema, password: z.string({ error: "Password is required" }).min(1, "Password is required") });

export const loader = apiRoute({
  POST: endpoint({
    summary: "Sign in: access and refresh tokens with the user, or the second step",
    description:
      "Checks the e-mail address and password. Without a second factor it issues a new access token (15 minutes) and refresh token (30 days, usable once), stored for the account. With one (an authenticator app or a passkey) it answers `{ mfaRequired: true, mfaToken }` instead: send the token with a code to POST /api/auth/mfa/verify within 5 minutes. A wrong address and a wrong password answer the same 401; attempts are limited per client address and per account (429), and a success clears those counts.",
    auth: anyone,
    response: LoginResponse,
    errors: {
      401: "Invalid email or password",
      403: "The account is blocked, or its only second factor is a passkey (the message says which)",
      429: "Too many attempts. Please try again in 15 minutes.",
    },
    body: LoginSchema,
    run: async ({ request, body, context }) => {
      const user = await signIn(body, clientAddress(context)).catch((error: unknown) => {
        // The /api contract's text for bad credentials; the form adds "Please try again."
        throw error instanceof ServiceError && error.status === 401 ? new ServiceError("Invalid email or password", 401) : error;
      });
      const factors = await factorSummary(user.id);
      if (factors.any) {
        // A passkey cannot answer here: an account with nothing else is told how to get a code.
        if (!factors.acceptsCodes) throw new ServiceError(PASSKEY_ONLY_API, 403);
        return { mfaRequired: true, mfaToken: await beginSecondStep(user.id) };
      }
      return issueSignInTokens(user, request, context);
    },
  }),
});
export const action = loader;
