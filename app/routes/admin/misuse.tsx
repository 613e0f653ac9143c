import { AdminPage } from "~/components/admin/admin-page.tsx";
import { DataTable } from "~/components/admin/data-table.tsx";
import { FilterForm, FilterSelect, Pager } from "~/components/admin/list-controls.tsx";
import { MisuseStatusBadge } from "~/components/admin/misuse-status.tsx";
import { TextLink } from "~/components/ui/text-link.tsx";
import { formatDateTime } from "~/lib/format.ts";
import { NOINDEX } from "~/lib/seo.ts";
import { listMisuseReports } from "~/services/admin/misuse-reports.server.ts";
import { MISUSE_STATUS_LABELS, MISUSE_STATUSES, MisuseListQuerySchema } from "~/validation/admin-misuse.ts";
import type { Route } from "./+types/misuse";

// /admin/misuse: the misuse inbox (decision 033). Reports newest first, filtered by state and by
// link through the URL (a GET form and links, so the same without JavaScript); each report's
// page holds its history, the state change and the reply.

export const meta: Route.MetaFunction = () => [{ title: "Misuse Reports | Admin" }, NOINDEX];

export async function loader({ url }: Route.LoaderArgs) {
  const query = MisuseListQuerySchema.parse(Object.fromEntries(url.searchParams));
  return { ...(await listMisuseReports(query)), query };
}

export default function AdminMisuse({ loaderData }: Route.ComponentProps) {
  const { reports, total, page, limit, query } = loaderData;
  const totalPages = Math.max(1, Math.ceil(total / limit));
  return (
    <AdminPage
      title="Misuse Reports"
      description="Reports of animations used without a license, from the animation pages and the API: investigate them, answer the reporter, close them."
    >
      <FilterForm clearTo="/admin/misuse">
        <FilterSelect name="status" label="State" value={query.status} options={MISUSE_STATUSES.map((s) => ({ value: s, label: MISUSE_STATUS_LABELS[s] }))} />
        {query.link ? <input type="hidden" name="link" value={query.link} /> : null}
      </FilterForm>
      {query.link ? (
        <p className="text-sm text-slate-700" data-testid="misuse-link-group">
          Reports of the link <strong className="break-all">{query.link}</strong> ({total}).{" "}
          <TextLink to={query.status ? `/admin/misuse?status=${query.status}` : "/admin/misuse"}>Show every link</TextLink>
        </p>
      ) : null}
      <DataTable
        caption={`Misuse reports, newest first (${total})`}
        rows={reports}
        rowKey={(row) => row.id}
        empty="No misuse reports found"
        columns={[
          {
            header: "Animation",
            cell: (row) =>
              row.animationSlug ? (
                <TextLink to={`/animations/${encodeURIComponent(row.animationSlug)}`}>{row.animationTitle}</TextLink>
              ) : (
                <span className="text-slate-600">{row.animationTitle ?? "(none)"}</span>
              ),
          },
          {
            header: "Reported link",
            cell: (row) =>
              row.link ? (
                <div className="max-w-xs">
                  {/* The reporter's address: not ours, so no referrer and no credit to it. */}
                  <a href={row.link} rel="noopener noreferrer nofollow" className="break-all text-brand-700 underline">
                    {row.link}
                  </a>
                  {row.sameLinkCount > 1 && !query.link ? (
                    <p className="mt-1 text-xs">
                      <TextLink
                        to={`/admin/misuse?link=${encodeURIComponent(row.linkKey ?? row.link)}`}
                      >{`${row.sameLinkCount} reports of this link`}</TextLink>
                    </p>
                  ) : null}
                </div>
              ) : (
                <span className="text-slate-500">(none)</span>
              ),
          },
          { header: "Reporter", cell: (row) => <span className="break-all">{row.reporterEmail}</span> },
          { header: "Date", cell: (row) => formatDateTime(row.createdAt), className: "whitespace-nowrap" },
          { header: "State", cell: (row) => <MisuseStatusBadge status={row.status} /> },
          {
            header: "Actions",
            cell: (row) => (
              <TextLink to={`/admin/misuse/${row.id}`} aria-label={`Open the report by ${row.reporterEmail}`}>
                Open
              </TextLink>
            ),
          },
        ]}
      />
      <Pager page={page} hasNext={page < totalPages} totalPages={totalPages} />
    </AdminPage>
  );
}
