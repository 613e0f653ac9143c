import { apiRoute, endpoint } from "~/lib/api-route.server.ts";
import { requireUser } from "~/services/auth/guards.server.ts";
import { loadLicenceAnalytics } from "~/services/analytics/licence-analytics.server.ts";
import { AnalyticsQuerySchema, LicenceAnalyticsResponse } from "~/validation/playback-analytics.ts";

/** GET /api/licences/{id}/analytics?days=30: the licence page's chart and table as JSON. */
export const loader = apiRoute({
  GET: endpoint({
    summary: "A licence's playback analytics",
    description:
      "For an individual or category licence the caller holds (their own, or their practice's; admins any): plays per UTC day over the last `days` (1 to 365, default 30, today included and counted live), and per source (each embedding site, each patient link with its label and whether it was opened and watched to the end): plays, unique viewers (counted per day: an anonymous hash that changes daily), the average fraction watched and how many plays reached 25, 50, 75 and 100 %; `totals` over the period. The same numbers as the licence page and its CSV (`/licences/{id}/analytics.csv`). Another caller's licence answers 404. Changes nothing.",
    auth: requireUser,
    query: AnalyticsQuerySchema,
    response: LicenceAnalyticsResponse,
    run: ({ user, params, query }) => loadLicenceAnalytics(user, params.id ?? "", { days: query.days }),
  }),
});
export const action = loader;
