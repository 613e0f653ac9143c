import { AdminPage } from "~/components/admin/admin-page.tsx";
import { ConfirmButton, ConfirmPanel, type ConfirmStep } from "~/components/admin/confirm.tsx";
import { ActiveBadge, DataTable } from "~/components/admin/data-table.tsx";
import { FilterForm, Pager, SearchInput } from "~/components/admin/list-controls.tsx";
import { ButtonLink } from "~/components/ui/button.tsx";
import { TextLink } from "~/components/ui/text-link.tsx";
import { DoctorAvatar } from "~/components/catalogue/doctor-avatar.tsx";
import { backToList, confirmTarget, runListAction } from "~/lib/list-query.server.ts";
import { requireAdmin } from "~/services/auth/guards.server.ts";
import { deleteDoctor, getAdminDoctor, listAdminDoctors, type AdminDoctor } from "~/services/catalogue/doctor-admin.server.ts";
import { AdminListQuerySchema } from "~/validation/admin-catalogue.ts";
import { NOINDEX } from "~/lib/seo.ts";
import type { Route } from "./+types/doctors";

export const meta: Route.MetaFunction = () => [{ title: "Doctors | Admin" }, NOINDEX];

export async function loader({ url }: Route.LoaderArgs) {
  const query = AdminListQuerySchema.parse(Object.fromEntries(url.searchParams));
  const target = confirmTarget(url, ["delete"]);
  const [list, confirm] = await Promise.all([listAdminDoctors(query), target ? getAdminDoctor(target.id) : null]);
  return { ...list, query, confirm };
}

export async function action({ request, url }: Route.ActionArgs) {
  const admin = await requireAdmin(request);
  return runListAction(request, backToList("/admin/doctors", url), {
    delete: {
      failed: "Failed to delete doctor",
      run: async (id) => ({ title: "Doctor Deleted", description: `${(await deleteDoctor(admin, id)).name} was deleted.` }),
    },
  });
}

function deleteStep(doctor: Pick<AdminDoctor, "id" | "name" | "animationCount">): ConfirmStep {
  return {
    id: doctor.id,
    intent: "delete",
    title: `Delete ${doctor.name}?`,
    message: `Are you sure you want to delete this doctor? ${doctor.animationCount ? `Their links to ${doctor.animationCount} animation${doctor.animationCount === 1 ? "" : "s"} are removed; the animations stay.` : "No animation is linked to them."}`,
    confirmLabel: "Delete",
    pendingText: "Deleting...",
  };
}

export default function AdminDoctors({ loaderData }: Route.ComponentProps) {
  const { doctors, page, hasNext, query, confirm } = loaderData;
  return (
    <AdminPage title="Doctors" description="The doctors who verify the animations." actions={<ButtonLink to="/admin/doctors/new">New Doctor</ButtonLink>}>
      {confirm ? <ConfirmPanel step={deleteStep(confirm)} /> : null}
      <FilterForm clearTo="/admin/doctors">
        <SearchInput defaultValue={query.search} placeholder="Name, specialty or slug" />
      </FilterForm>
      <DataTable
        caption="Doctors by name"
        rows={doctors}
        rowKey={(doctor) => doctor.id}
        empty="No doctors found"
        columns={[
          {
            header: "Doctor",
            cell: (doctor) => (
              <div className="flex items-center gap-3">
                <DoctorAvatar doctor={doctor} size="sm" />
                <div>
                  <p className="font-medium">{doctor.name}</p>
                  <p className="text-slate-600">/{doctor.slug}</p>
                </div>
              </div>
            ),
          },
          { header: "Specialty", cell: (doctor) => doctor.specialty },
          { header: "Animations", cell: (doctor) => doctor.animationCount, className: "text-right" },
          { header: "Status", cell: (doctor) => <ActiveBadge active={doctor.isActive} /> },
          {
            header: "Actions",
            cell: (doctor) => (
              <div className="flex gap-3">
                <TextLink to={`/admin/doctors/${doctor.id}`}>Edit</TextLink>
                <ConfirmButton step={deleteStep(doctor)}>Delete</ConfirmButton>
              </div>
            ),
          },
        ]}
      />
      <Pager page={page} hasNext={hasNext} />
    </AdminPage>
  );
}
