import { apiRoute } from "~/lib/api-route.server.ts";
import { resendVerification } from "~/services/auth/account.server.ts";
import { requireUser } from "~/services/auth/guards.server.ts";
import { MessageResponse } from "~/validation/api-responses.ts";

// No body: the link goes to the signed-in user's current address.
export const loader = apiRoute({
  POST: {
    summary: "Send the verification e-mail again",
    description:
      "E-mails a new verification link to the caller's current address. 400 when the address is already verified; limited per account (429); 503 when the mail could not be sent.",
    response: MessageResponse,
    errors: {
      400: "The address is already verified",
      429: "Too many links asked for: wait for the Retry-After seconds",
      503: "The e-mail could not be sent: try again later",
    },
    auth: requireUser,
    run: async ({ user }) => {
      await resendVerification(user);
      return { message: "Verification Email Sent" };
    },
  },
});
export const action = loader;
