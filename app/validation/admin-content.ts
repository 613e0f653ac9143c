import { z } from "zod";
import { flagDefaultTrue, optionalText } from "./fields.ts";
import { PAGE_TYPES } from "./content.ts";
import { slugify } from "./slug.ts";

// Pages and FAQs in the back office (/admin/pages, the Help Center's admin controls and their
// /api calls). Shared by the forms and the /api calls. Browser-safe.

/**
 * The page slug rule: "lowercase, drop characters other than letters, digits, spaces and hyphens,
 * whitespace to hyphens, collapse repeated hyphens, trim edge hyphens". Accented letters are
 * letters, so they are kept as their plain letter rather than dropped.
 */
export const pageSlugFromTitle = (title: string) => slugify(title, { max: 200 });

// First path segments the site answers itself: a page there would be hidden at /{slug}.
export const RESERVED_PAGE_SLUGS = [
  "admin",
  "animation",
  "animations",
  "api",
  "assets",
  "auth",
  "billing",
  "category",
  "category-license",
  "checkout",
  "contact",
  "dashboard",
  "doctors",
  "forgot-password",
  "global-license",
  "healthz",
  "help",
  "individual-license",
  "legacy",
  "licences",
  "my-animations",
  "notifications",
  "objects",
  "pages",
  "premium",
  "profile",
  "purchase",
  "refund",
  "reset-password",
  "search",
  "sign-out",
  "unsubscribe",
  "verify-email",
  "watch",
];

export const PageSchema = z.object({
  title: z.string({ error: "Title is required" }).trim().min(1, "Title is required").max(200, "Title must be at most 200 characters"),
  slug: z
    .string({ error: "Slug is required" })
    .trim()
    .toLowerCase()
    .min(1, "Slug is required")
    .max(200, "Slug must be at most 200 characters")
    // Empty is left to the "required" message alone.
    .regex(/^$|^[a-z0-9]+(?:-[a-z0-9]+)*$/, "Slug may contain only lowercase letters, digits and single hyphens")
    .refine((slug) => !RESERVED_PAGE_SLUGS.includes(slug), "This address is used by the site: choose another slug"),
  content: z.string({ error: "Content is required" }).trim().min(1, "Content is required").max(200_000, "Content is too long"),
  metaDescription: optionalText(300, "Meta description"),
  metaKeywords: optionalText(300, "Meta keywords"),
  type: z.enum(PAGE_TYPES, { error: "Type must be legal, company or other" }).default("other"),
  isPublished: flagDefaultTrue,
});
export type PageInput = z.infer<typeof PageSchema>;

export const PageListQuerySchema = z.object({
  search: z.string().trim().max(200).optional().catch(undefined),
  type: z.enum(PAGE_TYPES).optional().catch(undefined),
  page: z.coerce.number().int().min(1).max(100_000).catch(1).default(1),
});

export const FaqSchema = z.object({
  question: z.string({ error: "Question is required" }).trim().min(1, "Question is required").max(500, "Question must be at most 500 characters"),
  answer: z.string({ error: "Answer is required" }).trim().min(1, "Answer is required").max(20_000, "Answer is too long"),
  categoryId: z.preprocess((v) => (v === "" || v === undefined ? null : v), z.string().uuid("Choose an existing FAQ category").nullable()),
  sortOrder: z.preprocess(
    (v) => (v === "" || v === undefined || v === null ? 0 : v),
    z.coerce.number().int("Sort order must be a whole number").min(0).max(10_000),
  ),
  isActive: flagDefaultTrue,
});
export type FaqInput = z.infer<typeof FaqSchema>;
