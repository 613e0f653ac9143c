import { z } from "zod";
import { apiRoute } from "~/lib/api-route.server.ts";
import { requireUser } from "~/services/auth/guards.server.ts";
import { listSubscriptions } from "~/services/commerce/subscriptions.server.ts";
import { OwnSubscription } from "~/validation/api-responses.ts";

// The caller's own subscriptions, every status, newest first.
export const loader = apiRoute({
  GET: {
    summary: "The caller's subscriptions, every status, newest first",
    description: "The caller's own subscriptions and licenses, every status (active, canceled, expired), newest first. Changes nothing.",
    response: z.array(OwnSubscription),
    auth: requireUser,
    run: ({ user }) => listSubscriptions(user.id),
  },
});
export const action = loader;
