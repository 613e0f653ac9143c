import { apiRoute, endpoint } from "~/lib/api-route.server.ts";
import { requireAdmin } from "~/services/auth/guards.server.ts";
import { STEP_UP } from "~/services/auth/step-up.server.ts";
import { setUserBlocked } from "~/services/admin/user-admin.server.ts";
import { UserResponse } from "~/validation/api-responses.ts";

// POST /api/admin/users/{id}/block and POST /api/admin/users/{id}/unblock:
// one module for both, the last path segment says which.
export const loader = apiRoute({
  POST: endpoint({
    summary: "Block a user (ends their sessions), or unblock them",
    description:
      "Blocks a user, which ends their sessions and refresh tokens at once, or unblocks them (the last path segment says which), and records it in the audit log. 409 when an admin would block themselves or the last admin.",
    response: UserResponse,
    errors: { 409: "An admin cannot block themselves, nor the last admin" },
    auth: requireAdmin,
    stepUp: STEP_UP,
    run: async ({ user, params, url }) => {
      return { user: await setUserBlocked(user, params.id!, !url.pathname.endsWith("/unblock")) };
    },
  }),
});
export const action = loader;
