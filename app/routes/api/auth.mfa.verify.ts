import { apiRoute, endpoint } from "~/lib/api-route.server.ts";
import { clientAddress } from "~/lib/rate-limit.server.ts";
import { anyone } from "~/services/auth/guards.server.ts";
import { completeSecondStep, issueSignInTokens } from "~/services/auth/sign-in.server.ts";
import { SignInResponse } from "~/validation/api-responses.ts";
import { MfaVerifySchema } from "~/validation/auth-forms.ts";

export const loader = apiRoute({
  POST: endpoint({
    summary: "Second step of sign-in: exchange the mfaToken and a code for the tokens",
    description:
      "Takes the `mfaToken` from POST /api/auth/login with a six-digit code from the authenticator app or one of the account's recovery codes. Each token works once and for 5 minutes; five wrong codes end it (sign in again). A code is accepted once: the same authenticator code again, or a used recovery code, is refused. Wrong codes are limited per account and per client address (429). The tokens issued count as a recent second factor for 10 minutes (step-up).",
    auth: anyone,
    response: SignInResponse,
    errors: {
      401: "Your sign-in has expired. Please sign in again.",
      403: "Your account has been blocked. Please contact support.",
      429: "Too many attempts. Please try again in 15 minutes.",
    },
    body: MfaVerifySchema,
    run: async ({ request, body, context }) => {
      const { user } = await completeSecondStep(body.mfaToken, body.code, clientAddress(context));
      return issueSignInTokens(user, request, context, { secondFactor: true });
    },
  }),
});
export const action = loader;
