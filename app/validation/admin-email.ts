import { z } from "zod";
import { linksAsText } from "~/lib/html-text.ts";
import { flagDefaultTrue, optionalText } from "./fields.ts";

// The e-mail manager: templates, the log, bulk campaigns and their /api calls. Browser-safe.

export const TEMPLATE_INTENTS = ["delete"] as const;
export const DELETE_TEMPLATE_CONFIRM = "Are you sure you want to delete this email template?";

/** Variables: comma-separated, trimmed, blanks dropped; an array from JSON. */
const variablesField = z.preprocess(
  (v) => (typeof v === "string" ? v.split(",") : (v ?? [])),
  z
    .array(z.string().trim().max(50, "A variable name must be at most 50 characters"))
    .transform((list) => [...new Set(list.filter(Boolean))])
    .pipe(z.array(z.string()).max(30, "At most 30 variables")),
);

const required = (label: string, max: number) =>
  z
    .string({ error: `${label} is required` })
    .trim()
    .min(1, `${label} is required`)
    .max(max, `${label} must be at most ${max.toLocaleString("en-US")} characters`);

export const TemplateSchema = z.object({
  name: required("Name", 100).regex(/^[a-z0-9_]*$/i, "Name may contain only letters, digits and underscores"),
  subject: required("Subject", 200),
  htmlContent: required("HTML content", 100_000),
  textContent: optionalText(100_000, "Text content"),
  variables: variablesField,
  isActive: flagDefaultTrue,
});
export type TemplateInput = z.infer<typeof TemplateSchema>;

/** PUT /api/admin/email-templates/{id}: layout B edits subject and content; layout A also name and variables. */
export const TemplateUpdateSchema = TemplateSchema.partial().extend({
  subject: required("Subject", 200),
  htmlContent: required("HTML content", 100_000),
});
export type TemplateUpdateInput = z.infer<typeof TemplateUpdateSchema>;

export const TemplateListQuerySchema = z.object({ search: z.string().trim().max(200).optional().catch(undefined) });

export const LOG_STATUSES = ["sent", "failed", "pending"] as const;
export const LogListQuerySchema = z.object({
  search: z.string().trim().max(200).optional().catch(undefined),
  status: z.enum(LOG_STATUSES).optional().catch(undefined),
  campaign: z.string().uuid().optional().catch(undefined),
  page: z.coerce.number().int().min(1).max(100_000).catch(1).default(1),
  limit: z.coerce.number().int().min(1).max(100).catch(25).default(25),
});
export type LogListQuery = z.infer<typeof LogListQuerySchema>;

/** Target groups of a campaign (all, premium, free or expired), or the users chosen by id. */
export const AUDIENCES = ["all", "premium", "free", "expired"] as const;
export type Audience = (typeof AUDIENCES)[number] | "users";
export const AUDIENCE_LABELS: Record<Audience, string> = {
  all: "All users",
  premium: "Premium users",
  free: "Free users",
  expired: "Users whose subscription expired",
  users: "Chosen users",
};

/** What kind of mail a campaign is: the notification preference a recipient may have turned off. */
export const CAMPAIGN_KINDS = ["newsletter", "promotions", "new_animations"] as const;
export type CampaignKind = (typeof CAMPAIGN_KINDS)[number];
export const CAMPAIGN_KIND_LABELS: Record<CampaignKind, string> = {
  newsletter: "Newsletter",
  promotions: "Promotions",
  new_animations: "New animations",
};

/** What an unsubscribe link turns off: a campaign's kind, or the reminders of a subscription's renewal or end. */
export const UNSUBSCRIBE_KINDS = [...CAMPAIGN_KINDS, "renewal_reminders"] as const;
export type UnsubscribeKind = (typeof UNSUBSCRIBE_KINDS)[number];
export const UNSUBSCRIBE_KIND_LABELS: Record<UnsubscribeKind, string> = { ...CAMPAIGN_KIND_LABELS, renewal_reminders: "Renewal reminder" };

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const RECIPIENTS_INVALID = "Recipients must be user ids separated by commas";
const userIds = z.preprocess(
  (v) =>
    typeof v === "string"
      ? v
          .split(",")
          .map((s) => s.trim())
          .filter(Boolean)
      : v,
  z.array(z.string().regex(UUID, RECIPIENTS_INVALID), { error: RECIPIENTS_INVALID }).max(10_000, "At most 10,000 recipients by id"),
);

export const SUBJECT_REQUIRED = "Subject is required";
export const CONTENT_REQUIRED = "Content is required";
export const RECIPIENTS_REQUIRED = "Recipients are required";
export const TEST_EMAIL_REQUIRED = "Test e-mail is required";

const content = z.string({ error: CONTENT_REQUIRED }).trim().min(1, CONTENT_REQUIRED).max(200_000, "Content must be at most 200,000 characters");

/**
 * The campaign form and POST /api/emails/bulk in either body layout: layout A sends
 * `recipients` (comma-separated ids), `subject`, `htmlContent`; layout B `subject`, `html` and
 * `userIds` or `testEmail`. The form and layout B may name a target group instead of ids.
 */
export const BulkEmailSchema = z
  .object({
    subject: z.string({ error: SUBJECT_REQUIRED }).trim().min(1, SUBJECT_REQUIRED).max(200, "Subject must be at most 200 characters"),
    htmlContent: content.optional(),
    html: content.optional(),
    recipients: userIds.optional(),
    userIds: userIds.optional(),
    targetGroup: z.enum(AUDIENCES, { error: "Choose a target group: all, premium, free or expired" }).optional(),
    kind: z.enum(CAMPAIGN_KINDS, { error: "Choose the kind of mail" }).default("newsletter"),
    testEmail: z.preprocess((v) => (v === "" ? undefined : v), z.string().trim().email("Must be a valid email").max(254).optional()),
  })
  .transform((input, ctx) => {
    const html = input.htmlContent ?? input.html;
    if (!html) {
      ctx.addIssue({ code: "custom", message: CONTENT_REQUIRED, path: ["htmlContent"] });
      return z.NEVER;
    }
    const ids = input.recipients ?? input.userIds;
    return {
      subject: input.subject,
      html,
      kind: input.kind,
      testEmail: input.testEmail,
      userIds: ids?.length ? [...new Set(ids)] : undefined,
      targetGroup: input.targetGroup,
    };
  });
export type BulkEmailInput = z.infer<typeof BulkEmailSchema>;

/** Layout B shows template names with underscores as spaces, uppercased (refund_decision → REFUND DECISION). */
export function templateDisplayName(name: string) {
  return name.replaceAll("_", " ").toUpperCase();
}

/**
 * Plain text of a campaign from its HTML: script and style dropped, links as "text (URL)", tags
 * removed, whitespace collapsed, a line break after each sentence's closing punctuation.
 */
export function plainTextFromHtml(html: string) {
  return linksAsText(html.replace(/<(script|style)\b[\s\S]*?<\/\1\s*>/gi, " "))
    .replace(/<[^>]*>/g, " ")
    .replace(/&nbsp;/g, " ")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, "&")
    .replace(/\s+/g, " ")
    .trim()
    .replace(/([.!?]) (?=\S)/g, "$1\n");
}
