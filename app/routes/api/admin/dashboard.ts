import { apiRoute, endpoint } from "~/lib/api-route.server.ts";
import { requireAdmin } from "~/services/auth/guards.server.ts";
import { getDashboard } from "~/services/admin/admin-dashboard.server.ts";
import { AdminDashboard } from "~/validation/api-responses-admin.ts";

// GET /api/admin/dashboard: { stats, popularAnimations }, plus the screen's
// recentSubscriptions, revenueByMonth and reviewsDue. The admin guard is the parent route's
// middleware (routes/api/admin/guard.ts).
export const loader = apiRoute({
  GET: endpoint({
    summary: "The dashboard: totals, popular animations, recent subscriptions, revenue by month, reviews due",
    description:
      "The back office's dashboard: totals (users, active subscriptions, animations, this month's revenue), popular animations, recent subscriptions, revenue by month and medical reviews due. Changes nothing.",
    auth: requireAdmin,
    response: AdminDashboard,
    run: () => getDashboard(),
  }),
});
export const action = loader;
