import { apiRoute, endpoint } from "~/lib/api-route.server.ts";
import { requireAdmin } from "~/services/auth/guards.server.ts";
import { changeMisuseStatus } from "~/services/admin/misuse-reports.server.ts";
import { MisuseStatusChangeSchema } from "~/validation/admin-misuse.ts";
import { AdminMisuseReport } from "~/validation/api-responses-admin.ts";

// PUT /api/admin/misuse-reports/{id} { status, note } → the report in its new state.
export const loader = apiRoute({
  PUT: endpoint({
    summary: "Move a misuse report to another state, with a note",
    description:
      "Sets a misuse report's state (new, investigating, resolved, dismissed) with the admin's note; the change enters the report's history and the audit log together. 409 when the report is in that state already, or was changed meanwhile.",
    response: AdminMisuseReport,
    errors: { 404: "Misuse report not found", 409: "The report is in that state already, or was changed meanwhile" },
    auth: requireAdmin,
    body: MisuseStatusChangeSchema,
    run: ({ user, params, body }) => changeMisuseStatus(user, params.id!, body),
  }),
});
export const action = loader;
