import { Prisma } from "~/generated/prisma/client.ts";

// When a medical review is current (medical-review.server.ts's currentMedicalReview), as a
// query filter and as SQL: read by the review's module and by publishing, which saving a review
// calls in turn (so neither imports the other's whole module back).

/** An animation is "due" this many days before its next review date. */
export const REVIEW_DUE_WINDOW_DAYS = 30;

/** currentMedicalReview (medical-review.server.ts) as a query filter: the same three conditions, for counts and lists. */
export function currentReviewWhere(now = new Date()): Prisma.AnimationWhereInput {
  return { medicalReviewer: { isActive: true }, medicallyReviewedAt: { lte: now }, reviewDueAt: { gt: now } };
}

/** currentReviewWhere in SQL, over an "Animation" aliased `a`: the same three conditions. */
export function currentReviewSql(now = new Date()) {
  return Prisma.sql`(a."medicallyReviewedAt" <= ${now} AND a."reviewDueAt" > ${now}
    AND EXISTS (SELECT 1 FROM "Doctor" d WHERE d."id" = a."medicalReviewerId" AND d."isActive"))`;
}
