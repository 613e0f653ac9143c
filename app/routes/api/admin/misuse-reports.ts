import { apiRoute, endpoint } from "~/lib/api-route.server.ts";
import { requireAdmin } from "~/services/auth/guards.server.ts";
import { listMisuseReports } from "~/services/admin/misuse-reports.server.ts";
import { MisuseListQuerySchema } from "~/validation/admin-misuse.ts";
import { AdminMisuseReportList } from "~/validation/api-responses-admin.ts";

// GET /api/admin/misuse-reports?status&link&page&limit=20 → { reports, total, page, limit }:
// the misuse inbox of /admin/misuse.
export const loader = apiRoute({
  GET: endpoint({
    summary: "Misuse reports, by state and link, 20 a page, with the total",
    description:
      "The misuse inbox, newest first: reports filtered by state (new, investigating, resolved, dismissed) and by link (the reports of one page, however its address was spelled), 20 a page, with the total; each with its animation, reporter, link and how many reports name the same link. Changes nothing.",
    auth: requireAdmin,
    response: AdminMisuseReportList,
    query: MisuseListQuerySchema,
    run: ({ query }) => listMisuseReports(query),
  }),
});
export const action = loader;
