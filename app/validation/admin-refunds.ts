import { z } from "zod";
import { pluralize } from "~/lib/format.ts";

// /admin/refunds, its decision step and their /api calls.

export const REFUND_STATUSES = ["pending", "approved", "rejected", "processed"] as const;

export const RefundListQuerySchema = z.object({
  search: z.string().trim().max(200).optional().catch(undefined),
  status: z.enum(REFUND_STATUSES).optional().catch(undefined),
  page: z.coerce.number().int().min(1).max(100_000).catch(1).default(1),
  limit: z.coerce.number().int().min(1).max(100).catch(20).default(20),
});
export type RefundListQuery = z.infer<typeof RefundListQuerySchema>;

export const ADMIN_NOTES_REQUIRED = "Admin notes are required";
export const RefundDecisionSchema = z.object({
  adminNotes: z.string({ error: ADMIN_NOTES_REQUIRED }).trim().min(1, ADMIN_NOTES_REQUIRED).max(2000, "Admin notes must be at most 2000 characters."),
  /** Approving a licence whose files were downloaded since it was paid needs this (the form's checkbox). */
  confirmDownloads: z.boolean().optional().describe("Approve only: true to refund a license whose files were downloaded since the payment (without it, 409)."),
});

const files = (count: number) => pluralize(count, "file");
/** The confirmation the decision form asks for when the licence's files were downloaded. */
export const refundAnywayLabel = (count: number) => `The buyer downloaded ${files(count)}; refund anyway`;
/** The refusal of an approval without it (beside the checkbox; the API's 409). */
export const downloadsNotConfirmed = (count: number) =>
  `The buyer downloaded ${files(count)} of this license since paying, and keeps them: confirm that you refund anyway.`;
