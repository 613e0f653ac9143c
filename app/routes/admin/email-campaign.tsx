import { useEffect } from "react";
import { useRevalidator } from "react-router";
import { AdminPage, Panel } from "~/components/admin/admin-page.tsx";
import { ConfirmButton, ConfirmPanel, type ConfirmStep } from "~/components/admin/confirm.tsx";
import { Badge } from "~/components/admin/data-table.tsx";
import { StatCard } from "~/components/ui/stat-card.tsx";
import { TextLink } from "~/components/ui/text-link.tsx";
import { asRouteError } from "~/lib/errors.server.ts";
import { formatDateTime } from "~/lib/format.ts";
import { confirmTarget, runListAction } from "~/lib/list-query.server.ts";
import { requireAdmin } from "~/services/auth/guards.server.ts";
import { cancelCampaign, requireCampaign } from "~/services/admin/email-campaigns.server.ts";
import { CAMPAIGN_KIND_LABELS, type CampaignKind, describeAudience } from "~/validation/admin-email.ts";
import { NOINDEX } from "~/lib/seo.ts";
import type { Route } from "./+types/email-campaign";

// A campaign's progress: sent, failed and left, refreshed every few seconds while it runs (with
// JavaScript by revalidating; without, by a refresh the page asks for in <noscript>).

export const meta: Route.MetaFunction = ({ data }) => [{ title: `${data?.campaign.subject ?? "Campaign"} | Admin` }, NOINDEX];

const REFRESH_SECONDS = 3;

export async function loader({ params, url }: Route.LoaderArgs) {
  const campaign = await requireCampaign(params.id).catch(asRouteError);
  return { campaign, confirming: confirmTarget(url, ["cancel"])?.id === campaign.id };
}

export async function action({ request, params }: Route.ActionArgs) {
  const admin = await requireAdmin(request);
  return runListAction(request, `/admin/email-manager/campaigns/${params.id}`, {
    cancel: {
      failed: "Failed to cancel campaign",
      run: async (id) => {
        const { unsent } = await cancelCampaign(admin, id);
        return { title: "Campaign Canceled", description: `${unsent} messages will not be sent.` };
      },
    },
  });
}

const cancelStep = (campaign: { id: string; subject: string }): ConfirmStep => ({
  id: campaign.id,
  intent: "cancel",
  title: `Cancel “${campaign.subject}”?`,
  message: "Messages not sent yet will not be sent. Those already sent stay sent.",
  confirmLabel: "Cancel Campaign",
  pendingText: "Canceling...",
});

export default function CampaignProgress({ loaderData: { campaign, confirming } }: Route.ComponentProps) {
  const running = campaign.status === "queued" || campaign.status === "sending";
  const revalidator = useRevalidator();
  useEffect(() => {
    if (!running) return;
    const timer = setInterval(() => {
      if (revalidator.state === "idle") void revalidator.revalidate();
    }, REFRESH_SECONDS * 1000);
    return () => clearInterval(timer);
  }, [running, revalidator]);
  const done = campaign.sent + campaign.failed;
  const percent = campaign.total ? Math.round((100 * done) / campaign.total) : 100;
  return (
    <AdminPage
      title={campaign.subject}
      description={`${describeAudience(campaign.audience, campaign.audienceFilters as Parameters<typeof describeAudience>[1])} · ${CAMPAIGN_KIND_LABELS[campaign.kind as CampaignKind] ?? campaign.kind} · started by ${campaign.createdByEmail} on ${formatDateTime(campaign.createdAt)}`}
    >
      {running && !confirming ? <noscript dangerouslySetInnerHTML={{ __html: `<meta http-equiv="refresh" content="${REFRESH_SECONDS}">` }} /> : null}
      {running && confirming ? <ConfirmPanel step={cancelStep(campaign)} /> : null}
      <p className="flex gap-4 text-sm">
        <TextLink to="/admin/email-manager?tab=campaigns">Back to Email Manager</TextLink>
        <TextLink to={`/admin/email-manager?tab=logs&campaign=${campaign.id}`}>This campaign's log</TextLink>
      </p>
      <Panel>
        <div className="flex items-center justify-between gap-4">
          <p className="text-sm" role="status" aria-live="polite">
            <Badge tone={campaign.status === "finished" ? "green" : campaign.status === "canceled" ? "grey" : "yellow"}>{campaign.status}</Badge>{" "}
            {campaign.status === "finished"
              ? `Successfully sent to ${campaign.sent} users, ${campaign.failed} failed.`
              : `${done} of ${campaign.total} handled (${percent}%).`}
          </p>
          {running ? (
            <div className="flex items-center gap-4">
              <p className="text-xs text-slate-500">Refreshes every {REFRESH_SECONDS} seconds.</p>
              <ConfirmButton step={cancelStep(campaign)}>Cancel Campaign</ConfirmButton>
            </div>
          ) : null}
        </div>
        <progress className="mt-4 h-2 w-full" max={campaign.total || 1} value={done} aria-label="Campaign progress" />
      </Panel>
      <dl className="grid gap-4 sm:grid-cols-2 xl:grid-cols-4">
        <StatCard label="Sent" value={campaign.sent} />
        <StatCard label="Failed" value={campaign.failed} />
        <StatCard label="Left" value={campaign.left} />
        <StatCard label="Skipped" value={campaign.skipped} hint="Blocked or opted out when it started" />
      </dl>
    </AdminPage>
  );
}
