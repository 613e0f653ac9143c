import { apiRoute } from "~/lib/api-route.server.ts";
import { requireUser } from "~/services/auth/guards.server.ts";
import { UserResponse } from "~/validation/api-responses.ts";

export const loader = apiRoute({
  GET: {
    summary: "The signed-in user",
    description: "The caller's account as the app shows it (no password or secrets). Changes nothing.",
    response: UserResponse,
    auth: requireUser,
    run: ({ user }) => ({ user }),
  },
});
export const action = loader;
