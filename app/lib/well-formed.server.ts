// Text as PostgreSQL can store it. A string from a JSON body may hold a lone UTF-16 surrogate
// ("\ud800": half of a character, which JSON's escapes allow), and PostgreSQL refuses such text
// in a text or jsonb column, so the write failed with a 500. Every decoder of input passes its
// strings through here: the /api body and query (lib/api-route.server.ts), the HTML forms
// (lib/form.server.ts) and the text fields of a multipart upload (lib/upload.server.ts).
//
// Why replace rather than refuse: the WHATWG decoders behind request.formData() and URL
// percent-decoding already turn malformed UTF-8 into U+FFFD without a word, so JSON now reads the
// same way as a form; a lone surrogate is what is left of a character a client cut in two (an
// emoji split by a length limit), and refusing a whole contact message or misuse report for it
// would lose the sender's text over one character that no field's meaning depends on.

/** The string with each lone surrogate replaced by U+FFFD (the replacement character). */
export function toWellFormedText(text: string): string {
  return text.isWellFormed() ? text : text.toWellFormed();
}

/** A decoded value (JSON, form or query entries) with every string in it, keys too, well formed. */
export function toWellFormedInput<T>(value: T): T {
  if (typeof value === "string") return toWellFormedText(value) as T;
  if (Array.isArray(value)) return value.map(toWellFormedInput) as T;
  if (isPlainObject(value)) {
    return Object.fromEntries(Object.entries(value).map(([key, entry]) => [toWellFormedText(key), toWellFormedInput(entry)])) as T;
  }
  return value;
}

/** The form's text entries well formed; files are kept as they came. */
export function toWellFormedFormData(formData: FormData): FormData {
  let clean = true;
  for (const [name, entry] of formData) if (!name.isWellFormed() || (typeof entry === "string" && !entry.isWellFormed())) clean = false;
  if (clean) return formData;
  const result = new FormData();
  for (const [name, entry] of formData) result.append(toWellFormedText(name), typeof entry === "string" ? toWellFormedText(entry) : entry);
  return result;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== "object" || value === null) return false;
  const prototype = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}
