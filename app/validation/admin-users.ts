import { z } from "zod";

// /admin/users and its /api calls. Browser-safe.

export const UserListQuerySchema = z.object({
  search: z.string().trim().max(200).optional().catch(undefined),
  page: z.coerce.number().int().min(1).max(100_000).catch(1).default(1),
  // limit=20 by default; a client may ask for fewer or more, within reason.
  limit: z.coerce.number().int().min(1).max(100).catch(20).default(20),
});
export type UserListQuery = { search?: string; page?: number; limit?: number };

export const ROLE_REQUIRED = "Role must be user or admin";
export const UserRoleSchema = z.object({ role: z.enum(["user", "admin"], { error: ROLE_REQUIRED }) });

export const UserEmailSchema = z.object({
  subject: z.string({ error: "Subject is required" }).trim().min(1, "Subject is required").max(200, "Subject must be at most 200 characters"),
  message: z.string({ error: "Message is required" }).trim().min(1, "Message is required").max(20_000, "Message must be at most 20,000 characters"),
});
export type UserEmailInput = z.infer<typeof UserEmailSchema>;

/** The confirmation steps of the list (each asks for confirmation). */
export const USER_INTENTS = ["promote", "demote", "block", "unblock"] as const;
export type UserIntent = (typeof USER_INTENTS)[number];

/** The status column: Blocked (isActive false), Unverified (active, e-mail not verified), or Active. */
export function userStatus(user: { isActive: boolean; isEmailVerified: boolean }): "Blocked" | "Unverified" | "Active" {
  if (!user.isActive) return "Blocked";
  return user.isEmailVerified ? "Active" : "Unverified";
}
