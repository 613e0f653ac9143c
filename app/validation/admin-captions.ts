import { z } from "zod";

// The medical screen's forms (/admin/animations/:id/medical): a caption track and the review
// dates. Browser-safe: the route's conform forms and the services share these.

/** Common BCP 47 tags offered for a track; the label defaults to the language's name. */
export const CAPTION_LANGUAGES = [
  { tag: "en", name: "English" },
  { tag: "es", name: "Spanish" },
  { tag: "fr", name: "French" },
  { tag: "de", name: "German" },
  { tag: "it", name: "Italian" },
  { tag: "pt", name: "Portuguese" },
  { tag: "pt-BR", name: "Portuguese (Brazil)" },
  { tag: "nl", name: "Dutch" },
  { tag: "pl", name: "Polish" },
  { tag: "tr", name: "Turkish" },
  { tag: "ru", name: "Russian" },
  { tag: "ar", name: "Arabic" },
  { tag: "he", name: "Hebrew" },
  { tag: "hi", name: "Hindi" },
  { tag: "zh-Hans", name: "Chinese (Simplified)" },
  { tag: "ja", name: "Japanese" },
  { tag: "ko", name: "Korean" },
] as const;

const TAGS = CAPTION_LANGUAGES.map((l) => l.tag) as [string, ...string[]];

export function languageName(tag: string) {
  return CAPTION_LANGUAGES.find((l) => l.tag === tag)?.name ?? tag;
}

export const CaptionUploadSchema = z.object({
  language: z.enum(TAGS, { error: "Choose a language" }),
  label: z.string().trim().max(50, "Label must be at most 50 characters").optional(),
  /** Set by the multipart reader to the stored object's path (/objects/uploads/<id>). */
  file: z.string({ error: "Choose a .vtt caption file" }).startsWith("/objects/uploads/", "Choose a .vtt caption file"),
});
export type CaptionUploadInput = z.infer<typeof CaptionUploadSchema>;

export const DeleteCaptionSchema = z.object({ id: z.string().uuid("Caption not found") });

/** Left blank, the next review falls this many months after the review. */
export const REVIEW_INTERVAL_MONTHS = 12;

const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;

/** "YYYY-MM-DD" (an <input type="date">) as midnight UTC, or undefined when it is no such date. */
export function parseIsoDate(value: string): Date | undefined {
  if (!ISO_DATE.test(value)) return undefined;
  const date = new Date(`${value}T00:00:00.000Z`);
  return Number.isNaN(date.getTime()) || date.toISOString().slice(0, 10) !== value ? undefined : date;
}

const dateField = (required: string) =>
  z
    .string({ error: required })
    .trim()
    .refine((v) => parseIsoDate(v) !== undefined, "Enter a valid date");

export const CHOOSE_REVIEWER = "Choose the reviewing doctor";

export const MedicalReviewSchema = z
  .object({
    /** One of the animation's doctors: the review names them on every page. */
    reviewerId: z.string({ error: CHOOSE_REVIEWER }).trim().uuid(CHOOSE_REVIEWER),
    reviewedAt: dateField("Reviewed on is required"),
    /** Left blank: twelve months after the review. */
    reviewDueAt: dateField("Enter a valid date").optional(),
  })
  .superRefine((value, ctx) => {
    const reviewed = parseIsoDate(value.reviewedAt);
    const due = value.reviewDueAt ? parseIsoDate(value.reviewDueAt) : undefined;
    if (reviewed && due && due <= reviewed) {
      ctx.addIssue({ code: "custom", path: ["reviewDueAt"], message: "Next review must be after the review date" });
    }
  });
export type MedicalReviewInput = z.infer<typeof MedicalReviewSchema>;
