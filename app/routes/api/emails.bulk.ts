import { apiRoute, endpoint } from "~/lib/api-route.server.ts";
import { enqueueCampaign } from "~/lib/jobs.server.ts";
import { requireAdmin } from "~/services/auth/guards.server.ts";
import { stepUpInRun } from "~/services/auth/step-up.server.ts";
import { sendTestEmail, startCampaign } from "~/services/admin/email-campaigns.server.ts";
import { BulkEmailSchema } from "~/validation/admin-email.ts";
import { BulkTestFailed, BulkTestResult, CampaignStarted } from "~/validation/api-responses-admin.ts";

// POST /api/emails/bulk, either body layout: { subject, html, userIds | testEmail }
// or { recipients, subject, htmlContent }; a target group instead of ids is accepted too.
// A test is sent at once: 200 { sent, failed }. A campaign runs as a background job: 202 with
// the campaign (sent and failed counts so far, and where to follow it).
export const loader = apiRoute({
  POST: endpoint({
    summary: "Send a test message (200), or start a campaign to a group or chosen users (202, followed at statusUrl)",
    description:
      "With testEmail: sends the message once to that address at once and answers what was sent (502 when it failed). Otherwise: records a campaign to the chosen users or a target group, leaving out those blocked or opted out of this kind of mail (400 when no one is left), and sends it in the background; answers 202 with the campaign and where to follow it.",
    response: BulkTestResult,
    otherResponses: { 202: CampaignStarted, 502: BulkTestFailed },
    auth: requireAdmin,
    stepUp: stepUpInRun("when it starts a campaign (not for a test message)"),
    body: BulkEmailSchema,
    run: async ({ stepUp, user, body }) => {
      if (body.testEmail) {
        const { sent, failed, errorMessage } = await sendTestEmail(user, { ...body, testEmail: body.testEmail });
        return Response.json(failed ? { message: errorMessage ?? "Failed to send bulk emails", sent, failed } : { sent, failed }, {
          status: failed ? 502 : 200,
        });
      }
      await stepUp();
      const campaign = await startCampaign(user, body, enqueueCampaign);
      return Response.json(
        {
          campaignId: campaign.id,
          status: campaign.status,
          total: campaign.total,
          skipped: campaign.skipped,
          sent: 0,
          failed: 0,
          statusUrl: `/api/admin/email-campaigns/${campaign.id}`,
        },
        { status: 202, headers: { Location: `/api/admin/email-campaigns/${campaign.id}`, "Cache-Control": "no-store" } },
      );
    },
  }),
});
export const action = loader;
