import { z } from "zod";
import { flagDefaultTrue, optionalText } from "./fields.ts";
import { slugify } from "./slug.ts";

// Doctors and categories in the back office. One schema per form, shared by the HTML action
// and the /api call. Browser-safe.

export const SLUG_RULE = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
export const SLUG_INVALID = "Slug may contain only lowercase letters, digits and single hyphens";

/** A slug from a name: lowercase, letters and digits, words joined by single hyphens. */
export const slugFromName = (name: string) => slugify(name, { max: 100 });

const slugField = z.preprocess(
  (v) => (typeof v === "string" ? v.trim().toLowerCase() || undefined : (v ?? undefined)),
  z.string().max(100, "Slug must be at most 100 characters").regex(SLUG_RULE, SLUG_INVALID).optional(),
);

/** A stored upload's path (/objects/uploads/<id>) or nothing. */
const storedPath = z.preprocess(
  (v) => (typeof v === "string" ? v.trim() || undefined : (v ?? undefined)),
  z
    .string()
    .max(300)
    .regex(/^\/objects\/uploads\/[0-9a-f-]{36}$/i, "Upload not found")
    .optional(),
);

export const VALID_URL = "Must be a valid URL";

export const DoctorSchema = z.object({
  name: z.string({ error: "Name is required" }).trim().min(1, "Name is required").max(120, "Name must be at most 120 characters"),
  specialty: z.string({ error: "Specialty is required" }).trim().min(1, "Specialty is required").max(120, "Specialty must be at most 120 characters"),
  slug: slugField,
  description: optionalText(5000, "Description"),
  photo: storedPath,
  website: z.preprocess(
    (v) => (typeof v === "string" ? v.trim() || undefined : (v ?? undefined)),
    z
      .string()
      .max(500, VALID_URL)
      .refine((value) => {
        try {
          return ["http:", "https:"].includes(new URL(value).protocol);
        } catch {
          return false;
        }
      }, VALID_URL)
      .optional(),
  ),
  instagram: optionalText(200, "Instagram"),
  isActive: flagDefaultTrue,
});
export type DoctorInput = z.infer<typeof DoctorSchema>;

export const CATEGORY_NAME_REQUIRED = "Category name is required";
export const PRICE_INVALID = "Yearly price must be a positive amount (at most two decimals)";

export const CategorySchema = z.object({
  name: z.string({ error: CATEGORY_NAME_REQUIRED }).trim().min(1, CATEGORY_NAME_REQUIRED).max(120, "Category name must be at most 120 characters"),
  slug: slugField,
  description: optionalText(5000, "Description"),
  thumbnail: storedPath,
  // An empty yearlyPrice or parentId becomes null; main categories carry no price.
  yearlyPrice: z.preprocess(
    (v) => (v === "" || v === null || v === undefined ? null : typeof v === "number" ? String(v) : typeof v === "string" ? v.trim().replace(/^\$/, "") : v),
    z
      .string()
      .regex(/^\d{1,8}(\.\d{1,2})?$/, PRICE_INVALID)
      .refine((value) => Number(value) > 0, PRICE_INVALID)
      .nullable(),
  ),
  parentId: z.preprocess((v) => (v === "" || v === undefined ? null : v), z.string().uuid("Choose an existing main category").nullable()),
  sortOrder: z.preprocess(
    (v) => (v === "" || v === undefined || v === null ? 0 : v),
    z.coerce.number().int("Sort order must be a whole number").min(0).max(10_000),
  ),
  isActive: flagDefaultTrue,
});
export type CategoryInput = z.infer<typeof CategorySchema>;

export const AdminListQuerySchema = z.object({
  search: z.string().trim().max(200).optional().catch(undefined),
  page: z.coerce.number().int().min(1).max(100_000).catch(1).default(1),
});

// ---- animations ----

/**
 * The animation slug rule: "The slug is derived from the title: lowercased, punctuation removed, spaces
 * and hyphens turned into underscores."
 */
export const animationSlugFromTitle = (title: string) => slugify(title, { separator: "_", max: 150 });

const requiredPath = (message: string) =>
  z.preprocess(
    (v) => (typeof v === "string" ? v.trim() : (v ?? "")),
    // Empty is left to the "required" message alone.
    z
      .string({ error: message })
      .min(1, message)
      .max(300)
      .regex(/^$|^\/objects\/uploads\/[0-9a-f-]{36}$/i, "Upload not found"),
  );

export const DURATION_MIN = "Duration must be at least 1 second";
export const DURATION_MAX = "Duration cannot exceed 1 hour";

export const AnimationSchema = z.object({
  title: z.string({ error: "Title is required" }).trim().min(1, "Title is required").max(200, "Title must be at most 200 characters"),
  description: z.string({ error: "Description is required" }).trim().min(1, "Description is required").max(20_000, "Description is too long"),
  coverImage: requiredPath("Cover image is required"),
  fullVideo: requiredPath("Full video is required"),
  downloadFile: requiredPath("Download file is required"),
  individualPrice: z.preprocess(
    (v) => (typeof v === "number" ? String(v) : typeof v === "string" ? v.trim().replace(/^\$/, "") : (v ?? "")),
    z
      .string({ error: "Individual price is required" })
      .min(1, "Individual price is required")
      .regex(/^$|^\d{1,8}(\.\d{1,2})?$/, "Individual price must be a positive amount (at most two decimals)")
      .refine((value) => value === "" || Number(value) > 0, "Individual price must be a positive amount (at most two decimals)"),
  ),
  duration: z.preprocess(
    (v) => (v === "" || v === undefined || v === null ? 120 : v),
    z.coerce
      .number({ error: "Duration must be a number of seconds" })
      .int("Duration must be a whole number of seconds")
      .min(1, DURATION_MIN)
      .max(3600, DURATION_MAX),
  ),
  categoryId: z.preprocess(
    (v) => (v === null || v === undefined ? "" : v),
    z
      .string()
      .min(1, "Category is required")
      .regex(/^$|^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i, "Category is required"),
  ),
  slug: z.preprocess(
    (v) => (typeof v === "string" ? v.trim().toLowerCase() || undefined : (v ?? undefined)),
    z
      .string()
      .max(150, "Slug must be at most 150 characters")
      .regex(/^[a-z0-9]+(?:_[a-z0-9]+)*$/, "Slug may contain only lowercase letters, digits and single underscores")
      .optional(),
  ),
  doctorIds: z.preprocess(
    (v) => (v === undefined || v === null || v === "" ? [] : Array.isArray(v) ? v : [v]),
    z.array(z.string().uuid("Unknown doctor")).max(50, "At most 50 doctors"),
  ),
  // "Publish when ready" (decision 032): an unchecked box sends nothing, so absent is false.
  publishWhenReady: z.preprocess((v) => v === true || v === "on" || v === "true", z.boolean()),
});
export type AnimationInput = z.infer<typeof AnimationSchema>;

/**
 * Where an animation stands on its way to the catalogue (decision 032), in the admin list's
 * order: the key is the ?state= value, the label what the list prints.
 */
export const PUBLISH_STATES = {
  draft: "Draft",
  processing: "Processing",
  review: "Ready for review",
  ready: "Ready to publish",
  published: "Published",
  "review-due": "Review due",
} as const;
export type PublishState = keyof typeof PUBLISH_STATES;

export const AnimationListQuerySchema = z.object({
  search: z.string().trim().max(200).optional().catch(undefined),
  category: z.string().uuid().optional().catch(undefined),
  state: z
    .enum(Object.keys(PUBLISH_STATES) as [PublishState, ...PublishState[]])
    .optional()
    .catch(undefined),
  page: z.coerce.number().int().min(1).max(100_000).catch(1).default(1),
});
