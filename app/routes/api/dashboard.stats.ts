import { apiRoute } from "~/lib/api-route.server.ts";
import { requireUser } from "~/services/auth/guards.server.ts";
import { getDashboardStats } from "~/services/library.server.ts";

export const loader = apiRoute({
  GET: {
    auth: requireUser,
    run: async ({ user }) => {
      const { totalSpent, activeSubscriptions, licensedAnimations } = await getDashboardStats(user.id);
      return { totalSpent, activeSubscriptions, licensedAnimations };
    },
  },
});
export const action = loader;
