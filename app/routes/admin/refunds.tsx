import { AdminPage } from "~/components/admin/admin-page.tsx";
import { Badge, DataTable, LONG_VALUE } from "~/components/admin/data-table.tsx";
import { FilterForm, FilterSelect, Pager, SearchInput } from "~/components/admin/list-controls.tsx";
import { StatCard } from "~/components/ui/stat-card.tsx";
import { TextLink } from "~/components/ui/text-link.tsx";
import { formatCount, formatDate, formatMoney } from "~/lib/format.ts";
import { listRefundRequests, refundStats } from "~/services/commerce/refund-admin.server.ts";
import { REFUND_REASONS } from "~/validation/account.ts";
import { REFUND_STATUSES, RefundListQuerySchema } from "~/validation/admin-refunds.ts";
import { NOINDEX } from "~/lib/seo.ts";
import type { Route } from "./+types/refunds";

export const meta: Route.MetaFunction = () => [{ title: "Refunds | Admin" }, NOINDEX];

export async function loader({ url }: Route.LoaderArgs) {
  const query = RefundListQuerySchema.parse(Object.fromEntries(url.searchParams));
  const [list, stats] = await Promise.all([listRefundRequests(query), refundStats()]);
  return { ...list, stats, query };
}

const STATUS_TONES = { pending: "yellow", approved: "blue", rejected: "red", processed: "green" } as const;
const label = (value: string) => value.charAt(0).toUpperCase() + value.slice(1);
const reasonLabel = (value: string) => REFUND_REASONS.find((r) => r.value === value)?.label ?? value;

export default function AdminRefunds({ loaderData }: Route.ComponentProps) {
  const { requests, page, hasNext, stats, query } = loaderData;
  return (
    <AdminPage title="Refunds" description="Members' refund requests: approve or reject pending ones with notes.">
      <dl className="grid gap-4 sm:grid-cols-2 xl:grid-cols-4">
        <StatCard label="Total Requests" value={formatCount(stats.total)} />
        <StatCard label="Pending" value={formatCount(stats.pending)} />
        <StatCard label="Approved" value={formatCount(stats.approved)} hint="including processed" />
        <StatCard label="Rejected" value={formatCount(stats.rejected)} />
      </dl>
      <FilterForm clearTo="/admin/refunds">
        <SearchInput defaultValue={query.search} placeholder="User name, e-mail or reason" />
        <FilterSelect name="status" label="Status" value={query.status} options={REFUND_STATUSES.map((s) => ({ value: s, label: label(s) }))} />
      </FilterForm>
      <DataTable
        caption="Refund requests, newest first"
        rows={requests}
        rowKey={(row) => row.id}
        empty="No refund requests found"
        columns={[
          {
            header: "User",
            cell: (row) => (
              <div>
                <p className="font-medium">{row.userName}</p>
                <p className={`text-slate-600 ${LONG_VALUE}`}>{row.userEmail}</p>
              </div>
            ),
          },
          {
            header: "Payment",
            cell: (row) => (
              <div>
                <p className="font-medium">{formatMoney(row.paymentAmount)}</p>
                <p className="text-slate-600">{row.paymentDescription}</p>
              </div>
            ),
          },
          { header: "Reason", cell: (row) => reasonLabel(row.reason) },
          {
            header: "Status",
            cell: (row) => (
              <div>
                <Badge tone={STATUS_TONES[row.status]}>{label(row.status)}</Badge>
                {row.adminNotes ? <p className="mt-1 max-w-xs text-xs text-slate-600">{row.adminNotes}</p> : null}
              </div>
            ),
          },
          { header: "Date", cell: (row) => formatDate(row.createdAt), className: "whitespace-nowrap" },
          {
            header: "Actions",
            // Only pending rows offer Approve and Reject.
            cell: (row) =>
              row.status === "pending" ? (
                <div className="flex flex-col gap-1">
                  <TextLink to={`/admin/refunds/${row.id}?decision=approve`}>Approve</TextLink>
                  <TextLink to={`/admin/refunds/${row.id}?decision=reject`}>Reject</TextLink>
                </div>
              ) : null,
          },
        ]}
      />
      <Pager page={page} hasNext={hasNext} />
    </AdminPage>
  );
}
