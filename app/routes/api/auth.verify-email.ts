import { apiRoute, endpoint } from "~/lib/api-route.server.ts";
import { verifyEmail } from "~/services/account.server.ts";
import { VerifyEmailSchema } from "~/validation/account.ts";

// Public: the link is opened from the mailbox, often in another browser than the signed-in one.
export const loader = apiRoute({
  POST: endpoint({
    body: VerifyEmailSchema,
    run: async ({ body }) => ({ message: "Your email has been successfully verified!", user: await verifyEmail(body.token) }),
  }),
});
export const action = loader;
