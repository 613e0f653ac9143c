import { apiRoute, endpoint } from "~/lib/api-route.server.ts";
import { anyone } from "~/services/auth/guards.server.ts";
import { resetPassword } from "~/services/auth/account.server.ts";
import { ResetPasswordSchema } from "~/validation/account.ts";
import { MessageResponse } from "~/validation/api-responses.ts";

// Public. A bad token answers 400 with a message containing 'Invalid or expired'.
export const loader = apiRoute({
  POST: endpoint({
    summary: "Set a new password with the e-mailed token",
    description:
      "Sets a new password with the e-mailed reset token, uses the token up, and signs the account out everywhere (sessions and refresh tokens end). 400 with 'Invalid or expired' for a bad token.",
    auth: anyone,
    response: MessageResponse,
    body: ResetPasswordSchema,
    run: async ({ body }) => {
      await resetPassword(body.token, body.password);
      return { message: "Password reset successful" };
    },
  }),
});
export const action = loader;
