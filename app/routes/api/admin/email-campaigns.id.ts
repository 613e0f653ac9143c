import { apiRoute, endpoint } from "~/lib/api-route.server.ts";
import { requireCampaign } from "~/services/email-campaigns.server.ts";
import { EmailCampaign } from "~/validation/api-responses-admin.ts";

// GET /api/admin/email-campaigns/{id} → a campaign's progress: status, total, sent, failed,
// left, skipped (the job POST /api/emails/bulk answers with).
export const loader = apiRoute({
  GET: endpoint({
    summary: "A campaign's progress",
    response: EmailCampaign, run: ({ params }) => requireCampaign(params.id!) }),
});
export const action = loader;
