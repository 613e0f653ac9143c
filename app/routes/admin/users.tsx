import { Link } from "~/components/ui/link.tsx";
import { AdminPage } from "~/components/admin/admin-page.tsx";
import { ConfirmButton, ConfirmPanel, type ConfirmStep } from "~/components/admin/confirm.tsx";
import { Badge, DataTable, LONG_VALUE } from "~/components/admin/data-table.tsx";
import { FilterForm, Pager, SearchInput } from "~/components/admin/list-controls.tsx";
import { formatDate } from "~/lib/format.ts";
import { backToList, confirmTarget, runListAction, type ListIntent } from "~/lib/list-query.server.ts";
import { requireAdmin } from "~/services/auth/guards.server.ts";
import { requireAdminStepUp } from "~/services/auth/step-up.server.ts";
import { getAdminUser, listUsers, setUserBlocked, setUserRole } from "~/services/admin/user-admin.server.ts";
import { USER_INTENTS, UserListQuerySchema, userStatus, type UserIntent } from "~/validation/admin-users.ts";
import { NOINDEX } from "~/lib/seo.ts";
import { practicesOf } from "~/services/practices/practices.server.ts";
import { ROLE_LABEL } from "~/validation/practices.ts";
import type { Route } from "./+types/users";

export const meta: Route.MetaFunction = () => [{ title: "Users | Admin" }, NOINDEX];

export async function loader({ request, url }: Route.LoaderArgs) {
  const admin = await requireAdmin(request);
  const query = UserListQuerySchema.parse(Object.fromEntries(url.searchParams));
  const list = await listUsers(query, { withTotal: false });
  const target = confirmTarget(url, USER_INTENTS);
  const [user, practices] = await Promise.all([target ? getAdminUser(target.id) : null, practicesOf(list.users.map((u) => u.id))]);
  return {
    ...list,
    users: list.users.map((u) => ({ ...u, practice: practices.get(u.id) ?? null })),
    search: query.search ?? "",
    selfId: admin.id,
    confirm: user && target ? { user, intent: target.intent } : null,
  };
}

// Failure toasts: "Failed to update user", "Failed to block user", "Failed to unblock user".
const OUTCOMES: Record<UserIntent, { done: string; failed: string }> = {
  promote: { done: "User Promoted", failed: "Failed to update user" },
  demote: { done: "User Demoted", failed: "Failed to update user" },
  block: { done: "User Blocked", failed: "Failed to block user" },
  unblock: { done: "User Unblocked", failed: "Failed to unblock user" },
};

export async function action({ request, url }: Route.ActionArgs) {
  // Every intent here changes a role or blocks: each needs a recent second factor.
  const admin = await requireAdminStepUp(request);
  const outcome = (intent: UserIntent, change: (id: string) => Promise<{ username: string; email: string }>): ListIntent => ({
    failed: OUTCOMES[intent].failed,
    run: async (id) => {
      const user = await change(id);
      return { title: OUTCOMES[intent].done, description: `${user.username} (${user.email})` };
    },
  });
  return runListAction(request, backToList("/admin/users", url), {
    promote: outcome("promote", (id) => setUserRole(admin, id, "admin")),
    demote: outcome("demote", (id) => setUserRole(admin, id, "user")),
    block: outcome("block", (id) => setUserBlocked(admin, id, true)),
    unblock: outcome("unblock", (id) => setUserBlocked(admin, id, false)),
  });
}

type Row = Route.ComponentProps["loaderData"]["users"][number];

function stepFor(user: Pick<Row, "id" | "username" | "email">, intent: UserIntent): ConfirmStep {
  const who = `${user.username} (${user.email})`;
  const steps: Record<UserIntent, Omit<ConfirmStep, "id" | "intent">> = {
    promote: {
      title: "Promote to admin?",
      message: `${who} will be able to manage the whole platform.`,
      confirmLabel: "Promote",
      pendingText: "Promoting...",
      tone: "primary",
    },
    demote: { title: "Demote to user?", message: `${who} will lose access to the back office.`, confirmLabel: "Demote", pendingText: "Demoting..." },
    block: {
      title: "Block this user?",
      message: `${who} will be signed out everywhere at once and cannot sign in until unblocked.`,
      confirmLabel: "Block",
      pendingText: "Blocking...",
    },
    unblock: {
      title: "Unblock this user?",
      message: `${who} will be able to sign in again.`,
      confirmLabel: "Unblock",
      pendingText: "Unblocking...",
      tone: "primary",
    },
  };
  return { id: user.id, intent, ...steps[intent] };
}

const STATUS_TONES = { Blocked: "red", Unverified: "yellow", Active: "green" } as const;

export default function AdminUsers({ loaderData }: Route.ComponentProps) {
  const { users, page, hasNext, search, selfId, confirm } = loaderData;
  return (
    <AdminPage title="Users" description="Members and admins: roles, account types and access.">
      {confirm ? <ConfirmPanel step={stepFor(confirm.user, confirm.intent)} /> : null}
      <FilterForm clearTo="/admin/users">
        <SearchInput defaultValue={search} placeholder="Name, username or e-mail" />
      </FilterForm>
      <DataTable
        caption="Users, newest first"
        rows={users}
        rowKey={(user) => user.id}
        empty="No users found"
        columns={[
          {
            header: "User",
            cell: (user) => (
              <div>
                <p className="font-medium">
                  {user.firstName} {user.lastName}
                  {user.id === selfId ? <span className="ml-2 text-xs text-slate-500">(you)</span> : null}
                </p>
                <p className="text-slate-600">@{user.username}</p>
                <p className={`text-slate-600 ${LONG_VALUE}`}>{user.email}</p>
              </div>
            ),
          },
          { header: "Role", cell: (user) => <Badge tone={user.role === "admin" ? "blue" : "grey"}>{user.role}</Badge> },
          {
            header: "Practice",
            cell: (user) =>
              user.practice ? (
                <Link to={`/admin/practices?search=${encodeURIComponent(user.email)}`} className="font-medium text-brand-700 hover:underline">
                  {user.practice.name}
                  <span className="block text-xs font-normal text-slate-600">{ROLE_LABEL[user.practice.role]}</span>
                </Link>
              ) : (
                <span className="text-slate-500">—</span>
              ),
          },
          { header: "Account", cell: (user) => <Badge tone={user.accountType === "premium" ? "yellow" : "grey"}>{user.accountType}</Badge> },
          {
            header: "Status",
            cell: (user) => {
              const status = userStatus(user);
              return <Badge tone={STATUS_TONES[status]}>{status}</Badge>;
            },
          },
          { header: "Joined", cell: (user) => formatDate(user.createdAt), className: "whitespace-nowrap" },
          { header: "Actions", cell: (user) => <UserActions user={user} self={user.id === selfId} /> },
        ]}
      />
      <Pager page={page} hasNext={hasNext} />
    </AdminPage>
  );
}

function UserActions({ user, self }: { user: Row; self: boolean }) {
  const link = "font-medium text-brand-700 hover:underline";
  return (
    <ul className="flex flex-col gap-1 text-sm">
      {/* An admin cannot demote or block their own account (docs/architecture.md). */}
      {user.role === "user" ? (
        <li>
          <ConfirmButton step={stepFor(user, "promote")} className={link}>
            Promote to admin
          </ConfirmButton>
        </li>
      ) : self ? null : (
        <li>
          <ConfirmButton step={stepFor(user, "demote")}>Demote to user</ConfirmButton>
        </li>
      )}
      {self ? null : user.isActive ? (
        <li>
          <ConfirmButton step={stepFor(user, "block")}>Block</ConfirmButton>
        </li>
      ) : (
        <li>
          <ConfirmButton step={stepFor(user, "unblock")} className={link}>
            Unblock
          </ConfirmButton>
        </li>
      )}
      <li>
        <Link to={`/admin/users/${user.id}/email`} className={link}>
          Send Email
        </Link>
      </li>
    </ul>
  );
}
