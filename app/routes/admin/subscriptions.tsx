import { AdminPage } from "~/components/admin/admin-page.tsx";
import { ConfirmButton, ConfirmPanel, type ConfirmStep } from "~/components/admin/confirm.tsx";
import { Badge, DataTable } from "~/components/admin/data-table.tsx";
import { FilterForm, FilterSelect, Pager, SearchInput } from "~/components/admin/list-controls.tsx";
import { ServiceError } from "~/lib/errors.server.ts";
import { formatDate, formatMoney } from "~/lib/format.ts";
import { redirectWithToast } from "~/lib/toast.server.ts";
import { requireAdmin } from "~/services/auth/guards.server.ts";
import { getAdminSubscription, listAdminSubscriptions, type AdminSubscriptionRow } from "~/services/subscription-admin.server.ts";
import { cancelSubscription, reactivateSubscription } from "~/services/subscriptions.server.ts";
import {
  SUBSCRIPTION_INTENTS,
  SUBSCRIPTION_STATUSES,
  SUBSCRIPTION_TYPES,
  SubscriptionListQuerySchema,
  type SubscriptionIntent,
} from "~/validation/admin-subscriptions.ts";
import type { Route } from "./+types/subscriptions";

export const meta: Route.MetaFunction = () => [{ title: "Subscriptions | Admin" }];

function isIntent(value: string | null): value is SubscriptionIntent {
  return (SUBSCRIPTION_INTENTS as readonly string[]).includes(value ?? "");
}

export async function loader({ url }: Route.LoaderArgs) {
  const query = SubscriptionListQuerySchema.parse(Object.fromEntries(url.searchParams));
  const list = await listAdminSubscriptions(query);
  const intent = url.searchParams.get("intent");
  const confirmId = url.searchParams.get("confirm");
  const target = confirmId && isIntent(intent) ? await getAdminSubscription(confirmId) : null;
  return { ...list, query, confirm: target && isIntent(intent) ? { row: target, intent } : null };
}

export async function action({ request, url }: Route.ActionArgs) {
  const admin = await requireAdmin(request);
  const form = await request.formData();
  const intent = String(form.get("intent") ?? "");
  const id = String(form.get("id") ?? "");
  const params = new URLSearchParams(url.searchParams);
  for (const key of ["confirm", "intent", "index"]) params.delete(key);
  const back = `/admin/subscriptions${params.size ? `?${params}` : ""}`;
  const actor = { id: admin.id, email: admin.email };
  try {
    if (intent === "cancel") {
      await cancelSubscription(actor, id);
      return redirectWithToast(back, { title: "Subscription Canceled", description: "Access ended at once; the payment provider's subscription was cancelled." });
    }
    if (intent === "reactivate") {
      const row = await reactivateSubscription(actor, id);
      return redirectWithToast(back, { title: "Subscription Reactivated", description: `Access is back until ${formatDate(row.endDate)}, with no extra charge.` });
    }
    return redirectWithToast(back, { title: "Failed to update subscription", description: "Unknown action", type: "error" });
  } catch (error) {
    if (!(error instanceof ServiceError)) throw error;
    const title = intent === "cancel" ? "Failed to cancel subscription" : "Failed to reactivate subscription";
    return redirectWithToast(back, { title, description: error.message, type: "error" });
  }
}

function item(row: AdminSubscriptionRow) {
  if (row.type === "global") return "Premium (all animations)";
  return (row.type === "category" ? row.categoryName : row.animationTitle) ?? "Deleted";
}

function stepFor(row: AdminSubscriptionRow, intent: SubscriptionIntent): ConfirmStep {
  const what = `${item(row)} for ${row.userEmail}`;
  return intent === "cancel"
    ? { id: row.id, intent, title: "Cancel this subscription?", message: `${what}: access ends at once and the payment provider's subscription is cancelled. You can reactivate it until ${formatDate(row.endDate)}.`, confirmLabel: "Cancel Subscription", pendingText: "Canceling..." }
    : { id: row.id, intent, title: "Reactivate this subscription?", message: `${what}: access returns until ${formatDate(row.endDate)}, with no extra charge.`, confirmLabel: "Reactivate", pendingText: "Reactivating...", tone: "primary" };
}

const STATUS_TONES = { active: "green", canceled: "red", expired: "grey", pending: "yellow" } as const;
const label = (value: string) => value.charAt(0).toUpperCase() + value.slice(1);

export default function AdminSubscriptions({ loaderData }: Route.ComponentProps) {
  const { subscriptions, page, hasNext, query, confirm } = loaderData;
  return (
    <AdminPage title="Subscriptions" description="Premium subscriptions and licences: cancel active ones, reactivate canceled ones.">
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
          { header: "User", cell: (row) => (<div><p className="font-medium">{row.firstName} {row.lastName}</p><p className="text-slate-600">{row.userEmail}</p></div>) },
          { header: "Type", cell: (row) => label(row.type) },
          { header: "Category or animation", cell: item },
          { header: "Status", cell: (row) => <Badge tone={STATUS_TONES[row.status]}>{label(row.status)}</Badge> },
          { header: "Price", cell: (row) => formatMoney(row.price), className: "text-right whitespace-nowrap" },
          { header: "Start", cell: (row) => formatDate(row.startDate), className: "whitespace-nowrap" },
          { header: "End", cell: (row) => formatDate(row.endDate), className: "whitespace-nowrap" },
          {
            header: "Actions",
            // Spec section 4: Cancel for active rows, Reactivate for canceled rows, nothing else.
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
