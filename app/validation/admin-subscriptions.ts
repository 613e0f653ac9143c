import { z } from "zod";

// /admin/subscriptions and GET /api/admin/subscriptions.

export const SUBSCRIPTION_STATUSES = ["active", "canceled", "expired", "pending"] as const;
export const SUBSCRIPTION_TYPES = ["global", "category", "individual"] as const;

export const SubscriptionListQuerySchema = z.object({
  search: z.string().trim().max(200).optional().catch(undefined),
  status: z.enum(SUBSCRIPTION_STATUSES).optional().catch(undefined),
  type: z.enum(SUBSCRIPTION_TYPES).optional().catch(undefined),
  page: z.coerce.number().int().min(1).max(100_000).catch(1).default(1),
  limit: z.coerce.number().int().min(1).max(100).catch(20).default(20),
});
export type SubscriptionListQuery = z.infer<typeof SubscriptionListQuerySchema>;

export const SUBSCRIPTION_INTENTS = ["cancel", "reactivate"] as const;
export type SubscriptionIntent = (typeof SUBSCRIPTION_INTENTS)[number];
