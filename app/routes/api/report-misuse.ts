import { ServiceError } from "~/lib/errors.server.ts";
import { apiError, methodNotAllowed, parseBody } from "~/lib/api.server.ts";
import { createMisuseReport } from "~/services/catalogue/misuse-reports.server.ts";
import { MisuseReportSchema } from "~/validation/catalogue.ts";
import type { Route } from "./+types/report-misuse";

export const loader = () => methodNotAllowed(["POST"]);

/** POST /api/report-misuse {animationId, animationTitle, reporterEmail, message, link} → 201. */
export async function action({ request }: Route.ActionArgs) {
  if (request.method !== "POST") return methodNotAllowed(["POST"]);
  const input = await parseBody(request, MisuseReportSchema);
  try {
    const report = await createMisuseReport(input);
    return Response.json({ id: report.id, message: "Report submitted successfully" }, { status: 201 });
  } catch (error) {
    if (error instanceof ServiceError) return apiError(error.message, error.status);
    throw error;
  }
}
