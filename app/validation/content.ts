import { z } from "zod";

// Contact form, its messages word for word. The same schema
// serves the /contact form and POST /api/contact.
export const CONTACT_CATEGORIES = [
  { value: "technical", label: "Technical Support" },
  { value: "billing", label: "Billing" },
  { value: "subscription", label: "Subscription" },
  { value: "content", label: "Content" },
  { value: "account", label: "Account" },
  { value: "general", label: "General Inquiry" },
] as const;

type ContactCategory = (typeof CONTACT_CATEGORIES)[number]["value"];
const CATEGORY_VALUES = CONTACT_CATEGORIES.map((c) => c.value) as [ContactCategory, ...ContactCategory[]];

const required = (message: string, max: number, maxMessage: string) => z.string({ error: message }).trim().min(1, message).max(max, maxMessage);

export const ContactSchema = z.object({
  name: required("Name is required", 100, "Name must be at most 100 characters"),
  email: z.string({ error: "Must be a valid email" }).trim().email("Must be a valid email").max(254, "Must be a valid email"),
  subject: required("Subject is required", 200, "Subject must be at most 200 characters"),
  category: z.enum(CATEGORY_VALUES, { error: "Category is required" }),
  message: z
    .string({ error: "Message must be at least 10 characters" })
    .trim()
    .min(10, "Message must be at least 10 characters")
    .max(5000, "Message must be at most 5000 characters"),
});

export type ContactInput = z.infer<typeof ContactSchema>;

export const CONTACT_SUCCESS = "Thank you! Your message has been sent. Our team will respond within 24 hours.";
export const CONTACT_FAILURE = "Failed to send message";

// Page slugs as the page editor makes them (letters, digits, hyphens; underscores tolerated).
// Anything else cannot be a page, so it is a 404 without a query.
export const PageSlugSchema = z.string().regex(/^[A-Za-z0-9][A-Za-z0-9_-]{0,199}$/);

export const PAGE_TYPES = ["legal", "company", "other"] as const;
