import { apiRoute, endpoint } from "~/lib/api-route.server.ts";
import { ALREADY_VERIFIED_MESSAGE, verifyEmail } from "~/services/account.server.ts";
import { VerifyEmailSchema } from "~/validation/account.ts";
import { UserMessageResponse } from "~/validation/api-responses.ts";

// Public: the link is opened from the mailbox, often in another browser than the signed-in one.
export const loader = apiRoute({
  POST: endpoint({
    summary: "Verify the e-mail address with the e-mailed token",
    response: UserMessageResponse,
    body: VerifyEmailSchema,
    run: async ({ body }) => {
      const { alreadyVerified, ...user } = await verifyEmail(body.token);
      return { message: alreadyVerified ? ALREADY_VERIFIED_MESSAGE : "Your email has been successfully verified!", user };
    },
  }),
});
export const action = loader;
