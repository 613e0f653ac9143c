import { apiRoute, endpoint } from "~/lib/api-route.server.ts";
import { anyone } from "~/services/auth/guards.server.ts";
import { clientAddress } from "~/lib/rate-limit.server.ts";
import { createMisuseReport } from "~/services/admin/misuse-reports.server.ts";
import { MisuseReportSchema } from "~/validation/catalogue.ts";
import { Created } from "~/validation/api-responses.ts";

/** POST /api/report-misuse {animationId, animationTitle, reporterEmail, message, link} → 201. */
export const loader = apiRoute({
  POST: endpoint({
    summary: "Report misuse of an animation",
    description:
      "Stores a report that an animation is used without a license (where, and what the reporter saw) for the admins to review. Anyone may report, signed in or not; limited per client address (429).",
    auth: anyone,
    response: Created,
    errors: [429],
    body: MisuseReportSchema,
    status: 201,
    run: async ({ body, context }) => {
      const report = await createMisuseReport(body, clientAddress(context));
      return { id: report.id, message: "Report submitted successfully" };
    },
  }),
});
export const action = loader;
