import { AdminPage } from "~/components/admin/admin-page.tsx";
import { Badge, DataTable, LONG_VALUE } from "~/components/admin/data-table.tsx";
import { FilterForm, Pager, SearchInput } from "~/components/admin/list-controls.tsx";
import { TextLink } from "~/components/ui/text-link.tsx";
import { formatDate } from "~/lib/format.ts";
import { NOINDEX } from "~/lib/seo.ts";
import { requireAdmin } from "~/services/auth/guards.server.ts";
import { invoiceCode } from "~/services/commerce/invoices.server.ts";
import { listPracticesForAdmin } from "~/services/practices/practices.server.ts";
import { ROLE_LABEL } from "~/validation/practices.ts";
import type { Route } from "./+types/practices";

// /admin/practices (decision 030): the clinics that buy as practices, newest first, searched by
// name, tax id or a member's e-mail, each with its members, its active licences and its latest
// invoices. Read-only: a practice is run by its owners.

export const meta: Route.MetaFunction = () => [{ title: "Practices | Admin" }, NOINDEX];

export async function loader({ request, url }: Route.LoaderArgs) {
  await requireAdmin(request);
  const search = url.searchParams.get("search")?.slice(0, 200) ?? "";
  const page = Math.min(10_000, Math.max(1, Number.parseInt(url.searchParams.get("page") ?? "1", 10) || 1));
  const { practices, hasNext } = await listPracticesForAdmin({ q: search, page });
  return {
    search,
    page,
    hasNext,
    practices: practices.map((p) => ({
      ...p,
      invoices: p.invoices.map((i) => ({
        id: i.id,
        code: invoiceCode(i),
        kind: i.kind,
        total: Number(i.totalAmount),
        currency: i.currency.toUpperCase(),
        issuedAt: i.issuedAt,
      })),
    })),
  };
}

const LICENCE_LABEL = { individual: "Individual", category: "Category", global: "Premium" } as const;

export default function AdminPractices({ loaderData }: Route.ComponentProps) {
  const { practices, page, hasNext, search } = loaderData;
  return (
    <AdminPage title="Practices" description="Clinics that buy as practices: their members, licenses and invoices.">
      <FilterForm clearTo="/admin/practices">
        <SearchInput defaultValue={search} placeholder="Name, tax ID or a member's e-mail" />
      </FilterForm>
      <DataTable
        caption="Practices, newest first"
        rows={practices}
        rowKey={(p) => p.id}
        empty="No practices found"
        columns={[
          {
            header: "Practice",
            cell: (p) => (
              <div>
                <p className="font-medium">{p.legalName}</p>
                <p className="text-slate-600">{[p.country, p.taxId].filter(Boolean).join(" · ")}</p>
                <p className="text-slate-600">{`Since ${formatDate(p.createdAt)}`}</p>
              </div>
            ),
          },
          {
            header: "Members",
            cell: (p) => (
              <ul className="flex flex-col gap-1">
                {p.members.map((m) => (
                  <li key={m.user.id} className={LONG_VALUE}>
                    {m.user.email} <Badge tone={m.role === "owner" ? "blue" : "grey"}>{ROLE_LABEL[m.role]}</Badge>
                  </li>
                ))}
              </ul>
            ),
          },
          {
            header: "Active licenses",
            cell: (p) =>
              p.subscriptions.length ? (
                <ul className="flex flex-col gap-1">
                  {p.subscriptions.map((s) => (
                    <li
                      key={s.id}
                    >{`${LICENCE_LABEL[s.type]}: ${s.animation?.title ?? s.category?.name ?? "—"} · ${s.seats} seats · until ${formatDate(s.endDate)}`}</li>
                  ))}
                </ul>
              ) : (
                <span className="text-slate-600">None</span>
              ),
          },
          {
            header: "Latest invoices",
            cell: (p) =>
              p.invoices.length ? (
                <ul className="flex flex-col gap-1">
                  {p.invoices.map((i) => (
                    <li key={i.id}>
                      <TextLink to={`/billing/invoices/${i.id}`}>{i.code}</TextLink>
                      {` · ${i.currency} ${i.total.toFixed(2)} · ${formatDate(i.issuedAt)}`}
                    </li>
                  ))}
                </ul>
              ) : (
                <span className="text-slate-600">None</span>
              ),
          },
        ]}
      />
      <Pager page={page} hasNext={hasNext} />
    </AdminPage>
  );
}
