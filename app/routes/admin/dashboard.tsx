import { Link } from "react-router";
import { AdminPage, Panel } from "~/components/admin/admin-page.tsx";
import { StatCard } from "~/components/ui/stat-card.tsx";
import { formatCompact, formatCount } from "~/lib/format.ts";
import { getDashboardStats, getPopularAnimations } from "~/services/admin-dashboard.server.ts";
import type { Route } from "./+types/dashboard";

export async function loader() {
  const [stats, popularAnimations] = await Promise.all([getDashboardStats(), getPopularAnimations()]);
  return { stats, popularAnimations };
}

export const meta: Route.MetaFunction = () => [{ title: "Admin Dashboard" }];

export default function AdminDashboard({ loaderData }: Route.ComponentProps) {
  const { stats, popularAnimations } = loaderData;
  return (
    <AdminPage title="Admin Dashboard" back={false} description="The library, its members and its revenue at a glance.">
      <dl className="grid gap-4 sm:grid-cols-2 xl:grid-cols-4">
        <StatCard label="Total Users" value={formatCompact(stats.totalUsers)} />
        <StatCard label="Active Subscriptions" value={formatCompact(stats.activeSubscriptions)} />
        <StatCard label="Total Animations" value={formatCompact(stats.totalAnimations)} />
        <StatCard label="Monthly Revenue" value={`$${formatCompact(stats.monthlyRevenue)}`} />
      </dl>
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
      <div className="flex flex-wrap gap-3">
        <Link to="/admin/animations" className="rounded-lg bg-brand-600 px-4 py-2 text-sm font-semibold text-white hover:bg-brand-700">
          Manage Animations
        </Link>
      </div>
    </AdminPage>
  );
}
