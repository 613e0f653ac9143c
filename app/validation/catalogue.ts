import { z } from "zod";

// Schemas shared by the catalogue's HTML routes and /api calls (safe for the browser).

function isHttpUrl(value: string) {
  try {
    const url = new URL(value);
    return url.protocol === "http:" || url.protocol === "https:";
  } catch {
    return false;
  }
}

/** The misuse report (animationId, animationTitle, reporterEmail, message, link). */
export const MisuseReportSchema = z.object({
  animationId: z.guid("Animation not found").optional(),
  animationTitle: z.string().trim().max(300).optional(),
  reporterEmail: z
    .string({ error: "Email is required" })
    .trim()
    .min(1, { error: "Email is required", abort: true })
    .email("Must be a valid email")
    .max(254, "Must be a valid email"),
  message: z.string({ error: "Message is required" }).trim().min(1, "Message is required").max(5000, "Message must be at most 5000 characters"),
  // Optional; an empty field counts as absent.
  link: z
    .string()
    .trim()
    .max(2000, "Link must be at most 2000 characters")
    .optional()
    .transform((v) => v || undefined)
    .refine((v) => v === undefined || isHttpUrl(v), "Must be a valid URL"),
});

export type MisuseReportInput = z.infer<typeof MisuseReportSchema>;

/** The misuse report's failure title (spec: toast 'Error submitting report'). */
export const REPORT_FAILED = "Error submitting report";

export const MAX_PAGE_SIZE = 100;

const positiveInt = (name: string, max: number) =>
  z
    .string()
    .regex(/^\d+$/, `${name} must be a whole number from 1 to ${max}`)
    .transform(Number)
    .refine((n) => n >= 1 && n <= max, `${name} must be a whole number from 1 to ${max}`);

/**
 * GET /api/animations query. Invalid values answer 400 rather than being guessed at: `page`
 * from 1, `limit` 1-100 (the largest page a client asks for is 100), `light` true/false.
 */
export const AnimationListQuerySchema = z.object({
  category: z.string().trim().max(200, "category is too long").optional(),
  search: z.string().trim().max(100, "search must be at most 100 characters").optional(),
  page: positiveInt("page", 1_000_000).optional(),
  limit: positiveInt("limit", MAX_PAGE_SIZE).optional(),
  light: z.enum(["true", "false", "1", "0"], { error: "light must be true or false" }).optional(),
});
