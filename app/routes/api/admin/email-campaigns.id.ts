import { apiRoute, endpoint } from "~/lib/api-route.server.ts";
import { requireAdmin } from "~/services/auth/guards.server.ts";
import { requireCampaign } from "~/services/admin/email-campaigns.server.ts";
import { EmailCampaign } from "~/validation/api-responses-admin.ts";

// GET /api/admin/email-campaigns/{id} → a campaign's progress: status, total, sent, failed,
// left, skipped (the job POST /api/emails/bulk answers with).
export const loader = apiRoute({
  GET: endpoint({
    summary: "A campaign's progress",
    description: "A bulk e-mail campaign's progress: its status and how many messages are sent, failed, left and skipped. Changes nothing.",
    auth: requireAdmin,
    response: EmailCampaign,
    run: ({ params }) => requireCampaign(params.id!),
  }),
});
export const action = loader;
