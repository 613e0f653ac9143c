import { apiRoute, endpoint } from "~/lib/api-route.server.ts";
import { ServiceError } from "~/lib/errors.server.ts";
import { getUser } from "~/services/auth/guards.server.ts";
import { startPasskeyRegistration } from "~/services/auth/passkeys.server.ts";

// The profile's "Add a passkey" button asks here for a registration challenge (JavaScript only).
export const loader = apiRoute({
  POST: endpoint({
    summary: "A challenge for registering a passkey",
    description: "The signed-in user's registration options; their passkeys are excluded so one authenticator is not registered twice.",
    auth: getUser,
    run: async ({ request, user }) => {
      if (!user) throw new ServiceError("Authentication required", 401);
      return startPasskeyRegistration(user, request);
    },
  }),
});
export const action = loader;
