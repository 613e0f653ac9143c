import { prisma } from "~/lib/db.server.ts";
import { notFound } from "~/lib/errors.server.ts";
import type { Prisma } from "~/generated/prisma/client.ts";
import { doctorSummarySelect, listOrder } from "./animations.server.ts";
import { cached, NOT_FOUND, slugOrId } from "./categories.server.ts";
import type { DoctorDto, DoctorProfileDto } from "./types.ts";

// Doctors

const doctorSelect = { ...doctorSummarySelect, description: true, website: true, instagram: true } satisfies Prisma.DoctorSelect;

export function listDoctors(): Promise<DoctorDto[]> {
  return cached("doctors", () => prisma.doctor.findMany({ where: { isActive: true }, orderBy: { name: "asc" }, select: doctorSelect }));
}

/** A doctor by slug (id as the fallback) with the active animations they verified. */
export async function getDoctor(slugOrIdValue: string): Promise<DoctorProfileDto> {
  const doctor = await cached(`doctor:${slugOrIdValue}`, () => loadDoctor(slugOrIdValue));
  if (!doctor) throw notFound(NOT_FOUND.doctor);
  return doctor;
}

async function loadDoctor(slugOrIdValue: string): Promise<DoctorProfileDto | null> {
  const doctor = await prisma.doctor.findFirst({ where: { isActive: true, ...slugOrId(slugOrIdValue) }, select: doctorSelect });
  if (!doctor) return null;
  const verifiedAnimations = await prisma.animation.findMany({
    where: { isActive: true, doctors: { some: { doctorId: doctor.id } } },
    orderBy: listOrder,
    take: 100,
    select: { id: true, slug: true, title: true, description: true, coverImage: true, duration: true },
  });
  return { ...doctor, verifiedAnimations };
}
