import { apiRoute, endpoint } from "~/lib/api-route.server.ts";
import { requireAdmin } from "~/services/auth/guards.server.ts";
import { STEP_UP } from "~/services/auth/step-up.server.ts";
import { setUserRole } from "~/services/admin/user-admin.server.ts";
import { UserRoleSchema } from "~/validation/admin-users.ts";
import { UserResponse } from "~/validation/api-responses.ts";

// PUT /api/admin/users/{id} { role } → the user (change role).
export const loader = apiRoute({
  PUT: endpoint({
    summary: "Promote a user to admin or demote an admin",
    description: "Sets a user's role (admin or user) and records the change in the audit log. 409 when an admin would demote themselves or the last admin.",
    response: UserResponse,
    errors: { 409: "An admin cannot demote themselves, nor the last admin" },
    auth: requireAdmin,
    stepUp: STEP_UP,
    body: UserRoleSchema,
    run: async ({ user, body, params }) => {
      return { user: await setUserRole(user, params.id!, body.role) };
    },
  }),
});
export const action = loader;
