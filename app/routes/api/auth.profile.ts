import { apiRoute, endpoint } from "~/lib/api-route.server.ts";
import { updateProfile } from "~/services/account.server.ts";
import { requireUser } from "~/services/auth/guards.server.ts";
import { ProfileSchema } from "~/validation/account.ts";
import { UserMessageResponse } from "~/validation/api-responses.ts";

export const loader = apiRoute({
  PUT: endpoint({
    summary: "Update the profile (a new e-mail must be verified again)",
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
