import { issueSignInTokens } from "~/services/auth/sign-in.server.ts";
import { apiRoute, endpoint } from "~/lib/api-route.server.ts";
import { anyone } from "~/services/auth/guards.server.ts";
import { clientAddress, enforceRateLimit, signUpRule } from "~/lib/rate-limit.server.ts";
import { registerUser } from "~/services/auth/credentials.server.ts";
import { sendVerificationEmail } from "~/services/auth/verification.server.ts";
import { SignUpSchema } from "~/validation/auth-forms.ts";
import { RegisterResponse } from "~/validation/api-responses.ts";

export const loader = apiRoute({
  POST: endpoint({
    summary: "Create an account: tokens, the user, and a verification e-mail",
    description:
      "Creates a free account with an unverified e-mail address, signs it in (an access token and a refresh token) and e-mails a verification link. Limited per client address (429). 409 when the e-mail address or username already belongs to an account.",
    auth: anyone,
    response: RegisterResponse,
    errors: [409, 429],
    body: SignUpSchema,
    status: 201,
    run: async ({ request, body, context }) => {
      await enforceRateLimit(`signup:${clientAddress(context)}`, signUpRule());
      const user = await registerUser(body);
      await sendVerificationEmail(user);
      return { ...(await issueSignInTokens(user, request, context)), message: "Account created. Please check your email to verify your account." };
    },
  }),
});
export const action = loader;
