import { apiRoute, endpoint } from "~/lib/api-route.server.ts";
import { ALREADY_VERIFIED_MESSAGE, verifyEmail } from "~/services/account.server.ts";
import { VerifyEmailSchema } from "~/validation/account.ts";

// Public: the link is opened from the mailbox, often in another browser than the signed-in one.
export const loader = apiRoute({
  POST: endpoint({
    body: VerifyEmailSchema,
    run: async ({ body }) => {
      const { alreadyVerified, ...user } = await verifyEmail(body.token);
      return { message: alreadyVerified ? ALREADY_VERIFIED_MESSAGE : "Your email has been successfully verified!", user };
    },
  }),
});
export const action = loader;
