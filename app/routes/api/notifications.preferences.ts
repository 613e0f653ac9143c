import { apiRoute, endpoint } from "~/lib/api-route.server.ts";
import { getPreferences, updatePreferences } from "~/services/auth/account.server.ts";
import { requireUser } from "~/services/auth/guards.server.ts";
import { PreferencesApiSchema } from "~/validation/account.ts";
import { NotificationPreferences } from "~/validation/api-responses.ts";

// PUT with the booleans to change; keys left out keep their value.
export const loader = apiRoute({
  GET: {
    summary: "The caller's e-mail preferences",
    description:
      "The caller's e-mail preferences (new animations, promotions, subscription updates, security alerts, newsletter, renewal reminders). Changes nothing.",
    response: NotificationPreferences,
    auth: requireUser,
    run: ({ user }) => getPreferences(user.id),
  },
  PUT: endpoint({
    summary: "Change e-mail preferences (keys left out keep their value)",
    description: "Turns the caller's e-mail preferences on or off; keys left out keep their value. Answers every preference.",
    response: NotificationPreferences,
    auth: requireUser,
    body: PreferencesApiSchema,
    run: ({ user, body }) => updatePreferences(user.id, body),
  }),
});
export const action = loader;
