import { z } from "zod";

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
});
