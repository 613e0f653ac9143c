import { prisma, uniqueViolation } from "~/lib/db.server.ts";
import { conflict, notFound, ServiceError } from "~/lib/errors.server.ts";
import { confirmChangedUploads } from "~/lib/upload-form.server.ts";
import type { Prisma } from "~/generated/prisma/client.ts";
import { UUID_RE } from "~/validation/account.ts";
import { type DoctorInput, slugFromName } from "~/validation/admin-catalogue.ts";
import { type Actor, recordAudit } from "../admin/audit.server.ts";
import { NOT_FOUND } from "./categories.server.ts";

// Doctors in the back office (/admin/doctors): a paged list, create,
// edit, delete. Deleting a doctor removes their links to animations (the animations stay).

export const DOCTORS_PAGE_SIZE = 20;
export const SLUG_TAKEN = "This slug is already in use";

const adminDoctorSelect = {
  id: true,
  name: true,
  slug: true,
  specialty: true,
  description: true,
  photo: true,
  website: true,
  instagram: true,
  isActive: true,
  createdAt: true,
  updatedAt: true,
  _count: { select: { animations: true } },
} satisfies Prisma.DoctorSelect;

type Row = Prisma.DoctorGetPayload<{ select: typeof adminDoctorSelect }>;

function toAdminDoctor({ _count, ...row }: Row) {
  return { ...row, animationCount: _count.animations };
}

export type AdminDoctor = ReturnType<typeof toAdminDoctor>;

export async function listAdminDoctors({ search, page }: { search?: string; page: number }) {
  const term = search?.trim();
  const contains = term ? { contains: term, mode: "insensitive" as const } : null;
  const rows = await prisma.doctor.findMany({
    where: contains ? { OR: [{ name: contains }, { specialty: contains }, { slug: contains }] } : {},
    select: adminDoctorSelect,
    orderBy: [{ name: "asc" }, { id: "asc" }],
    skip: (page - 1) * DOCTORS_PAGE_SIZE,
    take: DOCTORS_PAGE_SIZE + 1,
  });
  return { doctors: rows.slice(0, DOCTORS_PAGE_SIZE).map(toAdminDoctor), page, hasNext: rows.length > DOCTORS_PAGE_SIZE };
}

export async function getAdminDoctor(id: string) {
  if (!UUID_RE.test(id)) return null;
  const row = await prisma.doctor.findUnique({ where: { id }, select: adminDoctorSelect });
  return row ? toAdminDoctor(row) : null;
}

function data(input: DoctorInput) {
  return {
    name: input.name,
    slug: input.slug ?? slugFromName(input.name),
    specialty: input.specialty,
    description: input.description ?? null,
    photo: input.photo ?? null,
    website: input.website ?? null,
    instagram: input.instagram ?? null,
    isActive: input.isActive,
  };
}

function slugConflict(error: unknown): never {
  if (uniqueViolation(error)) throw conflict(SLUG_TAKEN, "slug");
  throw error;
}

const auditFields = (row: ReturnType<typeof data>) => ({ ...row });

export async function createDoctor(actor: Actor, input: DoctorInput) {
  const values = data(input);
  if (!values.slug) throw new ServiceError("Enter a slug: the name has no letters or digits to make one from", 400, "slug");
  await confirmChangedUploads({ photo: values.photo }, {}, { photo: "doctor-photo" });
  const created = await prisma
    .$transaction(async (tx) => {
      const row = await tx.doctor.create({ data: values, select: adminDoctorSelect });
      await recordAudit(tx, actor, {
        action: "doctor.create",
        entityType: "doctor",
        entityId: row.id,
        summary: `Created doctor “${row.name}”`,
        after: auditFields(values),
      });
      return row;
    })
    .catch(slugConflict);
  return toAdminDoctor(created);
}

export async function updateDoctor(actor: Actor, id: string, input: DoctorInput) {
  const current = await getAdminDoctor(id);
  if (!current) throw notFound(NOT_FOUND.doctor);
  const values = data(input);
  if (!input.slug) values.slug = current.slug;
  await confirmChangedUploads({ photo: values.photo }, { photo: current.photo }, { photo: "doctor-photo" });
  const updated = await prisma
    .$transaction(async (tx) => {
      const row = await tx.doctor.update({ where: { id }, data: values, select: adminDoctorSelect });
      const { animationCount: _, createdAt: __, updatedAt: ___, id: ____, ...before } = current;
      await recordAudit(tx, actor, {
        action: "doctor.update",
        entityType: "doctor",
        entityId: id,
        summary: `Updated doctor “${row.name}”`,
        before,
        after: auditFields(values),
      });
      return row;
    })
    .catch(slugConflict);
  return toAdminDoctor(updated);
}

export async function deleteDoctor(actor: Actor, id: string) {
  const current = await getAdminDoctor(id);
  if (!current) throw notFound(NOT_FOUND.doctor);
  await prisma.$transaction(async (tx) => {
    // The links to animations go with the doctor (onDelete: Cascade); the animations stay.
    await tx.doctor.delete({ where: { id } });
    await recordAudit(tx, actor, {
      action: "doctor.delete",
      entityType: "doctor",
      entityId: id,
      summary: `Deleted doctor “${current.name}” (linked to ${current.animationCount} animation${current.animationCount === 1 ? "" : "s"})`,
      before: { name: current.name, slug: current.slug, specialty: current.specialty },
    });
  });
  return current;
}
