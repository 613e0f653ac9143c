import { z } from "zod";

// The misuse inbox (/admin/misuse, its report page and their /api calls). Browser-safe: the
// state names below are the ones the inbox, the report page and the admins' digest print.

export const MISUSE_STATUSES = ["new", "investigating", "resolved", "dismissed"] as const;
export type MisuseStatus = (typeof MISUSE_STATUSES)[number];

export const MISUSE_STATUS_LABELS: Record<MisuseStatus, string> = {
  new: "New",
  investigating: "Investigating",
  resolved: "Resolved",
  dismissed: "Dismissed",
};

export const MisuseListQuerySchema = z.object({
  status: z.enum(MISUSE_STATUSES).optional().catch(undefined),
  // One group: the reports of the same normalised link (the inbox's "N reports of this link").
  link: z.string().trim().max(2000).optional().catch(undefined),
  page: z.coerce.number().int().min(1).max(100_000).catch(1).default(1),
  limit: z.coerce.number().int().min(1).max(100).catch(20).default(20),
});
export type MisuseListQuery = z.infer<typeof MisuseListQuerySchema>;

export const MISUSE_STATUS_REQUIRED = "Choose a state";
export const MISUSE_NOTE_REQUIRED = "A note is required";
export const MISUSE_REPLY_REQUIRED = "Write the reply";

const note = (required: string) => z.string({ error: required }).trim().min(1, required).max(2000, "A note must be at most 2000 characters.");

/** A change of state, with the admin's note (why): the report page's form and PUT /api/admin/misuse-reports/{id}. */
export const MisuseStatusChangeSchema = z.object({
  status: z.enum(MISUSE_STATUSES, { error: MISUSE_STATUS_REQUIRED }),
  note: note(MISUSE_NOTE_REQUIRED),
});
export type MisuseStatusChange = z.infer<typeof MisuseStatusChangeSchema>;

/** The reply to the reporter, sent in the misuse_reply template. */
export const MisuseReplySchema = z.object({
  reply: z.string({ error: MISUSE_REPLY_REQUIRED }).trim().min(1, MISUSE_REPLY_REQUIRED).max(5000, "A reply must be at most 5000 characters."),
});
