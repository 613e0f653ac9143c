import { apiRoute, endpoint } from "~/lib/api-route.server.ts";
import { requireAdmin } from "~/services/auth/guards.server.ts";
import { listUsers } from "~/services/admin/user-admin.server.ts";
import { UserListQuerySchema } from "~/validation/admin-users.ts";
import { AdminUserList } from "~/validation/api-responses-admin.ts";

// GET /api/admin/users?search&page&limit=20 → { users, total }. Admins only:
// the parent route's middleware (routes/api/admin/guard.ts).
export const loader = apiRoute({
  GET: endpoint({
    summary: "Users, by search, 20 a page, with the total",
    description: "Users, newest first, matched by a search term, 20 a page, with the total. Changes nothing.",
    auth: requireAdmin,
    response: AdminUserList,
    query: UserListQuerySchema,
    run: async ({ query }) => {
      const { users, total, page, limit } = await listUsers(query);
      return { users, total, page, limit };
    },
  }),
});
export const action = loader;
