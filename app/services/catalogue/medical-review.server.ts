import { prisma } from "~/lib/db.server.ts";
import { notFound, ServiceError } from "~/lib/errors.server.ts";
import type { Prisma } from "~/generated/prisma/client.ts";
import { type MedicalReviewInput, parseIsoDate, REVIEW_INTERVAL_MONTHS } from "~/validation/admin-captions.ts";
import { type Actor, recordAudit } from "../admin/audit.server.ts";
import { publishIfReady } from "./publishing.server.ts";
import { currentReviewWhere, REVIEW_DUE_WINDOW_DAYS } from "./review-rule.server.ts";
import { cached } from "./categories.server.ts";
import type { MedicalReviewClaim } from "./medical-review-claim.ts";

export { REVIEW_INTERVAL_MONTHS, currentReviewWhere, REVIEW_DUE_WINDOW_DAYS };

// An animation's medical review is a record: the doctor who did it (one of the animation's
// doctors), the day, and when the next is due. Medical content ages: the dashboard lists
// animations whose review is due within a month or that were never reviewed, and every public
// claim of a review ("Medically reviewed by …") is printed only while the review is current.

export const REVIEW_IN_FUTURE = "Reviewed on cannot be in the future";
export const REVIEWER_NOT_LINKED = "The reviewer must be one of this animation's active doctors";

const reviewerSelect = { id: true, slug: true, name: true, specialty: true, isActive: true } satisfies Prisma.DoctorSelect;

/** What an animation row needs to say whether its review is current. */
export const medicalReviewSelect = {
  medicallyReviewedAt: true,
  reviewDueAt: true,
  medicalReviewer: { select: reviewerSelect },
} satisfies Prisma.AnimationSelect;

type ReviewRow = Prisma.AnimationGetPayload<{ select: typeof medicalReviewSelect }>;

/**
 * The review a page may claim, or null. Current means: a reviewer who is still an active doctor
 * of the platform, a review day that has come, and a next-review date still ahead. A review
 * whose next date has passed claims nothing until it is recorded again.
 */
export function currentMedicalReview(row: ReviewRow, now = new Date()): MedicalReviewClaim | null {
  const { medicallyReviewedAt: reviewedAt, reviewDueAt, medicalReviewer: doctor } = row;
  if (!reviewedAt || !reviewDueAt || !doctor?.isActive) return null;
  if (reviewedAt > now || reviewDueAt <= now) return null;
  return {
    doctor: { id: doctor.id, slug: doctor.slug, name: doctor.name, specialty: doctor.specialty },
    reviewedAt: reviewedAt.toISOString(),
    nextReviewAt: reviewDueAt.toISOString(),
  };
}

/**
 * How many published animations carry a current review, of how many: what site-wide copy may
 * say about reviews ("doctor-verified" only when every one of them is). Kept with the catalogue
 * for its few seconds: the home page asks on every visit.
 */
export function getReviewCoverage() {
  return cached("review-coverage", async () => {
    const now = new Date();
    const [reviewed, published] = await Promise.all([
      prisma.animation.count({ where: { isActive: true, ...currentReviewWhere(now) } }),
      prisma.animation.count({ where: { isActive: true } }),
    ]);
    return { reviewed, published, all: published > 0 && reviewed === published };
  });
}

/** The same day `months` later, clamped to the month's end (Feb 29 + 12 months → Feb 28). */
export function addMonthsUtc(date: Date, months: number): Date {
  const target = new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + months, 1));
  const lastDay = new Date(Date.UTC(target.getUTCFullYear(), target.getUTCMonth() + 1, 0)).getUTCDate();
  target.setUTCDate(Math.min(date.getUTCDate(), lastDay));
  return target;
}

/** The medical screen's view: the review record, whether pages claim it, and who may review. */
export async function getMedicalReview(animationId: string, now = new Date()) {
  const animation = await prisma.animation.findUnique({
    where: { id: animationId },
    select: {
      id: true,
      title: true,
      slug: true,
      isActive: true,
      ...medicalReviewSelect,
      doctors: { select: { doctor: { select: reviewerSelect } }, orderBy: { doctor: { name: "asc" } }, take: 20 },
    },
  });
  if (!animation) throw notFound("Animation not found");
  const { doctors, ...rest } = animation;
  return { ...rest, current: currentMedicalReview(animation, now), doctors: doctors.map((d) => d.doctor) };
}

/**
 * Records a medical review: the reviewing doctor (an active doctor linked to the animation), the
 * day it happened (not in the future) and when the next is due (twelve months later when not
 * given; always after the review). Audited as animation.review. A draft set to "Publish when
 * ready" whose ladder is done is published in the same transaction (`published`).
 */
export async function saveMedicalReview(actor: Actor, animationId: string, input: MedicalReviewInput, now = new Date()) {
  const reviewedAt = parseIsoDate(input.reviewedAt);
  if (!reviewedAt) throw new ServiceError("Enter a valid date", 400, "reviewedAt");
  // Dates are days in UTC; today anywhere on Earth is at most 14 hours ahead of UTC.
  if (reviewedAt.getTime() > now.getTime() + 14 * 3600_000) throw new ServiceError(REVIEW_IN_FUTURE, 400, "reviewedAt");
  const reviewDueAt = input.reviewDueAt ? parseIsoDate(input.reviewDueAt) : addMonthsUtc(reviewedAt, REVIEW_INTERVAL_MONTHS);
  if (!reviewDueAt) throw new ServiceError("Enter a valid date", 400, "reviewDueAt");
  if (reviewDueAt <= reviewedAt) throw new ServiceError("Next review must be after the review date", 400, "reviewDueAt");

  const recordSelect = { id: true, title: true, medicallyReviewedAt: true, reviewDueAt: true, medicalReviewerId: true } as const;
  const saved = await prisma.$transaction(async (tx) => {
    const before = await tx.animation.findUnique({ where: { id: animationId }, select: recordSelect });
    if (!before) throw notFound("Animation not found");
    const linked = await tx.animationDoctor.count({ where: { animationId, doctorId: input.reviewerId, doctor: { isActive: true } } });
    if (!linked) throw new ServiceError(REVIEWER_NOT_LINKED, 400, "reviewerId");
    const after = await tx.animation.update({
      where: { id: animationId },
      data: { medicallyReviewedAt: reviewedAt, reviewDueAt, medicalReviewerId: input.reviewerId },
      select: { ...recordSelect, medicalReviewer: { select: { name: true } } },
    });
    await recordAudit(tx, actor, {
      action: "animation.review",
      entityType: "animation",
      entityId: animationId,
      summary: `Recorded the medical review of “${before.title}”`,
      before: { medicallyReviewedAt: before.medicallyReviewedAt, reviewDueAt: before.reviewDueAt, medicalReviewerId: before.medicalReviewerId },
      after: { medicallyReviewedAt: after.medicallyReviewedAt, reviewDueAt: after.reviewDueAt, medicalReviewerId: after.medicalReviewerId },
    });
    // The review may be the last thing a "Publish when ready" draft waited for (decision 032).
    return { ...after, published: await publishIfReady(tx, animationId, now) };
  });
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
