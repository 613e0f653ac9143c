import { asRouteError } from "~/lib/errors.server.ts";
import { requireUser } from "~/services/auth/guards.server.ts";
import { analyticsCsvFilename, formatAnalyticsCsv, loadLicenceAnalytics } from "~/services/analytics/licence-analytics.server.ts";
import { AnalyticsQuerySchema } from "~/validation/playback-analytics.ts";
import type { Route } from "./+types/licence-analytics-csv";

/** The licence page's analytics as a CSV file (`?days=`, as the page): the chart's days, the table's sources, the totals. */
export async function loader({ request, params, url }: Route.LoaderArgs) {
  const user = await requireUser(request);
  const query = AnalyticsQuerySchema.safeParse({ days: url.searchParams.get("days") ?? undefined });
  const data = await loadLicenceAnalytics(user, params.id, { days: query.success ? query.data.days : undefined }).catch(asRouteError);
  return new Response(formatAnalyticsCsv(data), {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="${analyticsCsvFilename(data)}"`,
      "Cache-Control": "private, no-store",
    },
  });
}
