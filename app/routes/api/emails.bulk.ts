import { apiRoute, endpoint } from "~/lib/api-route.server.ts";
import { enqueueCampaign } from "~/lib/jobs.server.ts";
import { requireAdmin } from "~/services/auth/guards.server.ts";
import { stepUpInRun } from "~/services/auth/step-up.server.ts";
import { countRecipients } from "~/services/admin/campaign-audience.server.ts";
import { sendTestEmail, startCampaign } from "~/services/admin/email-campaigns.server.ts";
import { BulkEmailSchema } from "~/validation/admin-email.ts";
import { BulkTestFailed, BulkTestResult, CampaignRecipientCount, CampaignStarted } from "~/validation/api-responses-admin.ts";

// POST /api/emails/bulk, either body layout: { subject, html, userIds | testEmail }
// or { recipients, subject, htmlContent }; a target group instead of ids is accepted too, narrowed
// by the audience filters (licence held, signup range) the campaign form offers.
// A test is sent at once: 200 { sent, failed }. countOnly answers 200 { recipients, skipped,
// audience } and sends nothing. A campaign runs as a background job: 202 with the campaign (sent
// and failed counts so far, and where to follow it).
export const loader = apiRoute({
  POST: endpoint({
    summary: "Send a test message (200), count a campaign's recipients (200), or start a campaign to a group or chosen users (202, followed at statusUrl)",
    description: [
      "With testEmail: sends the message once to that address at once and answers what was sent (502 when it failed).",
      "Otherwise the audience is `userIds` (or `recipients`), or a `targetGroup` (all, premium, free, expired), narrowed by any of these filters, all of which must hold:",
      "`licenceCategoryId` (holders of that category's licence), `licenceAnimationId` (holders of that animation's individual licence),",
      "`licenceStatus` for both (`active`: running now, the default; `expired`: ended and not renewed; `any`),",
      "`signedUpFrom` and `signedUpTo` (YYYY-MM-DD, UTC days, both included). A licence held through a practice counts for its current members.",
      "Users who are blocked or turned the campaign's `kind` of mail off are left out (counted as skipped).",
      "With `countOnly: true`: answers how many it would reach now (`recipients`) and skip, and sends nothing.",
      "Otherwise: records the campaign (400 when no one is left; 409 when `expectedRecipients` is given and the audience no longer has that many)",
      "and sends it in the background; answers 202 with the campaign and where to follow it.",
    ].join(" "),
    response: BulkTestResult.or(CampaignRecipientCount),
    otherResponses: { 202: CampaignStarted, 502: BulkTestFailed },
    errors: [409],
    auth: requireAdmin,
    stepUp: stepUpInRun("when it starts a campaign (not for a test message or a count)"),
    body: BulkEmailSchema,
    run: async ({ stepUp, user, body }) => {
      if (body.testEmail) {
        const { sent, failed, errorMessage } = await sendTestEmail(user, { ...body, testEmail: body.testEmail });
        return Response.json(failed ? { message: errorMessage ?? "Failed to send bulk emails", sent, failed } : { sent, failed }, {
          status: failed ? 502 : 200,
        });
      }
      if (body.countOnly) return countRecipients(body);
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
