import type { AuthenticationResponseJSON } from "@simplewebauthn/server";
import { apiRoute, endpoint } from "~/lib/api-route.server.ts";
import { ServiceError } from "~/lib/errors.server.ts";
import { clearSecondStepToken, getSecondStepToken } from "~/lib/session.server.ts";
import { toastHeader } from "~/lib/toast.server.ts";
import { getUser } from "~/services/auth/guards.server.ts";
import { completeSecondStepWithPasskey, stepUpWithPasskey, verifyPasskeyAuthentication } from "~/services/auth/passkeys.server.ts";
import { startBrowserSession } from "~/services/auth/sign-in.server.ts";
import { STEP_UP_CONFIRMED } from "~/services/auth/step-up.server.ts";
import { safeRedirect } from "~/validation/auth-forms.ts";
import { PasskeyAuthenticationSchema } from "~/validation/passkeys.ts";

// The passkey's answer to a challenge of /auth/passkey/options. A sign-in (alone or as the second
// step) starts a session that counts as a step-up, as a sign-in with a code does; the answer says
// where the browser goes next.
export const loader = apiRoute({
  POST: endpoint({
    summary: "Sign in or confirm it's you with a passkey",
    description: "Verifies the passkey's assertion for the challenge's purpose: signs in (sign-in, two-step) or records a step-up.",
    auth: getUser,
    body: PasskeyAuthenticationSchema,
    run: async ({ request, context, user, body }) => {
      const assertion = body.response as AuthenticationResponseJSON;
      const headers = new Headers({ "Cache-Control": "no-store" });
      if (body.purpose === "step-up") {
        if (!user) throw new ServiceError("Authentication required", 401);
        await stepUpWithPasskey(request, body.token, assertion);
        headers.append("Set-Cookie", await toastHeader(STEP_UP_CONFIRMED));
        return Response.json({ redirectTo: safeRedirect(body.redirectTo, "/profile") }, { headers });
      }
      const outcome =
        body.purpose === "two-step"
          ? await completeSecondStepWithPasskey(request, await getSecondStepToken(request), body.token, assertion)
          : { user: await verifyPasskeyAuthentication(request, body.token, assertion, null), redirectTo: body.redirectTo ?? null };
      headers.append("Set-Cookie", await startBrowserSession(outcome.user, request, context, { secondFactor: true }));
      if (body.purpose === "two-step") headers.append("Set-Cookie", await clearSecondStepToken());
      headers.append("Set-Cookie", await toastHeader({ title: "Welcome back!", description: "You have been successfully logged in." }));
      return Response.json({ redirectTo: safeRedirect(outcome.redirectTo) }, { headers });
    },
  }),
});
export const action = loader;
