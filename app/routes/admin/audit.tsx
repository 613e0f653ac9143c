import { z } from "zod";
import { AdminPage } from "~/components/admin/admin-page.tsx";
import { Badge, DataTable, LONG_VALUE } from "~/components/admin/data-table.tsx";
import { FilterForm, FilterSelect, Pager, SearchInput } from "~/components/admin/list-controls.tsx";
import { formatDateTime } from "~/lib/format.ts";
import { listAuditLog } from "~/services/admin/audit.server.ts";
import { AUDIT_ENTITY_TYPES } from "~/validation/audit.ts";
import { ACTOR_ROLE_LABELS } from "~/validation/audit-actor.ts";
import { NOINDEX } from "~/lib/seo.ts";
import type { Route } from "./+types/audit";

const DAY = /^\d{4}-\d{2}-\d{2}$/;
const AuditQuery = z.object({
  entityType: z.enum(AUDIT_ENTITY_TYPES).optional().catch(undefined),
  actor: z.string().trim().max(200).optional().catch(undefined),
  search: z.string().trim().max(200).optional().catch(undefined),
  from: z.string().regex(DAY).optional().catch(undefined),
  to: z.string().regex(DAY).optional().catch(undefined),
  page: z.coerce.number().int().min(1).max(10_000).optional().catch(undefined),
});

export async function loader({ url }: Route.LoaderArgs) {
  const filter = AuditQuery.parse(Object.fromEntries(url.searchParams));
  return { filter, ...(await listAuditLog(filter)) };
}

export const meta: Route.MetaFunction = () => [{ title: "Audit Log | Admin" }, NOINDEX];

const ENTITY_LABELS = AUDIT_ENTITY_TYPES.map((type) => ({ value: type, label: type.replace("_", " ") }));

export default function AuditLogScreen({ loaderData }: Route.ComponentProps) {
  const { filter, entries, page, hasNext } = loaderData;
  return (
    <AdminPage
      title="Audit Log"
      description="Every change made in the back office, and members' own security and practice changes: who (and in what role), what, when. Entries cannot be edited or deleted."
    >
      <FilterForm clearTo="/admin/audit">
        <SearchInput label="Search" defaultValue={filter.search} placeholder="Summary or record id" />
        <SearchInput name="actor" label="Actor" defaultValue={filter.actor} placeholder="E-mail" />
        <FilterSelect name="entityType" label="Record" value={filter.entityType} options={ENTITY_LABELS} />
        <label className="flex flex-col gap-1 text-sm font-medium text-slate-700">
          From
          <input type="date" name="from" defaultValue={filter.from} className="rounded-lg border border-slate-300 px-3 py-2 font-normal" />
        </label>
        <label className="flex flex-col gap-1 text-sm font-medium text-slate-700">
          To
          <input type="date" name="to" defaultValue={filter.to} className="rounded-lg border border-slate-300 px-3 py-2 font-normal" />
        </label>
      </FilterForm>
      <DataTable
        caption="Audit log entries, newest first"
        rows={entries}
        rowKey={(entry) => entry.id}
        empty="No audit entries found"
        columns={[
          {
            header: "When",
            cell: (entry) => <time dateTime={new Date(entry.createdAt).toISOString()}>{formatDateTime(entry.createdAt)}</time>,
            className: "whitespace-nowrap",
          },
          {
            header: "Actor",
            cell: (entry) => (
              <div>
                <p className={LONG_VALUE}>{entry.actorEmail}</p>
                {entry.actorRole ? (
                  <p className="mt-1 text-xs text-slate-600">
                    <Badge tone={entry.actorRole === "admin" ? "blue" : "grey"}>{ACTOR_ROLE_LABELS[entry.actorRole]}</Badge>
                    {entry.roleNow ? <span title="This entry predates recorded roles: the account's role now"> (role now)</span> : null}
                  </p>
                ) : null}
              </div>
            ),
          },
          { header: "Action", cell: (entry) => <code className="text-xs">{entry.action}</code> },
          { header: "Summary", cell: (entry) => <AuditSummary summary={entry.summary} entityId={entry.entityId} changes={entry.changes} /> },
        ]}
      />
      <Pager page={page} hasNext={hasNext} />
    </AdminPage>
  );
}

function AuditSummary({ summary, entityId, changes }: { summary: string; entityId: string | null; changes: unknown }) {
  const fields = changes && typeof changes === "object" ? Object.entries(changes as Record<string, [unknown, unknown]>) : [];
  return (
    <div>
      <p>{summary}</p>
      {entityId ? <p className="text-xs text-slate-500">Record {entityId}</p> : null}
      {fields.length > 0 ? (
        <details className="mt-1 text-xs">
          <summary className="cursor-pointer text-slate-600">
            {fields.length} field{fields.length === 1 ? "" : "s"} changed
          </summary>
          <dl className="mt-1 grid grid-cols-[auto_1fr] gap-x-3 gap-y-1">
            {fields.map(([field, [was, is]]) => (
              <div key={field} className="contents">
                <dt className="font-medium">{field}</dt>
                <dd className="break-all text-slate-600">
                  {show(was)} → {show(is)}
                </dd>
              </div>
            ))}
          </dl>
        </details>
      ) : null}
    </div>
  );
}

function show(value: unknown) {
  if (value === null || value === undefined || value === "") return "—";
  return typeof value === "string" ? value : JSON.stringify(value);
}
