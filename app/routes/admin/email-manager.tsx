import { AdminPage } from "~/components/admin/admin-page.tsx";
import { ConfirmButton, ConfirmPanel, type ConfirmStep } from "~/components/admin/confirm.tsx";
import { ActiveBadge, Badge, DataTable, LONG_VALUE } from "~/components/admin/data-table.tsx";
import { FilterForm, FilterSelect, Pager, SearchInput, TabLinks } from "~/components/admin/list-controls.tsx";
import { ButtonLink } from "~/components/ui/button.tsx";
import { StatCard } from "~/components/ui/stat-card.tsx";
import { TextLink } from "~/components/ui/text-link.tsx";
import { formatDateTime } from "~/lib/format.ts";
import { backToList, confirmTarget, runListAction } from "~/lib/list-query.server.ts";
import { requireAdmin } from "~/services/auth/guards.server.ts";
import { listCampaigns } from "~/services/admin/email-campaigns.server.ts";
import { deleteTemplate, emailStats, getTemplate, isSystemTemplate, listEmailLogs, listTemplates } from "~/services/admin/email-manager.server.ts";
import {
  DELETE_TEMPLATE_CONFIRM,
  describeAudience,
  LOG_STATUSES,
  LogListQuerySchema,
  TemplateListQuerySchema,
  templateDisplayName,
} from "~/validation/admin-email.ts";
import { NOINDEX } from "~/lib/seo.ts";
import type { Route } from "./+types/email-manager";

// The e-mail manager (/admin/email-manager and /admin/emails are the same
// screen): the stat cards of both layouts, and tabs as links: templates, logs, campaigns.

export const meta: Route.MetaFunction = () => [{ title: "Email Manager | Admin" }, NOINDEX];

const TABS = ["templates", "logs", "campaigns"] as const;
type Tab = (typeof TABS)[number];

export async function loader({ url }: Route.LoaderArgs) {
  const tab: Tab = (TABS as readonly string[]).includes(url.searchParams.get("tab") ?? "") ? (url.searchParams.get("tab") as Tab) : "templates";
  const params = Object.fromEntries(url.searchParams);
  const target = tab === "templates" ? confirmTarget(url, ["delete"]) : null;
  const [stats, templates, logs, campaigns, confirm] = await Promise.all([
    emailStats(),
    tab === "templates"
      ? listTemplates(TemplateListQuerySchema.parse(params)).then((rows) => rows.map((t) => ({ ...t, system: isSystemTemplate(t.name) })))
      : null,
    tab === "logs" ? listEmailLogs(LogListQuerySchema.parse(params)) : null,
    tab === "campaigns" ? listCampaigns(20) : null,
    target ? getTemplate(target.id) : null,
  ]);
  return {
    tab,
    path: url.pathname,
    stats,
    templates,
    logs,
    campaigns,
    search: url.searchParams.get("search") ?? "",
    status: url.searchParams.get("status") ?? "",
    confirm: confirm && !isSystemTemplate(confirm.name) ? { id: confirm.id, name: confirm.name } : null,
  };
}

export async function action({ request, url }: Route.ActionArgs) {
  const admin = await requireAdmin(request);
  return runListAction(request, backToList(url.pathname, url), {
    delete: {
      failed: "Failed to delete template",
      run: async (id) => ({ title: "Template Deleted", description: `${(await deleteTemplate(admin, id)).name} was deleted.` }),
    },
  });
}

const deleteStep = (template: { id: string; name: string }): ConfirmStep => ({
  id: template.id,
  intent: "delete",
  title: `Delete ${templateDisplayName(template.name)}?`,
  message: DELETE_TEMPLATE_CONFIRM,
  confirmLabel: "Delete",
  pendingText: "Deleting...",
});

/** Log statuses: sent green, failed red, anything else (pending, sending) yellow. */
const LOG_TONES = { sent: "green", failed: "red" } as const;

export default function EmailManager({ loaderData }: Route.ComponentProps) {
  const { tab, path, stats, templates, logs, campaigns, search, status, confirm } = loaderData;
  return (
    <AdminPage
      title="Email Manager"
      description="Templates of the mail the site sends, the log of every message, and bulk campaigns."
      actions={
        <div className="flex gap-2">
          <ButtonLink to="/admin/email-manager/templates/new" variant="secondary">
            New Template
          </ButtonLink>
          <ButtonLink to="/admin/email-manager/campaigns/new">Send Bulk Email</ButtonLink>
        </div>
      }
    >
      {confirm ? <ConfirmPanel step={deleteStep(confirm)} /> : null}
      <dl className="grid gap-4 sm:grid-cols-2 xl:grid-cols-5">
        <StatCard label="Total Templates" value={stats.totalTemplates} />
        <StatCard label="Active Templates" value={stats.activeTemplates} />
        <StatCard label="Emails Sent Today" value={stats.emailsSentToday} />
        <StatCard label="Total Emails Sent" value={stats.totalEmailsSent} />
        <StatCard label="Success Rate" value={`${stats.successRate}%`} />
      </dl>
      <TabLinks
        label="Email manager sections"
        tabs={[
          { to: `${path}?tab=templates`, label: "Email Templates", current: tab === "templates" },
          { to: `${path}?tab=logs`, label: "Email Logs", current: tab === "logs" },
          { to: `${path}?tab=campaigns`, label: "Campaigns", current: tab === "campaigns" },
        ]}
      />
      {templates ? (
        <>
          <FilterForm clearTo={`${path}?tab=templates`}>
            <input type="hidden" name="tab" value="templates" />
            <SearchInput defaultValue={search} placeholder="Name or subject" />
          </FilterForm>
          <DataTable
            caption="Email templates by name"
            rows={templates}
            rowKey={(t) => t.id}
            empty="No templates found"
            columns={[
              {
                header: "Template",
                cell: (t) => (
                  <div>
                    <p className="font-medium">{templateDisplayName(t.name)}</p>
                    <p className="text-xs text-slate-500">
                      {t.name} · version {t.version}
                    </p>
                  </div>
                ),
              },
              { header: "Subject", cell: (t) => t.subject },
              {
                header: "Variables",
                cell: (t) =>
                  t.variables.length ? <span className="font-mono text-xs">{t.variables.join(", ")}</span> : <span className="text-slate-500">None</span>,
              },
              { header: "Status", cell: (t) => <ActiveBadge active={t.isActive} /> },
              {
                header: "Actions",
                cell: (t) => (
                  <div className="flex flex-wrap items-center gap-3">
                    <TextLink to={`/admin/email-manager/templates/${t.id}`}>
                      Edit<span className="sr-only"> {t.name}</span>
                    </TextLink>
                    {/* The site sends a system template itself: it is edited, never mass-mailed or removed. */}
                    {t.system ? (
                      <span className="text-xs text-slate-500">System template</span>
                    ) : (
                      <>
                        <TextLink to={`/admin/email-manager/campaigns/new?template=${t.id}`}>
                          Send as Campaign<span className="sr-only"> {t.name}</span>
                        </TextLink>
                        <ConfirmButton step={deleteStep(t)}>Delete</ConfirmButton>
                      </>
                    )}
                  </div>
                ),
              },
            ]}
          />
        </>
      ) : null}
      {logs ? (
        <>
          <FilterForm clearTo={`${path}?tab=logs`}>
            <input type="hidden" name="tab" value="logs" />
            <SearchInput defaultValue={search} placeholder="Recipient or subject" />
            <FilterSelect
              name="status"
              label="Status"
              value={status}
              options={LOG_STATUSES.map((s) => ({ value: s, label: s.charAt(0).toUpperCase() + s.slice(1) }))}
            />
          </FilterForm>
          <DataTable
            caption="Email log, newest first"
            rows={logs.logs}
            rowKey={(l) => l.id}
            empty="No emails logged"
            columns={[
              {
                header: "Recipient",
                cell: (l) => (
                  <div>
                    <p className={LONG_VALUE}>{l.toEmail}</p>
                    {l.userId ? <p className="font-mono text-xs text-slate-500">User ID: {l.userId}</p> : null}
                  </div>
                ),
              },
              { header: "Subject", cell: (l) => l.subject },
              {
                header: "Status",
                cell: (l) => (
                  <div>
                    <Badge tone={l.status === "sent" || l.status === "failed" ? LOG_TONES[l.status] : "yellow"}>
                      {l.status === "sent" || l.status === "failed" ? l.status : "pending"}
                    </Badge>
                    {l.errorMessage ? <p className="mt-1 text-xs text-red-700">{l.errorMessage}</p> : null}
                  </div>
                ),
              },
              { header: "Sent At", cell: (l) => formatDateTime(l.sentAt), className: "whitespace-nowrap" },
            ]}
          />
          <Pager page={logs.page} hasNext={logs.hasNext} label="Log pages" />
        </>
      ) : null}
      {campaigns ? (
        <DataTable
          caption="Bulk campaigns, newest first"
          rows={campaigns}
          rowKey={(c) => c.id}
          empty="No campaigns yet"
          columns={[
            {
              header: "Campaign",
              cell: (c) => (
                <div>
                  <TextLink to={`/admin/email-manager/campaigns/${c.id}`}>{c.subject}</TextLink>
                  <p className="text-xs text-slate-500">
                    {describeAudience(c.audience, c.audienceFilters as Parameters<typeof describeAudience>[1])} · by {c.createdByEmail}
                  </p>
                </div>
              ),
            },
            { header: "Status", cell: (c) => <Badge tone={c.status === "finished" ? "green" : c.status === "canceled" ? "grey" : "yellow"}>{c.status}</Badge> },
            { header: "Sent / Failed / Left", cell: (c) => `${c.sent} / ${c.failed} / ${c.left}`, className: "whitespace-nowrap" },
            { header: "Started", cell: (c) => formatDateTime(c.createdAt), className: "whitespace-nowrap" },
          ]}
        />
      ) : null}
    </AdminPage>
  );
}
