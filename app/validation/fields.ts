import { z } from "zod";

// Field shapes shared by the admin schemas. Browser-safe.

/** Trimmed text that may be left out (blank counts as left out), at most `max` characters. */
export const optionalText = (max: number, label: string) =>
  z.preprocess(
    (v) => (typeof v === "string" ? v.trim() || undefined : (v ?? undefined)),
    z.string().max(max, `${label} must be at most ${max} characters`).optional(),
  );

/**
 * A yes/no field of the admin forms and calls: JSON sends a boolean, a checkbox sends "on", and a
 * JSON client that leaves it out gets the default (true).
 */
export const flagDefaultTrue = z.preprocess((v) => (v === undefined ? true : v === true || v === "on" || v === "true"), z.boolean());

/**
 * An unchecked checkbox sends nothing, which the schema would read as the default: the HTML
 * forms (server action and in-browser validation alike) say "false" for it before parsing.
 */
export function uncheckedAsFalse(formData: FormData, ...names: string[]) {
  for (const name of names) if (!formData.has(name)) formData.set(name, "false");
  return formData;
}
