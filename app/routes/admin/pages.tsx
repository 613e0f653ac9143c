import { AdminPage } from "~/components/admin/admin-page.tsx";
import { ConfirmButton, ConfirmPanel, type ConfirmStep } from "~/components/admin/confirm.tsx";
import { Badge, DataTable } from "~/components/admin/data-table.tsx";
import { FilterForm, FilterSelect, Pager, SearchInput } from "~/components/admin/list-controls.tsx";
import { ButtonLink } from "~/components/ui/button.tsx";
import { StatCard } from "~/components/ui/stat-card.tsx";
import { TextLink } from "~/components/ui/text-link.tsx";
import { formatDate } from "~/lib/format.ts";
import { backToList, confirmTarget, runListAction } from "~/lib/list-query.server.ts";
import { requireAdmin } from "~/services/auth/guards.server.ts";
import { deletePage, getAdminPage, listAdminPages } from "~/services/admin/content-admin.server.ts";
import { PageListQuerySchema } from "~/validation/admin-content.ts";
import { PAGE_TYPES } from "~/validation/content.ts";
import { NOINDEX } from "~/lib/seo.ts";
import type { Route } from "./+types/pages";

export const meta: Route.MetaFunction = () => [{ title: "Pages | Admin" }, NOINDEX];

export async function loader({ url }: Route.LoaderArgs) {
  const query = PageListQuerySchema.parse(Object.fromEntries(url.searchParams));
  const target = confirmTarget(url, ["delete"]);
  const [list, confirm] = await Promise.all([listAdminPages(query), target ? getAdminPage(target.id) : null]);
  return { ...list, query, confirm: confirm && { id: confirm.id, title: confirm.title } };
}

export async function action({ request, url }: Route.ActionArgs) {
  const admin = await requireAdmin(request);
  return runListAction(request, backToList("/admin/pages", url), {
    delete: {
      failed: "Failed to delete page",
      run: async (id) => ({ title: "Page Deleted", description: `${(await deletePage(admin, id)).title} was deleted.` }),
    },
  });
}

const deleteStep = (page: { id: string; title: string }): ConfirmStep => ({
  id: page.id,
  intent: "delete",
  title: `Delete “${page.title}”?`,
  message: "Are you sure you want to delete this page?",
  confirmLabel: "Delete",
  pendingText: "Deleting...",
});

const TYPE_TONES = { legal: "blue", company: "green", other: "grey" } as const;
const label = (value: string) => value.charAt(0).toUpperCase() + value.slice(1);

export default function AdminPages({ loaderData }: Route.ComponentProps) {
  const { pages, page, hasNext, stats, query, confirm } = loaderData;
  return (
    <AdminPage title="Pages" description="Legal and company pages, published at /{slug}." actions={<ButtonLink to="/admin/pages/new">New Page</ButtonLink>}>
      {confirm ? <ConfirmPanel step={deleteStep(confirm)} /> : null}
      <dl className="grid gap-4 sm:grid-cols-2 xl:grid-cols-4">
        <StatCard label="Total Pages" value={stats.total} />
        <StatCard label="Published" value={stats.published} />
        <StatCard label="Legal" value={stats.legal} />
        <StatCard label="Company" value={stats.company} />
      </dl>
      <FilterForm clearTo="/admin/pages">
        <SearchInput defaultValue={query.search} placeholder="Title or slug" />
        <FilterSelect name="type" label="Type" value={query.type} options={PAGE_TYPES.map((t) => ({ value: t, label: label(t) }))} />
      </FilterForm>
      <DataTable
        caption="Pages, last modified first"
        rows={pages}
        rowKey={(p) => p.id}
        empty="No pages found"
        columns={[
          {
            header: "Page",
            cell: (p) => (
              <div>
                <p className="font-medium">{p.title}</p>
                <p className="text-slate-600">/{p.slug}</p>
              </div>
            ),
          },
          { header: "Type", cell: (p) => <Badge tone={TYPE_TONES[p.type]}>{label(p.type)}</Badge> },
          { header: "Status", cell: (p) => <Badge tone={p.isPublished ? "green" : "yellow"}>{p.isPublished ? "Published" : "Draft"}</Badge> },
          { header: "Last Modified", cell: (p) => formatDate(p.updatedAt), className: "whitespace-nowrap" },
          {
            header: "Actions",
            cell: (p) => (
              <div className="flex gap-3">
                <a href={`/pages/${p.slug}`} target="_blank" rel="noopener noreferrer" className="font-medium text-brand-700 hover:underline">
                  View<span className="sr-only"> {p.title} (opens in a new tab)</span>
                </a>
                <TextLink to={`/admin/pages/${p.id}`}>Edit</TextLink>
                <ConfirmButton step={deleteStep(p)}>Delete</ConfirmButton>
              </div>
            ),
          },
        ]}
      />
      <Pager page={page} hasNext={hasNext} />
    </AdminPage>
  );
}
