import { prisma } from "~/lib/db.server.ts";
import { notFound, ServiceError } from "~/lib/errors.server.ts";
import { type MedicalReviewInput, parseIsoDate, REVIEW_INTERVAL_MONTHS } from "~/validation/admin-captions.ts";

export { REVIEW_INTERVAL_MONTHS };
import { type Actor, recordAudit } from "../audit.server.ts";
import { invalidateCatalogue } from "./categories.server.ts";
import { doctorSummarySelect } from "./animations.server.ts";

// When an animation's doctors last reviewed it medically and when the next review is due.
// Medical content ages: the dashboard lists animations whose review is due within a month or
// that were never reviewed.

/** An animation is "due" this many days before its next review date. */
export const REVIEW_DUE_WINDOW_DAYS = 30;

export const REVIEW_IN_FUTURE = "Reviewed on cannot be in the future";

/** The same day `months` later, clamped to the month's end (Feb 29 + 12 months → Feb 28). */
export function addMonthsUtc(date: Date, months: number): Date {
  const target = new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + months, 1));
  const lastDay = new Date(Date.UTC(target.getUTCFullYear(), target.getUTCMonth() + 1, 0)).getUTCDate();
  target.setUTCDate(Math.min(date.getUTCDate(), lastDay));
  return target;
}

/** The medical screen's view: the dates and the reviewing doctors (the animation's doctors). */
export async function getMedicalReview(animationId: string) {
  const animation = await prisma.animation.findUnique({
    where: { id: animationId },
    select: {
      id: true,
      title: true,
      slug: true,
      isActive: true,
      medicallyReviewedAt: true,
      reviewDueAt: true,
      doctors: { select: { doctor: { select: doctorSummarySelect } }, orderBy: { doctor: { name: "asc" } }, take: 20 },
    },
  });
  if (!animation) throw notFound("Animation not found");
  const { doctors, ...rest } = animation;
  return { ...rest, doctors: doctors.map((d) => d.doctor) };
}

/**
 * Records a medical review: the day it happened (not in the future) and when the next is due
 * (twelve months later when not given; always after the review). Audited as animation.review.
 */
export async function saveMedicalReview(actor: Actor, animationId: string, input: MedicalReviewInput, now = new Date()) {
  const reviewedAt = parseIsoDate(input.reviewedAt);
  if (!reviewedAt) throw new ServiceError("Enter a valid date", 400, "reviewedAt");
  // Dates are days in UTC; today anywhere on Earth is at most 14 hours ahead of UTC.
  if (reviewedAt.getTime() > now.getTime() + 14 * 3600_000) throw new ServiceError(REVIEW_IN_FUTURE, 400, "reviewedAt");
  const reviewDueAt = input.reviewDueAt ? parseIsoDate(input.reviewDueAt) : addMonthsUtc(reviewedAt, REVIEW_INTERVAL_MONTHS);
  if (!reviewDueAt) throw new ServiceError("Enter a valid date", 400, "reviewDueAt");
  if (reviewDueAt <= reviewedAt) throw new ServiceError("Next review must be after the review date", 400, "reviewDueAt");

  const saved = await prisma.$transaction(async (tx) => {
    const before = await tx.animation.findUnique({
      where: { id: animationId },
      select: { id: true, title: true, medicallyReviewedAt: true, reviewDueAt: true },
    });
    if (!before) throw notFound("Animation not found");
    const after = await tx.animation.update({
      where: { id: animationId },
      data: { medicallyReviewedAt: reviewedAt, reviewDueAt },
      select: { id: true, title: true, medicallyReviewedAt: true, reviewDueAt: true },
    });
    await recordAudit(tx, actor, {
      action: "animation.review",
      entityType: "animation",
      entityId: animationId,
      summary: `Recorded the medical review of “${before.title}”`,
      before: { medicallyReviewedAt: before.medicallyReviewedAt, reviewDueAt: before.reviewDueAt },
      after: { medicallyReviewedAt: after.medicallyReviewedAt, reviewDueAt: after.reviewDueAt },
    });
    return after;
  });
  invalidateCatalogue();
  return saved;
}

export type DueReview = {
  id: string;
  title: string;
  slug: string;
  isActive: boolean;
  medicallyReviewedAt: Date | null;
  reviewDueAt: Date | null;
};

/**
 * Animations whose medical review is due: never reviewed, or the next review falls within
 * REVIEW_DUE_WINDOW_DAYS of `now` (or is past). Never reviewed first, then the most overdue;
 * at most `limit` (1..100). For the admin dashboard.
 */
export async function listAnimationsDueForReview({ now = new Date(), limit = 10 }: { now?: Date; limit?: number } = {}): Promise<DueReview[]> {
  const take = Math.max(1, Math.min(100, Math.floor(limit)));
  const horizon = new Date(now.getTime() + REVIEW_DUE_WINDOW_DAYS * 24 * 3600_000);
  return prisma.animation.findMany({
    where: { OR: [{ medicallyReviewedAt: null }, { reviewDueAt: null }, { reviewDueAt: { lte: horizon } }] },
    orderBy: [{ reviewDueAt: { sort: "asc", nulls: "first" } }, { createdAt: "asc" }, { id: "asc" }],
    take,
    select: { id: true, title: true, slug: true, isActive: true, medicallyReviewedAt: true, reviewDueAt: true },
  });
}
