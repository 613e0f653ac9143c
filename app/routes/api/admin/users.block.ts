import { apiRoute, endpoint } from "~/lib/api-route.server.ts";
import { requireAdmin } from "~/services/auth/guards.server.ts";
import { blockUser, unblockUser } from "~/services/user-admin.server.ts";

// POST /api/admin/users/{id}/block and POST /api/admin/users/{id}/unblock (spec section 7):
// one module for both, the last path segment says which.
export const loader = apiRoute({
  POST: endpoint({
    auth: requireAdmin,
    run: async ({ user, params, url }) => {
      const change = url.pathname.endsWith("/unblock") ? unblockUser : blockUser;
      return { user: await change({ id: user.id, email: user.email }, params.id!) };
    },
  }),
});
export const action = loader;
