import type { SubmissionResult } from "@conform-to/react";
import { getZodConstraint } from "@conform-to/zod/v4";
import { z } from "zod";

/** A control's checks, as the browser's Constraint Validation names them, plus `mismatch` (another field's value). */
export type ConstraintKind = "valueMissing" | "typeMismatch" | "tooShort" | "tooLong" | "patternMismatch" | "mismatch";

/** What a field says when a check fails, word for word the schema's message for it. */
export type ConstraintMessages = Partial<Record<ConstraintKind, string>>;

const required = new WeakMap<z.ZodObject, ReturnType<typeof getZodConstraint>>();

/** The input types a string schema's format asks the browser to check. */
const TYPES: Record<string, "email" | "url"> = { email: "email", url: "url" };

/** Whether a string schema trims its value before it checks it (`.trim()` is an overwrite check). */
function trims(field: z.ZodString) {
  return (field._zod.def.checks ?? []).some((check) => (check._zod.def as { check: string }).check === "overwrite");
}

/** A string schema's `.regex()`, read from its checks (zod keeps it there, not in a public field). */
function patternOf(field: z.ZodString): RegExp | undefined {
  for (const check of field._zod.def.checks ?? []) {
    const def = check._zod.def as { check: string; format?: string; pattern?: RegExp };
    if (def.check === "string_format" && def.format === "regex" && def.pattern) return def.pattern;
  }
  return undefined;
}

type Control = {
  /** The form's id: the control's is `{form}-{name}`. */
  form: string;
  name: string;
  /** A field whose value this one repeats (a password's confirmation): the schema's refinement says what a difference is called. */
  sameAs?: string;
};

/**
 * The attributes a form that does not hydrate gives each control, so that its page script
 * (lib/dom/form-check.ts) can say what the server would before the form is sent: `required`
 * (conform's getZodConstraint), a string schema's length bounds, input type and pattern (zod's
 * own `minLength`, `maxLength`, `format` and regex check; getZodConstraint does not read them
 * through `.trim()`), and, in `data-messages`, the schema's own message for each check: the one it
 * gives a value that fails that check, so the page and the server can never word one differently.
 */
export function constraintProps(schema: z.ZodObject, control: Control) {
  // The same for every render: worked out once per control (each probe parses the schema).
  let kept = propsKept.get(schema);
  if (!kept) propsKept.set(schema, (kept = new Map()));
  const key = `${control.form}/${control.name}/${control.sameAs ?? ""}`;
  if (!kept.has(key)) kept.set(key, deriveProps(schema, control));
  return kept.get(key)!;
}

const propsKept = new WeakMap<z.ZodObject, Map<string, ReturnType<typeof deriveProps>>>();

function deriveProps(schema: z.ZodObject, { form, name, sameAs }: Control) {
  if (!required.has(schema)) required.set(schema, getZodConstraint(schema));
  const field = schema.shape[name] as z.ZodType;
  const string = field instanceof z.ZodString ? field : null;
  const minLength = string?.minLength ?? undefined;
  const maxLength = string?.maxLength ?? undefined;
  const type = string?.format ? TYPES[string.format] : undefined;
  const pattern = string ? patternOf(string) : undefined;
  const messageFor = (value: string) => {
    const result = field.safeParse(value);
    return result.success ? undefined : result.error.issues[0]?.message;
  };
  const messages: ConstraintMessages = {};
  const isRequired = required.get(schema)![name]?.required;
  // Only what the schema refuses: a confirmation may be empty as far as its own schema goes.
  if (isRequired) messages.valueMissing = messageFor("");
  if (type) messages.typeMismatch = messageFor("x");
  if (minLength && minLength > 1) messages.tooShort = messageFor("x".repeat(minLength - 1));
  if (maxLength) messages.tooLong = messageFor("x".repeat(maxLength + 1));
  if (pattern) {
    // A value of an allowed length the pattern refuses.
    const refused = ["!", "~", " "].map((c) => c.repeat(Math.max(minLength ?? 1, 1))).find((value) => !pattern.test(value));
    if (refused) messages.patternMismatch = messageFor(refused);
  }
  if (sameAs) {
    const result = schema.safeParse({ [sameAs]: "a", [name]: "b" });
    messages.mismatch = result.success ? undefined : result.error.issues.find((issue) => issue.path.join(".") === name)?.message;
  }
  return {
    name,
    id: `${form}-${name}`,
    type,
    required: isRequired,
    minLength: minLength && minLength > 1 ? minLength : undefined,
    maxLength,
    "data-trim": string && trims(string) ? true : undefined,
    "data-pattern": pattern && messages.patternMismatch ? pattern.source : undefined,
    "data-same-as": sameAs ? `${form}-${sameAs}` : undefined,
    "data-messages": JSON.stringify(messages),
  };
}

/**
 * A form's fields as the server left them (a rejected submission's answers, never a hidden
 * field's, and its messages; before one, `initial`) and as its page script checks them
 * (`constraintProps`): spread `field(name)` into a Field. `formErrors` are the form's own (above
 * or below its fields); `invalid` whether the server refused anything.
 */
export function formFields(schema: z.ZodObject, form: string, lastResult: SubmissionResult<string[]> | null | undefined, initial: Record<string, string> = {}) {
  const errors = (lastResult?.error ?? {}) as Record<string, string[] | null | undefined>;
  const values = (lastResult ? (lastResult.initialValue ?? {}) : initial) as Record<string, unknown>;
  return {
    invalid: Object.values(errors).some((messages) => messages?.length),
    formErrors: errors[""] ?? undefined,
    errorsOf: (name: string) => errors[name] ?? undefined,
    valueOf: (name: string) => values[name],
    field: (name: string, options: { sameAs?: string } = {}) => ({
      ...constraintProps(schema, { form, name, ...options }),
      defaultValue: typeof values[name] === "string" ? values[name] : "",
      errors: errors[name] ?? undefined,
    }),
  };
}
