import { apiRoute, endpoint } from "~/lib/api-route.server.ts";
import { resetPassword } from "~/services/account.server.ts";
import { ResetPasswordSchema } from "~/validation/account.ts";
import { MessageResponse } from "~/validation/api-responses.ts";

// Public. A bad token answers 400 with a message containing 'Invalid or expired'.
export const loader = apiRoute({
  POST: endpoint({
    summary: "Set a new password with the e-mailed token",
    response: MessageResponse,
    body: ResetPasswordSchema,
    run: async ({ body }) => {
      await resetPassword(body.token, body.password);
      return { message: "Password reset successful" };
    },
  }),
});
export const action = loader;
