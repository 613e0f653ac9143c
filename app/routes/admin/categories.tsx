import { AdminPage } from "~/components/admin/admin-page.tsx";
import { ConfirmButton, ConfirmPanel, type ConfirmStep } from "~/components/admin/confirm.tsx";
import { ActiveBadge, DataTable } from "~/components/admin/data-table.tsx";
import { FilterForm, Pager, SearchInput, TabLinks } from "~/components/admin/list-controls.tsx";
import { ButtonLink } from "~/components/ui/button.tsx";
import { StatCard } from "~/components/ui/stat-card.tsx";
import { TextLink } from "~/components/ui/text-link.tsx";
import { formatMoney } from "~/lib/format.ts";
import { backToList, confirmTarget, runListAction } from "~/lib/list-query.server.ts";
import { requireAdmin } from "~/services/auth/guards.server.ts";
import { deleteCategory, getAdminCategory, listAdminCategories, type AdminCategory } from "~/services/catalogue/category-admin.server.ts";
import { AdminListQuerySchema } from "~/validation/admin-catalogue.ts";
import { NOINDEX } from "~/lib/seo.ts";
import type { Route } from "./+types/categories";

export const meta: Route.MetaFunction = () => [{ title: "Categories | Admin" }, NOINDEX];

export async function loader({ url }: Route.LoaderArgs) {
  const query = AdminListQuerySchema.parse(Object.fromEntries(url.searchParams));
  const tab = url.searchParams.get("tab") === "sub" ? ("sub" as const) : ("main" as const);
  const target = confirmTarget(url, ["delete"]);
  const [list, confirm] = await Promise.all([listAdminCategories({ tab, ...query }), target ? getAdminCategory(target.id) : null]);
  return { ...list, tab, query, confirm };
}

export async function action({ request, url }: Route.ActionArgs) {
  const admin = await requireAdmin(request);
  return runListAction(request, backToList("/admin/categories", url), {
    delete: {
      failed: "Failed to delete category",
      run: async (id) => ({ title: "Category Deleted", description: `${(await deleteCategory(admin, id)).name} was deleted.` }),
    },
  });
}

function deleteStep(category: Pick<AdminCategory, "id" | "name" | "totalAnimations" | "subcategoryCount">): ConfirmStep {
  const animations = category.totalAnimations;
  return {
    id: category.id,
    intent: "delete",
    title: `Delete ${category.name}?`,
    message: (
      <>
        <p>Are you sure you want to delete this category?</p>
        <p className="mt-1">
          {category.subcategoryCount > 0
            ? `It has ${category.subcategoryCount} sub-categor${category.subcategoryCount === 1 ? "y" : "ies"}: delete or move them first.`
            : animations > 0
              ? `Its ${animations} associated animation${animations === 1 ? " is" : "s are"} affected: they stay in the library without a category.`
              : "No animation is associated with it."}
        </p>
      </>
    ),
    confirmLabel: "Delete",
    pendingText: "Deleting...",
  };
}

export default function AdminCategories({ loaderData }: Route.ComponentProps) {
  const { categories, page, hasNext, tab, counts, averageSubPrice, query, confirm } = loaderData;
  const sub = tab === "sub";
  return (
    <AdminPage
      title="Categories"
      description="Main categories group the library; sub-categories are sold as yearly category licenses."
      actions={<ButtonLink to={`/admin/categories/new?type=${tab}`}>{sub ? "New Sub-category" : "New Main Category"}</ButtonLink>}
    >
      {confirm ? <ConfirmPanel step={deleteStep(confirm)} /> : null}
      <dl className="grid gap-4 sm:grid-cols-3">
        <StatCard label="Main categories" value={counts.main} />
        <StatCard label="Sub-categories" value={counts.sub} />
        <StatCard label="Average price" value={averageSubPrice === null ? "—" : formatMoney(averageSubPrice)} hint="Mean yearly price of the sub-categories" />
      </dl>
      <TabLinks
        label="Category level"
        tabs={[
          { to: "/admin/categories", label: `Main (${counts.main})`, current: !sub },
          { to: "/admin/categories?tab=sub", label: `Sub (${counts.sub})`, current: sub },
        ]}
      />
      <FilterForm clearTo={sub ? "/admin/categories?tab=sub" : "/admin/categories"}>
        {sub ? <input type="hidden" name="tab" value="sub" /> : null}
        <SearchInput defaultValue={query.search} placeholder="Name or slug" />
      </FilterForm>
      <DataTable
        caption={sub ? "Sub-categories" : "Main categories"}
        rows={categories}
        rowKey={(category) => category.id}
        empty="No categories found"
        columns={[
          {
            header: "Category",
            cell: (c) => (
              <div>
                <p className="font-medium">{c.name}</p>
                <p className="text-slate-600">/{c.slug}</p>
              </div>
            ),
          },
          ...(sub
            ? [
                { header: "Main category", cell: (c: AdminCategory) => c.parentName ?? "—" },
                { header: "Yearly price", cell: (c: AdminCategory) => (c.yearlyPrice === null ? "—" : formatMoney(c.yearlyPrice)), className: "text-right" },
              ]
            : [{ header: "Sub-categories", cell: (c: AdminCategory) => c.subcategoryCount, className: "text-right" }]),
          { header: "Animations", cell: (c) => c.totalAnimations, className: "text-right" },
          { header: "Status", cell: (c) => <ActiveBadge active={c.isActive} /> },
          {
            header: "Actions",
            cell: (c) => (
              <div className="flex gap-3">
                <TextLink to={`/admin/categories/${c.id}`}>Edit</TextLink>
                <ConfirmButton step={deleteStep(c)}>Delete</ConfirmButton>
              </div>
            ),
          },
        ]}
      />
      <Pager page={page} hasNext={hasNext} />
    </AdminPage>
  );
}
