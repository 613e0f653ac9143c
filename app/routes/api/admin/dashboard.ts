import { apiRoute, endpoint } from "~/lib/api-route.server.ts";
import { getDashboardStats, getPopularAnimations } from "~/services/admin-dashboard.server.ts";

// GET /api/admin/dashboard: stats and popularAnimations (spec section 7). The admin guard is
// the parent route's middleware (routes/api/admin/guard.ts).
export const loader = apiRoute({
  GET: endpoint({
    run: async () => {
      const [stats, popularAnimations] = await Promise.all([getDashboardStats(), getPopularAnimations()]);
      return { stats, popularAnimations };
    },
  }),
});
export const action = loader;
