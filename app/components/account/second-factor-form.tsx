import { getFormProps, getInputProps, type SubmissionResult, useForm } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
import type { ReactNode } from "react";
import { Form } from "~/components/ui/form.tsx";
import { ErrorList, Field } from "~/components/ui/field.tsx";
import { SubmitButton } from "~/components/ui/submit-button.tsx";
import { SecondStepSchema } from "~/validation/auth-forms.ts";

/**
 * The code form of the second sign-in step and of step-up: six digits from the authenticator
 * app, or a recovery code. A plain POST, so it works without JavaScript; `children` go after
 * it (the passkey button, which needs JavaScript).
 */
export function SecondFactorForm({
  id,
  lastResult,
  submitLabel,
  hidden,
  children,
}: {
  id: string;
  lastResult: SubmissionResult<string[]> | null | undefined;
  submitLabel: string;
  hidden?: Record<string, string>;
  children?: ReactNode;
}) {
  const [form, fields] = useForm({
    id,
    lastResult,
    constraint: getZodConstraint(SecondStepSchema),
    shouldValidate: "onSubmit",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: SecondStepSchema }),
  });
  return (
    <>
      <Form method="post" className="mt-6 flex flex-col gap-4" {...getFormProps(form)}>
        {Object.entries(hidden ?? {}).map(([name, value]) => (
          <input key={name} type="hidden" name={name} value={value} />
        ))}
        <Field
          label="Authentication code"
          autoComplete="one-time-code"
          spellCheck={false}
          autoCapitalize="off"
          hint="Six digits from your authenticator app. Lost your phone? Enter one of your recovery codes instead."
          errors={fields.code.errors}
          {...getInputProps(fields.code, { type: "text" })}
        />
        <ErrorList id={form.errorId} errors={form.errors} />
        <SubmitButton pendingText="Checking...">{submitLabel}</SubmitButton>
      </Form>
      {children}
    </>
  );
}
