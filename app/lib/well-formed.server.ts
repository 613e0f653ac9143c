// Text as PostgreSQL can store it. A string from a JSON body may hold a lone UTF-16 surrogate
// ("\ud800": half of a character, which JSON's escapes allow), and PostgreSQL refuses such text
// in a text or jsonb column, so the write failed with a 500. The JSON decoders pass their values
// through here: the /api body (lib/api-route.server.ts) and the performance reports.
// Forms and queries need nothing: FormData (request.formData(), and the multipart upload's text
// fields, lib/upload.server.ts) and URLSearchParams hold USVStrings, so the platform already
// replaces a lone surrogate by U+FFFD on the way in, as it does malformed UTF-8
// (tests/unit/well-formed.test.ts holds it to that).
//
// Why replace rather than refuse: forms and URLs already read that way, so JSON now reads like
// them; a lone surrogate is what is left of a character a client cut in two (an emoji split by a
// length limit), and refusing a whole contact message or misuse report for it would lose the
// sender's text over one character that no field's meaning depends on.

/** The string with each lone surrogate replaced by U+FFFD (the replacement character). */
export function toWellFormedText(text: string): string {
  return text.isWellFormed() ? text : text.toWellFormed();
}

/** A decoded JSON value with every string in it, keys too, well formed. */
export function toWellFormedInput<T>(value: T): T {
  if (typeof value === "string") return toWellFormedText(value) as T;
  if (Array.isArray(value)) return value.map(toWellFormedInput) as T;
  if (isPlainObject(value)) {
    return Object.fromEntries(Object.entries(value).map(([key, entry]) => [toWellFormedText(key), toWellFormedInput(entry)])) as T;
  }
  return value;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== "object" || value === null) return false;
  const prototype = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}
