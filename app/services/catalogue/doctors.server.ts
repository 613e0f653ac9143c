import { prisma } from "~/lib/db.server.ts";
import { notFound } from "~/lib/errors.server.ts";
import type { Prisma } from "~/generated/prisma/client.ts";
import { doctorSummarySelect, listOrder } from "./animations.server.ts";
import { cached, NOT_FOUND, slugOrId } from "./categories.server.ts";
import { currentMedicalReview, medicalReviewSelect } from "./medical-review.server.ts";
import type { DoctorDto, DoctorProfileDto } from "./types.ts";

// Doctors

const doctorSelect = { ...doctorSummarySelect, description: true, website: true, instagram: true } satisfies Prisma.DoctorSelect;

export function listDoctors(): Promise<DoctorDto[]> {
  return cached("doctors", () => prisma.doctor.findMany({ where: { isActive: true }, orderBy: { name: "asc" }, select: doctorSelect }));
}

/**
 * A doctor by slug (id as the fallback) with the active animations they verified: those whose
 * current medical review is theirs (the record, not the list of doctors linked to an animation).
 */
export async function getDoctor(slugOrIdValue: string, now = new Date()): Promise<DoctorProfileDto> {
  const found = await cached(`doctor:${slugOrIdValue}`, () => loadDoctor(slugOrIdValue));
  if (!found) throw notFound(NOT_FOUND.doctor);
  const { reviewed, ...doctor } = found;
  // Judged per request: a review whose next date has passed leaves the list at once.
  const verifiedAnimations = reviewed
    .filter((row) => currentMedicalReview(row, now))
    .map(({ id, slug, title, description, coverImage, duration }) => ({ id, slug, title, description, coverImage, duration }));
  return { ...doctor, verifiedAnimations };
}

async function loadDoctor(slugOrIdValue: string) {
  const doctor = await prisma.doctor.findFirst({ where: { isActive: true, ...slugOrId(slugOrIdValue) }, select: doctorSelect });
  if (!doctor) return null;
  const reviewed = await prisma.animation.findMany({
    where: { isActive: true, medicalReviewerId: doctor.id },
    orderBy: listOrder,
    take: 100,
    select: { id: true, slug: true, title: true, description: true, coverImage: true, duration: true, ...medicalReviewSelect },
  });
  return { ...doctor, reviewed };
}
