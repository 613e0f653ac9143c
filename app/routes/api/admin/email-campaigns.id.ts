import { apiRoute, endpoint } from "~/lib/api-route.server.ts";
import { requireCampaign } from "~/services/email-campaigns.server.ts";

// GET /api/admin/email-campaigns/{id} → a campaign's progress: status, total, sent, failed,
// left, skipped (the job POST /api/emails/bulk answers with).
export const loader = apiRoute({
  GET: endpoint({ run: ({ params }) => requireCampaign(params.id!) }),
});
export const action = loader;
