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

/** Which licences count for "holders of a licence": running now, ended, or either. */
export const LICENCE_STATUSES = ["active", "expired", "any"] as const;
export type LicenceStatus = (typeof LICENCE_STATUSES)[number];
export const LICENCE_STATUS_LABELS: Record<LicenceStatus, string> = {
  active: "Active licence",
  expired: "Expired licence",
  any: "Active or expired",
};

/**
 * The narrowing filters of a campaign's audience, each optional and all of them ANDed with the
 * target group (or the chosen ids): holders of a category's licence, holders of an animation's
 * individual licence (active, expired or either), and a signup date range (whole days, UTC).
 */
export type AudienceFilters = {
  categoryId?: string;
  animationId?: string;
  licenceStatus: LicenceStatus;
  signedUpFrom?: string;
  signedUpTo?: string;
};

/**
 * A campaign's audience in words, as its progress page and the count step say it: "Free users ·
 * holding the Cardiology category licence (expired) · signed up 2026-01-01 to 2026-03-31".
 */
export function describeAudience(group: string, filters?: (Partial<AudienceFilters> & { categoryName?: string; animationTitle?: string }) | null) {
  const parts = [AUDIENCE_LABELS[group as Audience] ?? group];
  const status = filters?.licenceStatus === "expired" ? " (expired)" : filters?.licenceStatus === "any" ? " (active or expired)" : " (active)";
  if (filters?.categoryId) parts.push(`holding the ${filters.categoryName ?? filters.categoryId} category licence${status}`);
  if (filters?.animationId) parts.push(`holding the ${filters.animationTitle ?? filters.animationId} licence${status}`);
  if (filters?.signedUpFrom && filters.signedUpTo) parts.push(`signed up ${filters.signedUpFrom} to ${filters.signedUpTo}`);
  else if (filters?.signedUpFrom) parts.push(`signed up on or after ${filters.signedUpFrom}`);
  else if (filters?.signedUpTo) parts.push(`signed up on or before ${filters.signedUpTo}`);
  return parts.join(" · ");
}

/**
 * The audience a count was made for, as one string the count step carries to Send Campaign: the
 * form refuses to send when the choices changed after counting (without JavaScript nothing else
 * would notice). People joining or leaving the audience meanwhile do not change it.
 */
export function audienceKey(input: { targetGroup?: string; filters?: AudienceFilters; kind: string }) {
  const f = input.filters;
  return [
    input.targetGroup ?? "",
    f?.categoryId ?? "",
    f?.animationId ?? "",
    f?.licenceStatus ?? "",
    f?.signedUpFrom ?? "",
    f?.signedUpTo ?? "",
    input.kind,
  ].join("|");
}
export const AUDIENCE_CHANGED = "The audience changed since it was counted: count the recipients again before sending";

export const SIGNUP_RANGE_REVERSED = "The signup range ends before it starts";
const DAY = /^\d{4}-\d{2}-\d{2}$/;
const blankAsMissing = (v: unknown) => (v === "" || v === null ? undefined : v);
const optionalId = (message: string) => z.preprocess(blankAsMissing, z.string().trim().uuid(message).optional());
const optionalDay = (label: string) =>
  z.preprocess(
    blankAsMissing,
    z
      .string()
      .regex(DAY, `${label} must be a date (YYYY-MM-DD)`)
      .refine((day) => !Number.isNaN(Date.parse(`${day}T00:00:00Z`)), `${label} must be a date (YYYY-MM-DD)`)
      .optional(),
  );

export const SUBJECT_REQUIRED = "Subject is required";
export const CONTENT_REQUIRED = "Content is required";
export const RECIPIENTS_REQUIRED = "Recipients are required";
export const TEST_EMAIL_REQUIRED = "Test e-mail is required";

const content = z.string({ error: CONTENT_REQUIRED }).trim().min(1, CONTENT_REQUIRED).max(200_000, "Content must be at most 200,000 characters");

/**
 * The campaign form and POST /api/emails/bulk in either body layout: layout A sends
 * `recipients` (comma-separated ids), `subject`, `htmlContent`; layout B `subject`, `html` and
 * `userIds` or `testEmail`. The form and layout B may name a target group instead of ids, and
 * narrow either with the audience filters (licence held, signup range).
 */
export const BulkEmailSchema = z
  .object({
    subject: z.string({ error: SUBJECT_REQUIRED }).trim().min(1, SUBJECT_REQUIRED).max(200, "Subject must be at most 200 characters"),
    htmlContent: content.optional(),
    html: content.optional(),
    recipients: userIds.optional(),
    userIds: userIds.optional(),
    targetGroup: z.enum(AUDIENCES, { error: "Choose a target group: all, premium, free or expired" }).optional(),
    licenceCategoryId: optionalId("Choose a category from the list"),
    licenceAnimationId: optionalId("Choose an animation from the list"),
    licenceStatus: z.preprocess(blankAsMissing, z.enum(LICENCE_STATUSES, { error: "Choose active, expired or any" }).default("active")),
    signedUpFrom: optionalDay("Signed up from"),
    signedUpTo: optionalDay("Signed up until"),
    /** The count the admin saw and confirmed: the campaign is refused (409) when the audience no longer has it. */
    expectedRecipients: z.preprocess(blankAsMissing, z.coerce.number().int().min(0).optional()),
    /** Only count the recipients (POST /api/emails/bulk): nothing is recorded or sent. */
    countOnly: z.preprocess((v) => v === true || v === "true" || v === "on", z.boolean()).optional(),
    kind: z.enum(CAMPAIGN_KINDS, { error: "Choose the kind of mail" }).default("newsletter"),
    testEmail: z.preprocess((v) => (v === "" ? undefined : v), z.string().trim().email("Must be a valid email").max(254).optional()),
  })
  .transform((input, ctx) => {
    const html = input.htmlContent ?? input.html;
    if (!html) {
      ctx.addIssue({ code: "custom", message: CONTENT_REQUIRED, path: ["htmlContent"] });
      return z.NEVER;
    }
    if (input.signedUpFrom && input.signedUpTo && input.signedUpFrom > input.signedUpTo) {
      ctx.addIssue({ code: "custom", message: SIGNUP_RANGE_REVERSED, path: ["signedUpTo"] });
      return z.NEVER;
    }
    const ids = input.recipients ?? input.userIds;
    const filters: AudienceFilters = {
      categoryId: input.licenceCategoryId,
      animationId: input.licenceAnimationId,
      licenceStatus: input.licenceStatus,
      signedUpFrom: input.signedUpFrom,
      signedUpTo: input.signedUpTo,
    };
    return {
      subject: input.subject,
      html,
      kind: input.kind,
      testEmail: input.testEmail,
      userIds: ids?.length ? [...new Set(ids)] : undefined,
      targetGroup: input.targetGroup,
      filters,
      expectedRecipients: input.expectedRecipients,
      countOnly: input.countOnly === true,
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
