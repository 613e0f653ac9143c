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
      "Stores a report that an animation is used without a license (where, and what the reporter saw) for the admins' misuse inbox (it starts new, and reaches the admins in their hourly digest). Anyone may report, signed in or not. At most 10 reports an hour per client address: past that, 429 with Retry-After and a message saying when to try again and which mailbox to write to meanwhile (ABUSE_EMAIL).",
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
