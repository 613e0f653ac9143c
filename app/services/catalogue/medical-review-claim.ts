import { formatLongDate } from "~/lib/format.ts";

// The one sentence every page, the embed and the certificate print for a current medical review
// (docs/architecture.md, "Claims come from data"). Pure and browser-safe: the animation page
// renders it, the embed and the PDF write it. Which review is current is decided on the server
// (medical-review.server.ts); a page with no current review prints nothing at all.

export type MedicalReviewClaim = {
  doctor: { id: string; slug: string; name: string; specialty: string };
  /** ISO dates. */
  reviewedAt: string;
  nextReviewAt: string;
};

/** "Medically reviewed by Dr. X (specialty) on November 3, 2026 · next review November 3, 2027". */
export function formatMedicalReview(review: MedicalReviewClaim): string {
  return `Medically reviewed by ${review.doctor.name} (${review.doctor.specialty}) on ${formatLongDate(review.reviewedAt)} · next review ${formatLongDate(review.nextReviewAt)}`;
}
