import { z } from "zod";

// Patient links (issue 46): the clinic's form and every message a clinic or a patient reads.
// Browser-safe: the pages import the messages and the labels.

/** The languages a patient link's player speaks (lib/i18n). */
export const LINK_LANGUAGES = ["en", "es"] as const;
export const LINK_LANGUAGE_LABEL: Record<(typeof LINK_LANGUAGES)[number], string> = { en: "English", es: "Español" };
/** A link works this long unless the clinic chooses otherwise, and never past its licence's end. */
export const DEFAULT_LINK_DAYS = 30;
/** The most animations one link plays in a row. */
export const MAX_LINK_ANIMATIONS = 20;
/** E-mails one licence may send to patients per hour (a clinic's day of appointments, not a list). */
export const LINK_EMAILS_PER_HOUR = 30;

export const LICENCE_NOT_FOUND = "License not found";
export const LINK_NOT_FOUND = "Patient link not found";
export const LICENCE_NOT_ACTIVE = "This license has ended: renew it to share its animations with patients.";
export const MANAGERS_ONLY = "Only an owner or a manager of the practice can share its animations with patients.";
export const NOT_COVERED = "Choose animations this license covers";
export const EXPIRY_PAST_LICENCE = (end: string) => `A link cannot outlive its license: choose ${end} or earlier.`;
export const EXPIRY_IN_PAST = "Choose a date after today";
export const LINK_REVOKED = "Link revoked";
export const LINK_SENT = (email: string) => `Link sent to ${email}`;
export const LINK_CREATED = "Patient link created";
/** What a patient reads on a link that has expired or was revoked: neutral, nothing for sale. */
export const LINK_ENDED = "This link is no longer available";
export const LINK_ENDED_DETAIL = "Please contact your clinic if you still need it.";

const optionalEmail = z.preprocess(
  (value) => (typeof value === "string" && value.trim() === "" ? undefined : typeof value === "string" ? value.trim().toLowerCase() : value),
  z.email({ error: "Enter a valid email address" }).max(254).optional(),
);

export const PatientLinkSchema = z.object({
  animationIds: z.preprocess(
    (value) => (value === undefined ? [] : Array.isArray(value) ? value : [value]),
    z
      .array(z.uuid({ error: NOT_COVERED }))
      .min(1, { error: "Choose at least one animation" })
      .max(MAX_LINK_ANIMATIONS, { error: `Choose at most ${MAX_LINK_ANIMATIONS} animations` }),
  ),
  // Conform reads an empty field as missing: both are "".
  label: z
    .string()
    .trim()
    .max(120, { error: "Keep the label under 120 characters" })
    .optional()
    .transform((v) => v ?? ""),
  note: z
    .string()
    .trim()
    .max(1000, { error: "Keep the note under 1,000 characters" })
    .optional()
    .transform((v) => v ?? ""),
  language: z.enum(LINK_LANGUAGES, { error: "Choose English or Español" }).default("en"),
  /** yyyy-mm-dd; empty: DEFAULT_LINK_DAYS from today (or the licence's end, if sooner). */
  expiresOn: z.preprocess(
    (v) => (typeof v === "string" && v.trim() !== "" ? v.trim() : undefined),
    z
      .string()
      .regex(/^\d{4}-\d{2}-\d{2}$/, { error: "Enter a date" })
      .optional(),
  ),
  recipientEmail: optionalEmail,
});
export type PatientLinkInput = z.infer<typeof PatientLinkSchema>;

export const SendPatientLinkSchema = z.object({
  recipientEmail: z.preprocess((v) => (typeof v === "string" ? v.trim().toLowerCase() : v), z.email({ error: "Enter a valid email address" }).max(254)),
});
