import { z } from "zod";
import { apiRoute, endpoint } from "~/lib/api-route.server.ts";
import { anyone } from "~/services/auth/guards.server.ts";
import { ServiceError } from "~/lib/errors.server.ts";
import { clientAddress } from "~/lib/rate-limit.server.ts";
import { issueTokens } from "~/services/auth/credentials.server.ts";
import { signInClient } from "~/services/auth/device.server.ts";
import { hasSecondFactor } from "~/services/auth/second-factor.server.ts";
import { noteSignIn } from "~/services/auth/security-alerts.server.ts";
import { beginSecondStep, signIn } from "~/services/auth/sign-in.server.ts";
import { EmailSchema } from "~/validation/auth-forms.ts";
import { LoginResponse } from "~/validation/api-responses.ts";

// Any password length is checked against the hash: a short one is simply wrong.
const LoginSchema = z.object({ email: EmailSchema, password: z.string({ error: "Password is required" }).min(1, "Password is required") });

export const loader = apiRoute({
  POST: endpoint({
    summary: "Sign in: access and refresh tokens with the user, or the second step",
    description:
      "Checks the e-mail address and password. Without a second factor it issues a new access token (15 minutes) and refresh token (30 days, usable once), stored for the account. With one (an authenticator app or a passkey) it answers `{ mfaRequired: true, mfaToken }` instead: send the token with a code to POST /api/auth/mfa/verify within 5 minutes. A wrong address and a wrong password answer the same 401; attempts are limited per client address and per account (429), and a success clears those counts.",
    auth: anyone,
    response: LoginResponse,
    errors: [401, 429],
    body: LoginSchema,
    run: async ({ request, body, context }) => {
      const user = await signIn(body, clientAddress(context)).catch((error: unknown) => {
        // The /api contract's text for bad credentials; the form adds "Please try again."
        throw error instanceof ServiceError && error.status === 401 ? new ServiceError("Invalid email or password", 401) : error;
      });
      if (await hasSecondFactor(user.id)) return { mfaRequired: true, mfaToken: await beginSecondStep(user.id) };
      const client = signInClient(request, context);
      const tokens = await issueTokens(user.id, { client });
      await noteSignIn(user, client);
      return { ...tokens, user };
    },
  }),
});
export const action = loader;
