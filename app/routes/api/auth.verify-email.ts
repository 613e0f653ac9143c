import { apiRoute, endpoint } from "~/lib/api-route.server.ts";
import { anyone } from "~/services/auth/guards.server.ts";
import { ALREADY_VERIFIED_MESSAGE, verifyEmail } from "~/services/auth/account.server.ts";
import { VerifyEmailSchema } from "~/validation/account.ts";
import { UserMessageResponse } from "~/validation/api-responses.ts";

// Public: the link is opened from the mailbox, often in another browser than the signed-in one.
export const loader = apiRoute({
  POST: endpoint({
    summary: "Verify the e-mail address with the e-mailed token",
    description:
      "Marks the address of the e-mailed token as verified and uses the token up. A token already used for this address answers 200 with 'already verified'; an unknown or expired one 400. Open to anyone, as the link is often opened in another browser than the signed-in one.",
    auth: anyone,
    response: UserMessageResponse,
    body: VerifyEmailSchema,
    run: async ({ body }) => {
      const { alreadyVerified, ...user } = await verifyEmail(body.token);
      return { message: alreadyVerified ? ALREADY_VERIFIED_MESSAGE : "Your email has been successfully verified!", user };
    },
  }),
});
export const action = loader;
