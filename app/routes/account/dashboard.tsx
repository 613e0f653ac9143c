import { LibraryCard } from "~/components/account/library-card.tsx";
import { StatCard } from "~/components/ui/stat-card.tsx";
import { AccountStatusBadges } from "~/components/account/status-badges.tsx";
import { GeneralErrorBoundary } from "~/components/error-boundary.tsx";
import { ButtonLink } from "~/components/ui/button.tsx";
import { EmptyState } from "~/components/ui/empty-state.tsx";
import { LinkCard } from "~/components/ui/link-card.tsx";
import { Section } from "~/components/ui/section.tsx";
import { TextLink } from "~/components/ui/text-link.tsx";
import { formatMoney } from "~/lib/format.ts";
import { requireUser } from "~/services/auth/guards.server.ts";
import { getDashboardStats } from "~/services/licensing/library.server.ts";
import { NOINDEX } from "~/lib/seo.ts";
import type { Route } from "./+types/dashboard";

export const meta: Route.MetaFunction = () => [{ title: "Dashboard | Medanim" }, NOINDEX];

export async function loader({ request }: Route.LoaderArgs) {
  const user = await requireUser(request);
  const now = new Date();
  const stats = await getDashboardStats(user.id, now);
  return { user, stats, now: now.toISOString() };
}

const QUICK_LINKS = [
  { to: "/my-animations", label: "My Animations", description: "Watch and download your licensed animations" },
  { to: "/billing", label: "Billing", description: "Subscriptions and payment history" },
  { to: "/profile", label: "Profile Settings", description: "Name, username, email and account status" },
  { to: "/notifications", label: "Notifications", description: "Choose which emails you receive" },
  { to: "/refund", label: "Request a Refund", description: "Within 30 days of purchase" },
  { to: "/help", label: "Help Center", description: "Answers to common questions" },
  { to: "/contact", label: "Contact Support", description: "We reply within 24 hours" },
  { to: "/premium", label: "Premium Plans", description: "Premium access and licenses" },
  { to: "/", label: "Browse Library", description: "Every animation in the catalogue" },
] as const;

export default function Dashboard({ loaderData: { user, stats, now } }: Route.ComponentProps) {
  const today = new Date(now);
  return (
    <main className="mx-auto max-w-7xl px-4 py-10">
      <h1 className="text-3xl font-bold">Dashboard</h1>

      <section
        aria-labelledby="profile-card"
        className="mt-6 flex flex-wrap items-start justify-between gap-4 rounded-2xl border border-slate-200 bg-white p-6 shadow-sm"
      >
        <div>
          <h2 id="profile-card" className="text-lg font-semibold">
            {user.firstName} {user.lastName}
          </h2>
          <p className="text-slate-600">@{user.username}</p>
          <p className="text-slate-600">{user.email}</p>
          <div className="mt-2">
            <AccountStatusBadges accountType={user.accountType} isEmailVerified={user.isEmailVerified} />
          </div>
        </div>
        <div className="flex flex-wrap gap-2">
          <ButtonLink to="/profile" variant="secondary" size="sm">
            Edit Profile
          </ButtonLink>
          {user.accountType === "free" ? (
            <ButtonLink to="/premium" size="sm">
              Get Premium Access
            </ButtonLink>
          ) : null}
        </div>
      </section>

      <dl className="mt-6 grid gap-4 sm:grid-cols-3">
        <StatCard label="Total Spent" value={formatMoney(stats.totalSpent)} hint="Completed payments" />
        <StatCard label="Active Subscriptions" value={stats.activeSubscriptions} hint="Active and not yet expired" />
        <StatCard label="Licensed Animations" value={stats.licensedAnimations} hint="Individual and category licenses" />
      </dl>

      <Section
        id="recent-animations"
        title="Your Licensed Animations"
        className="mt-10"
        action={
          <TextLink to="/my-animations" className="text-sm">
            View all
          </TextLink>
        }
      >
        {stats.recentAnimations.length ? (
          <ul className="mt-4 grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
            {stats.recentAnimations.map((a) => (
              <LibraryCard key={a.id} animation={a} now={today} />
            ))}
          </ul>
        ) : (
          <EmptyState
            className="mt-4"
            title="No licensed animations yet"
            message={
              <>
                A license gives you download and commercial rights.{" "}
                {user.accountType === "premium" ? "Your premium access already streams every animation." : null}
              </>
            }
            action={
              <>
                <ButtonLink to="/" variant="secondary" size="sm">
                  Browse Library
                </ButtonLink>
                <ButtonLink to="/premium" size="sm">
                  Premium Plans
                </ButtonLink>
              </>
            }
          />
        )}
      </Section>

      <Section as="nav" id="quick-links" title="Quick Links" className="mt-10">
        <ul className="mt-4 grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
          {QUICK_LINKS.map((link) => (
            <li key={link.to}>
              <LinkCard to={link.to} title={link.label} description={link.description} />
            </li>
          ))}
        </ul>
      </Section>
    </main>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
