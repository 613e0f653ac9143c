import { z } from "zod";
import { EmailSchema, NameSchema, PasswordSchema, passwordsMatch, UsernameSchema } from "./auth-forms.ts";

// Messages are the product's, word for word (docs/architecture.md, "Errors and
// messages"). Shared by the HTML forms and the /api routes.

export const NO_VERIFY_TOKEN = "Invalid verification link - no token provided";

export const VerifyEmailSchema = z.object({
  token: z.string({ error: NO_VERIFY_TOKEN }).trim().min(1, NO_VERIFY_TOKEN).max(200, NO_VERIFY_TOKEN),
});

/** The answer to every forgot-password request, known address or not (no enumeration). */
export const RESET_EMAIL_SENT = "If your email exists in our system, you'll receive a password reset link shortly.";

export const ForgotPasswordSchema = z.object({ email: EmailSchema });

export const ResetPasswordSchema = z
  .object({
    token: z.string({ error: "Reset token is required" }).trim().min(1, "Reset token is required").max(200, "Reset token is required"),
    password: PasswordSchema,
    confirmPassword: z.string({ error: "Passwords don't match" }),
  })
  .refine(...passwordsMatch);

const VALID_EMAIL = "Must be a valid email";
const ContactEmailSchema = z.string({ error: VALID_EMAIL }).trim().toLowerCase().email(VALID_EMAIL).max(254, VALID_EMAIL);

export const ProfileSchema = z.object({
  firstName: NameSchema("First name"),
  lastName: NameSchema("Last name"),
  username: UsernameSchema,
  email: ContactEmailSchema,
});

export type ProfileInput = z.infer<typeof ProfileSchema>;

// The four switches of the screen; the server also keeps emailNewsletter and emailRenewalReminders.
export const PREFERENCE_KEYS = ["emailNewAnimations", "emailPromotions", "emailSubscriptionUpdates", "emailSecurityAlerts"] as const;
export const ALL_PREFERENCE_KEYS = [...PREFERENCE_KEYS, "emailNewsletter", "emailRenewalReminders"] as const;
export type PreferenceKey = (typeof ALL_PREFERENCE_KEYS)[number];

/** Form checkbox semantics: a checked box posts "on", an unchecked one is absent (= false). */
const Checkbox = z.preprocess((v) => v === true || v === "on" || v === "true", z.boolean());
export const PreferencesFormSchema = z.object(
  Object.fromEntries(PREFERENCE_KEYS.map((k) => [k, Checkbox])) as Record<(typeof PREFERENCE_KEYS)[number], typeof Checkbox>,
);

/** The /api PUT: any subset of the booleans; a missing key keeps its current value. */
const Flag = z.boolean({ error: "Preferences must be true or false" }).optional();
export const PreferencesApiSchema = z.object(Object.fromEntries(ALL_PREFERENCE_KEYS.map((k) => [k, Flag])) as Record<PreferenceKey, typeof Flag>);

export const REFUND_REASONS = [
  { value: "not-satisfied", label: "Not satisfied with the content" },
  { value: "technical-issues", label: "Technical issues" },
  { value: "duplicate-purchase", label: "Duplicate purchase" },
  { value: "content-mismatch", label: "Content did not match the description" },
  { value: "billing-error", label: "Billing error" },
  { value: "other", label: "Other" },
] as const;

/** Any 8-4-4-4-12 hex id (PostgreSQL's uuid accepts every version; seeds may use fixed ids). */
export const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const REASON_VALUES = REFUND_REASONS.map((r) => r.value) as [string, ...string[]];
const SELECT_SUBSCRIPTION = "Please select a subscription";
const DETAIL = "Please provide a detailed explanation (minimum 20 characters)";

export const RefundRequestSchema = z.object({
  subscriptionId: z.string({ error: SELECT_SUBSCRIPTION }).trim().regex(UUID_RE, SELECT_SUBSCRIPTION),
  // Set when the request starts from a payment in the billing history (/refund?payment={id}).
  paymentId: z.preprocess((v) => (v === "" || v === null ? undefined : v), z.string().trim().regex(UUID_RE, "Payment not found").optional()),
  reason: z.enum(REASON_VALUES, { error: "Please select a reason" }),
  description: z.string({ error: DETAIL }).trim().min(20, DETAIL).max(5000, "Please keep the explanation under 5000 characters"),
  contactEmail: ContactEmailSchema,
});

export type RefundRequestInput = z.infer<typeof RefundRequestSchema>;

export const LibrarySearchSchema = z.object({
  q: z.string().trim().max(200).optional().catch(undefined),
  page: z.coerce.number().int().min(1).max(10_000).catch(1).default(1),
  /** Only the animations of one kind of licence. */
  licence: z.enum(["individual", "category"]).optional().catch(undefined),
  /** Only one category's animations (and its subcategories'), by id. */
  category: z.uuid().optional().catch(undefined),
});
