import type { RegistrationResponseJSON } from "@simplewebauthn/server";
import { apiRoute, endpoint } from "~/lib/api-route.server.ts";
import { ServiceError } from "~/lib/errors.server.ts";
import { toastHeader } from "~/lib/toast.server.ts";
import { getUser } from "~/services/auth/guards.server.ts";
import { finishPasskeyRegistration } from "~/services/auth/passkeys.server.ts";
import { PasskeyRegistrationSchema } from "~/validation/passkeys.ts";

// The authenticator's answer to a challenge of /profile/passkeys/options: the passkey is stored.
export const loader = apiRoute({
  POST: endpoint({
    summary: "Register a passkey",
    description: "Verifies the authenticator's attestation for the user's registration challenge and adds the passkey.",
    auth: getUser,
    body: PasskeyRegistrationSchema,
    run: async ({ request, user, body }) => {
      if (!user) throw new ServiceError("Authentication required", 401);
      const passkey = await finishPasskeyRegistration(user, request, {
        token: body.token,
        name: body.name,
        response: body.response as RegistrationResponseJSON,
      });
      const headers = new Headers({ "Cache-Control": "no-store" });
      headers.append("Set-Cookie", await toastHeader({ title: "Passkey added", description: `You can now sign in with “${passkey.name}”.` }));
      return Response.json({ passkey }, { status: 201, headers });
    },
  }),
});
export const action = loader;
