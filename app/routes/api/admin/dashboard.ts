import { apiRoute, endpoint } from "~/lib/api-route.server.ts";
import { getDashboard } from "~/services/admin-dashboard.server.ts";

// GET /api/admin/dashboard: { stats, popularAnimations } (spec section 7), plus the screen's
// recentSubscriptions, revenueByMonth and reviewsDue. The admin guard is the parent route's
// middleware (routes/api/admin/guard.ts).
export const loader = apiRoute({ GET: endpoint({ run: () => getDashboard() }) });
export const action = loader;
