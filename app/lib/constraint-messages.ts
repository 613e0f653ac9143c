import { getZodConstraint } from "@conform-to/zod/v4";
import { z } from "zod";

/** A control's checks, as the browser's Constraint Validation names them. */
export type ConstraintKind = "valueMissing" | "typeMismatch" | "tooShort" | "tooLong";

/** What a field says when a check fails, word for word the schema's message for it. */
export type ConstraintMessages = Partial<Record<ConstraintKind, string>>;

const required = new WeakMap<z.ZodObject, ReturnType<typeof getZodConstraint>>();

/** The input types a string schema's format asks the browser to check. */
const TYPES: Record<string, "email" | "url"> = { email: "email", url: "url" };

/**
 * The attributes a form that does not hydrate gives each control, so that its page script
 * (lib/dom/form-check.ts) can say what the server would before the form is sent: `required`
 * (conform's getZodConstraint), the length bounds and the input type of a string schema (zod's
 * own `minLength`, `maxLength` and `format`; getZodConstraint does not read them through
 * `.trim()`), and, in `data-messages`, the schema's own message for each check: the one it gives
 * a value that fails only that check, so the page and the server can never word one differently.
 */
export function constraintProps(schema: z.ZodObject, { form, name }: { form: string; name: string }) {
  if (!required.has(schema)) required.set(schema, getZodConstraint(schema));
  const field = schema.shape[name] as z.ZodType;
  const string = field instanceof z.ZodString ? field : null;
  const minLength = string?.minLength ?? undefined;
  const maxLength = string?.maxLength ?? undefined;
  const type = string?.format ? TYPES[string.format] : undefined;
  const messageFor = (value: string) => {
    const result = field.safeParse(value);
    return result.success ? undefined : result.error.issues[0]?.message;
  };
  const messages: ConstraintMessages = {};
  if (required.get(schema)![name]?.required) messages.valueMissing = messageFor("");
  if (type) messages.typeMismatch = messageFor("x");
  if (minLength && minLength > 1) messages.tooShort = messageFor("x".repeat(minLength - 1));
  if (maxLength) messages.tooLong = messageFor("x".repeat(maxLength + 1));
  return {
    name,
    id: `${form}-${name}`,
    type,
    required: required.get(schema)![name]?.required,
    minLength: minLength && minLength > 1 ? minLength : undefined,
    maxLength,
    "data-messages": JSON.stringify(messages),
  };
}
