import { apiRoute } from "~/lib/api-route.server.ts";
import { requireUser } from "~/services/auth/guards.server.ts";
import { getDashboardStats } from "~/services/licensing/library.server.ts";
import { DashboardStats } from "~/validation/api-responses.ts";

export const loader = apiRoute({
  GET: {
    summary: "The caller's totals: spent, active subscriptions, licensed animations",
    description: "The caller's totals: amount spent, active subscriptions, licensed animations. Changes nothing.",
    response: DashboardStats,
    auth: requireUser,
    run: async ({ user }) => {
      const { totalSpent, activeSubscriptions, licensedAnimations } = await getDashboardStats(user.id);
      return { totalSpent, activeSubscriptions, licensedAnimations };
    },
  },
});
export const action = loader;
