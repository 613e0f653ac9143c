import { apiRoute, endpoint } from "~/lib/api-route.server.ts";
import { ServiceError } from "~/lib/errors.server.ts";
import { clientAddress, enforceRateLimit } from "~/lib/rate-limit.server.ts";
import { getSecondStepToken } from "~/lib/session.server.ts";
import { openChallenge } from "~/services/auth/challenges.server.ts";
import { getUser } from "~/services/auth/guards.server.ts";
import { PASSKEY_CHALLENGE_RULE, startPasskeyAuthentication } from "~/services/auth/passkeys.server.ts";
import { SIGN_IN_STEP_EXPIRED } from "~/services/auth/sign-in.server.ts";
import { PasskeyOptionsSchema } from "~/validation/passkeys.ts";

// The browser's passkey button asks here for a challenge (JavaScript only: WebAuthn is a
// browser API). Which passkeys may answer depends on where it is used.
export const loader = apiRoute({
  POST: endpoint({
    summary: "A challenge for signing in or confirming with a passkey",
    description:
      "sign-in: any passkey of this site (the first factor); two-step: the passkeys of the account whose password was just right (the second-step cookie); step-up: the signed-in user's passkeys.",
    auth: getUser,
    body: PasskeyOptionsSchema,
    run: async ({ request, context, user, body }) => {
      if (body.purpose === "step-up") {
        if (!user) throw new ServiceError("Authentication required", 401);
        return startPasskeyAuthentication(request, user.id);
      }
      if (body.purpose === "two-step") {
        const step = await openChallenge(await getSecondStepToken(request), "sign_in");
        if (!step?.userId) throw new ServiceError(SIGN_IN_STEP_EXPIRED, 401);
        return startPasskeyAuthentication(request, step.userId);
      }
      // Open to anyone: each answer stores a challenge, so their number is limited per address.
      await enforceRateLimit(`passkey-challenge:${clientAddress(context)}`, PASSKEY_CHALLENGE_RULE);
      return startPasskeyAuthentication(request, null);
    },
  }),
});
export const action = loader;
