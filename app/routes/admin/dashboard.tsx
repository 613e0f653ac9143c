import { AdminPage, Panel } from "~/components/admin/admin-page.tsx";
import { Badge } from "~/components/admin/data-table.tsx";
import { RevenueChart } from "~/components/admin/revenue-chart.tsx";
import { ButtonLink } from "~/components/ui/button.tsx";
import { StatCard } from "~/components/ui/stat-card.tsx";
import { TextLink } from "~/components/ui/text-link.tsx";
import { formatCompact, formatCount, formatDate, formatMoney, pluralize } from "~/lib/format.ts";
import { getDashboard } from "~/services/admin/admin-dashboard.server.ts";
import { getBackupStatus } from "~/services/admin/backups.server.ts";
import { BackupPanel } from "~/components/admin/backup-panel.tsx";
import { countMisuseReports } from "~/services/admin/misuse-reports.server.ts";
import { NOINDEX } from "~/lib/seo.ts";
import type { Route } from "./+types/dashboard";

export async function loader() {
  // The last backup is shown here only: the API's dashboard document stays as it is.
  const [dashboard, backups, newMisuseReports] = await Promise.all([getDashboard(), getBackupStatus(), countMisuseReports("new")]);
  return { ...dashboard, backups, newMisuseReports };
}

export const meta: Route.MetaFunction = () => [{ title: "Admin Dashboard" }, NOINDEX];

export default function AdminDashboard({ loaderData }: Route.ComponentProps) {
  const { stats, popularAnimations, recentSubscriptions, revenueByMonth, reviewsDue, backups, newMisuseReports } = loaderData;
  return (
    <AdminPage
      title="Admin Dashboard"
      back={false}
      description="The library, its members and its revenue at a glance."
      actions={
        <>
          <ButtonLink to="/admin/animations">Manage Animations</ButtonLink>
          <ButtonLink to="/admin/users" variant="secondary">
            Manage Users
          </ButtonLink>
          {/* This quick button goes to /admin/emails, the sidebar to /admin/email-manager; both exist. */}
          <ButtonLink to="/admin/emails" variant="secondary">
            Email Manager
          </ButtonLink>
        </>
      }
    >
      {/* Figures abbreviated with one decimal, K above 1,000 and M above 1,000,000. */}
      <dl className="grid gap-4 sm:grid-cols-2 xl:grid-cols-4">
        <StatCard label="Total Users" value={formatCompact(stats.totalUsers)} />
        <StatCard label="Active Subscriptions" value={formatCompact(stats.activeSubscriptions)} />
        <StatCard label="Total Animations" value={formatCompact(stats.totalAnimations)} />
        <StatCard label="Monthly Revenue" value={`$${formatCompact(stats.monthlyRevenue)}`} hint="Completed payments this month" />
      </dl>
      <p className="text-sm" data-testid="new-misuse-reports">
        {/* Reports nobody has looked at yet: the link opens the inbox on them. */}
        <TextLink to="/admin/misuse?status=new">{`${pluralize(newMisuseReports, "new misuse report")}`}</TextLink>
        {newMisuseReports > 0 ? " waiting in the misuse inbox." : ": the misuse inbox is up to date."}
      </p>
      <Panel title="Revenue, last 12 months">
        <RevenueChart months={revenueByMonth} />
      </Panel>
      <div className="grid gap-6 xl:grid-cols-2">
        <Panel title="Recent Subscriptions">
          {recentSubscriptions.length === 0 ? (
            <p className="text-sm text-slate-600">No subscriptions yet.</p>
          ) : (
            <ul className="divide-y divide-slate-100 text-sm">
              {recentSubscriptions.map((s) => (
                <li key={s.id} className="flex items-start justify-between gap-4 py-2">
                  <span>
                    <span className="font-medium">{s.member || s.email}</span>
                    <span className="block text-slate-600">{s.item}</span>
                  </span>
                  <span className="text-right whitespace-nowrap">
                    {formatMoney(s.price)}
                    <span className="block text-slate-500">
                      {formatDate(s.createdAt)} · {s.status}
                    </span>
                  </span>
                </li>
              ))}
            </ul>
          )}
          <p className="mt-3 text-sm">
            <TextLink to="/admin/subscriptions">All subscriptions</TextLink>
          </p>
        </Panel>
        <Panel title="Popular Animations">
          {popularAnimations.length === 0 ? (
            <p className="text-sm text-slate-600">No animation data available</p>
          ) : (
            <ol className="divide-y divide-slate-100">
              {popularAnimations.map((animation) => (
                <li key={animation.id} className="flex items-center justify-between gap-4 py-2 text-sm">
                  <span>
                    <span className="font-medium">{animation.title}</span>
                    {animation.categoryName ? <span className="block text-slate-500">{animation.categoryName}</span> : null}
                  </span>
                  <span className="text-slate-600">{formatCount(animation.views)} views</span>
                </li>
              ))}
            </ol>
          )}
        </Panel>
      </div>
      <Panel title="Medical review due">
        {reviewsDue.length === 0 ? (
          <p className="text-sm text-slate-600">Every animation's medical review is up to date.</p>
        ) : (
          <ul className="divide-y divide-slate-100 text-sm">
            {reviewsDue.map((animation) => (
              <li key={animation.id} className="flex items-center justify-between gap-4 py-2">
                <TextLink to={`/admin/animations/${animation.id}/medical`}>{animation.title}</TextLink>
                {animation.reviewDueAt ? <Badge tone="yellow">Due {formatDate(animation.reviewDueAt)}</Badge> : <Badge tone="red">Never reviewed</Badge>}
              </li>
            ))}
          </ul>
        )}
      </Panel>
      <BackupPanel status={backups} />
      <nav aria-label="Quick actions" className="flex flex-wrap gap-3">
        <ButtonLink to="/admin/categories" variant="secondary">
          Manage Categories
        </ButtonLink>
        <ButtonLink to="/admin/doctors" variant="secondary">
          Manage Doctors
        </ButtonLink>
        <ButtonLink to="/admin/pages" variant="secondary">
          Manage Pages
        </ButtonLink>
        <ButtonLink to="/admin/refunds" variant="secondary">
          Refunds
        </ButtonLink>
        <ButtonLink to="/admin/audit" variant="secondary">
          Audit Log
        </ButtonLink>
      </nav>
    </AdminPage>
  );
}
