import { apiRoute } from "~/lib/api-route.server.ts";
import { resendVerification } from "~/services/account.server.ts";
import { requireUser } from "~/services/auth/guards.server.ts";
import { MessageResponse } from "~/validation/api-responses.ts";

// No body: the link goes to the signed-in user's current address.
export const loader = apiRoute({
  POST: {
    summary: "Send the verification e-mail again",
    response: MessageResponse,
    errors: [409, 429],
    auth: requireUser,
    run: async ({ user }) => {
      await resendVerification(user);
      return { message: "Verification Email Sent" };
    },
  },
});
export const action = loader;
