import { apiRoute, endpoint } from "~/lib/api-route.server.ts";
import { getDashboard } from "~/services/admin-dashboard.server.ts";
import { AdminDashboard } from "~/validation/api-responses-admin.ts";

// GET /api/admin/dashboard: { stats, popularAnimations }, plus the screen's
// recentSubscriptions, revenueByMonth and reviewsDue. The admin guard is the parent route's
// middleware (routes/api/admin/guard.ts).
export const loader = apiRoute({ GET: endpoint({ summary: "The dashboard: totals, popular animations, recent subscriptions, revenue by month, reviews due", response: AdminDashboard, run: () => getDashboard() }) });
export const action = loader;
