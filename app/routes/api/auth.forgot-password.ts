import { apiRoute, endpoint } from "~/lib/api-route.server.ts";
import { anyone } from "~/services/auth/guards.server.ts";
import { clientAddress } from "~/lib/rate-limit.server.ts";
import { requestPasswordReset } from "~/services/auth/account.server.ts";
import { ForgotPasswordSchema, RESET_EMAIL_SENT } from "~/validation/account.ts";
import { MessageResponse } from "~/validation/api-responses.ts";

// Public, and the same answer whether or not the address has an account.
export const loader = apiRoute({
  POST: endpoint({
    summary: "Send a password-reset link (same answer for any address)",
    description:
      "E-mails a password-reset link when the address belongs to an active account, and answers the same in every case, so no one can learn which addresses have accounts (an address over its hourly cap is quietly not mailed). Limited per client address (429).",
    auth: anyone,
    response: MessageResponse,
    errors: [429],
    body: ForgotPasswordSchema,
    run: async ({ body, context }) => {
      await requestPasswordReset(body.email, clientAddress(context));
      return { message: RESET_EMAIL_SENT };
    },
  }),
});
export const action = loader;
