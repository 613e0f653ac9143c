import { z } from "zod";

// Messages are the product's, word for word (docs/architecture.md, "Errors and messages").
export const EmailSchema = z.string({ error: "Invalid email address" }).trim().email("Invalid email address").max(254, "Invalid email address");
export const PasswordSchema = z
  .string({ error: "Password must be at least 6 characters" })
  .min(6, "Password must be at least 6 characters")
  .max(200, "Password must be at most 200 characters");

export const SignInSchema = z.object({
  email: EmailSchema,
  password: PasswordSchema,
  redirectTo: z.string().optional(),
});

export const NameSchema = (label: string) =>
  z
    .string({ error: `${label} is required` })
    .trim()
    .min(1, `${label} is required`)
    .max(100, `${label} must be at most 100 characters`);

export const UsernameSchema = z
  .string({ error: "Username must be at least 3 characters" })
  .trim()
  .min(3, "Username must be at least 3 characters")
  .max(30, "Username must be at most 30 characters")
  .regex(/^[a-zA-Z0-9_.-]+$/, "Username may contain only letters, digits, dots, dashes and underscores");

/**
 * "Passwords don't match", on the confirm field, for `.refine(...passwordsMatch)`.
 * Checked even when other fields are invalid, so every message shows at once.
 */
export const passwordsMatch: [
  (v: { password: string; confirmPassword: string }) => boolean,
  { message: string; path: string[]; when: (payload: { value: unknown }) => boolean },
] = [
  (v) => v.password === v.confirmPassword,
  {
    message: "Passwords don't match",
    path: ["confirmPassword"],
    when: ({ value }) => {
      const v = value as { password?: unknown; confirmPassword?: unknown };
      return typeof v.password === "string" && typeof v.confirmPassword === "string";
    },
  },
];

export const SignUpSchema = z
  .object({
    firstName: NameSchema("First name"),
    lastName: NameSchema("Last name"),
    username: UsernameSchema,
    email: EmailSchema,
    password: PasswordSchema,
    confirmPassword: z.string({ error: "Passwords don't match" }),
    // A checkbox posts "on"; JSON clients send true.
    agreeToTerms: z.preprocess(
      (v) => v === true || v === "on" || v === "true",
      z.literal(true, { error: "You must agree to the Terms of Service and Privacy Policy" }),
    ),
    redirectTo: z.string().optional(),
  })
  .refine(...passwordsMatch);

export type SignUpInput = z.infer<typeof SignUpSchema>;

export const RefreshSchema = z.object({
  refreshToken: z.string({ error: "Refresh token is required" }).min(1, "Refresh token is required"),
});

/** Only same-site paths: an open redirect would let a link send a signed-in user anywhere. */
export function safeRedirect(to: unknown, fallback = "/dashboard") {
  if (typeof to !== "string" || !to.startsWith("/") || to.startsWith("//") || to.startsWith("/\\")) return fallback;
  return to;
}

/** A code of the second step: six digits from the authenticator app, or a recovery code. */
export const SecondFactorCodeSchema = z
  .string({ error: "Enter the code from your authenticator app" })
  .trim()
  .min(1, "Enter the code from your authenticator app")
  .max(32, "That code is not valid. Check your authenticator app and try again.");

export const SecondStepSchema = z.object({ code: SecondFactorCodeSchema });

export const MfaVerifySchema = z.object({
  mfaToken: z.string({ error: "mfaToken is required" }).min(1, "mfaToken is required").max(512),
  code: SecondFactorCodeSchema,
});
