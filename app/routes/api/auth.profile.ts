import { apiRoute, endpoint } from "~/lib/api-route.server.ts";
import { updateProfile } from "~/services/auth/account.server.ts";
import { requireUser } from "~/services/auth/guards.server.ts";
import { ProfileSchema } from "~/validation/account.ts";
import { UserMessageResponse } from "~/validation/api-responses.ts";

export const loader = apiRoute({
  PUT: endpoint({
    summary: "Update the profile (a new e-mail must be verified again)",
    description:
      "Updates the caller's first and last name, username and e-mail address. A new address is marked unverified and a verification link is sent to it. 409 when the username or address belongs to someone else.",
    response: UserMessageResponse,
    errors: [409],
    auth: requireUser,
    body: ProfileSchema,
    run: async ({ user, body }) => {
      const result = await updateProfile(user, body);
      const message = result.emailChanged ? "Profile updated. Please verify your new email address." : "Profile updated";
      return { message, user: result.user };
    },
  }),
});
export const action = loader;
