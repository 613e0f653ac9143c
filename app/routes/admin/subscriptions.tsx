import { AdminPage } from "~/components/admin/admin-page.tsx";
import { ConfirmButton, ConfirmPanel, type ConfirmStep } from "~/components/admin/confirm.tsx";
import { Badge, DataTable, LONG_VALUE } from "~/components/admin/data-table.tsx";
import { FilterForm, FilterSelect, Pager, SearchInput } from "~/components/admin/list-controls.tsx";
import { formatDate, formatMoney } from "~/lib/format.ts";
import { backToList, confirmTarget, runListAction } from "~/lib/list-query.server.ts";
import { requireAdmin } from "~/services/auth/guards.server.ts";
import { getAdminSubscription, listAdminSubscriptions, type AdminSubscriptionRow } from "~/services/commerce/subscription-admin.server.ts";
import { cancelSubscription, reactivateSubscription } from "~/services/commerce/subscriptions.server.ts";
import {
  SUBSCRIPTION_INTENTS,
  SUBSCRIPTION_STATUSES,
  SUBSCRIPTION_TYPES,
  SubscriptionListQuerySchema,
  type SubscriptionIntent,
} from "~/validation/admin-subscriptions.ts";
import { NOINDEX } from "~/lib/seo.ts";
import type { Route } from "./+types/subscriptions";

export const meta: Route.MetaFunction = () => [{ title: "Subscriptions | Admin" }, NOINDEX];

export async function loader({ url }: Route.LoaderArgs) {
  const query = SubscriptionListQuerySchema.parse(Object.fromEntries(url.searchParams));
  const list = await listAdminSubscriptions(query);
  const target = confirmTarget(url, SUBSCRIPTION_INTENTS);
  const row = target ? await getAdminSubscription(target.id) : null;
  return { ...list, query, confirm: row && target ? { row, intent: target.intent } : null };
}

export async function action({ request, url }: Route.ActionArgs) {
  const admin = await requireAdmin(request);
  return runListAction(request, backToList("/admin/subscriptions", url), {
    cancel: {
      failed: "Failed to cancel subscription",
      run: async (id) => {
        await cancelSubscription(admin, id);
        return { title: "Subscription Canceled", description: "Access ended at once; the payment provider's subscription was cancelled." };
      },
    },
    reactivate: {
      failed: "Failed to reactivate subscription",
      run: async (id) => ({
        title: "Subscription Reactivated",
        description: `Access is back until ${formatDate((await reactivateSubscription(admin, id)).endDate)}, with no extra charge.`,
      }),
    },
  });
}

function item(row: AdminSubscriptionRow) {
  if (row.type === "global") return "Premium (all animations)";
  return (row.type === "category" ? row.categoryName : row.animationTitle) ?? "Deleted";
}

function stepFor(row: AdminSubscriptionRow, intent: SubscriptionIntent): ConfirmStep {
  const what = `${item(row)} for ${row.userEmail}`;
  return intent === "cancel"
    ? {
        id: row.id,
        intent,
        title: "Cancel this subscription?",
        message: `${what}: access ends at once and the payment provider's subscription is cancelled. You can reactivate it until ${formatDate(row.endDate)}.`,
        confirmLabel: "Cancel Subscription",
        pendingText: "Canceling...",
      }
    : {
        id: row.id,
        intent,
        title: "Reactivate this subscription?",
        message: `${what}: access returns until ${formatDate(row.endDate)}, with no extra charge.`,
        confirmLabel: "Reactivate",
        pendingText: "Reactivating...",
        tone: "primary",
      };
}

const STATUS_TONES = { active: "green", canceled: "red", expired: "grey", pending: "yellow" } as const;
const label = (value: string) => value.charAt(0).toUpperCase() + value.slice(1);

export default function AdminSubscriptions({ loaderData }: Route.ComponentProps) {
  const { subscriptions, page, hasNext, query, confirm } = loaderData;
  return (
    <AdminPage title="Subscriptions" description="Premium subscriptions and licenses: cancel active ones, reactivate canceled ones.">
      {confirm ? <ConfirmPanel step={stepFor(confirm.row, confirm.intent)} /> : null}
      <FilterForm clearTo="/admin/subscriptions">
        <SearchInput defaultValue={query.search} placeholder="Member, category or animation" />
        <FilterSelect name="status" label="Status" value={query.status} options={SUBSCRIPTION_STATUSES.map((s) => ({ value: s, label: label(s) }))} />
        <FilterSelect name="type" label="Type" value={query.type} options={SUBSCRIPTION_TYPES.map((t) => ({ value: t, label: label(t) }))} />
      </FilterForm>
      <DataTable
        caption="Subscriptions, newest first"
        rows={subscriptions}
        rowKey={(row) => row.id}
        empty="No subscriptions found"
        columns={[
          {
            header: "User",
            cell: (row) => (
              <div>
                <p className="font-medium">
                  {row.firstName} {row.lastName}
                </p>
                <p className={`text-slate-600 ${LONG_VALUE}`}>{row.userEmail}</p>
              </div>
            ),
          },
          { header: "Type", cell: (row) => label(row.type) },
          { header: "Category or animation", cell: item },
          {
            header: "Status",
            cell: (row) => (
              <div>
                <Badge tone={STATUS_TONES[row.status]}>{label(row.status)}</Badge>
                {row.paymentRetryAt ? (
                  <p className="mt-1 text-xs text-red-800">Payment failed — we&apos;ll retry on {formatDate(row.paymentRetryAt)}</p>
                ) : row.endedAfterFailedPayments ? (
                  <p className="mt-1 text-xs text-red-800">ended after failed payments</p>
                ) : null}
              </div>
            ),
          },
          { header: "Price", cell: (row) => formatMoney(row.price), className: "text-right whitespace-nowrap" },
          { header: "Start", cell: (row) => formatDate(row.startDate), className: "whitespace-nowrap" },
          { header: "End", cell: (row) => formatDate(row.endDate), className: "whitespace-nowrap" },
          {
            header: "Actions",
            // Cancel for active rows, Reactivate for canceled rows, nothing else.
            cell: (row) =>
              row.status === "active" ? (
                <ConfirmButton step={stepFor(row, "cancel")}>Cancel</ConfirmButton>
              ) : row.status === "canceled" ? (
                <ConfirmButton step={stepFor(row, "reactivate")} className="font-medium text-brand-700 hover:underline">
                  Reactivate
                </ConfirmButton>
              ) : null,
          },
        ]}
      />
      <Pager page={page} hasNext={hasNext} />
    </AdminPage>
  );
}
