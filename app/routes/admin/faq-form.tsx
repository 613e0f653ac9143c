import { getFormProps, getInputProps, getSelectProps, getTextareaProps, useForm } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
import { Form } from "~/components/ui/form.tsx";
import { ActionToast } from "~/components/admin/action-toast.tsx";
import { AdminPage, Panel } from "~/components/admin/admin-page.tsx";
import { CheckboxField, ErrorList, Field, SelectField, TextareaField } from "~/components/ui/field.tsx";
import { SubmitButton } from "~/components/ui/submit-button.tsx";
import { TextLink } from "~/components/ui/text-link.tsx";
import type { ToastData } from "~/components/ui/toast.tsx";
import { invariantResponse, ServiceError } from "~/lib/errors.server.ts";
import { formErrorToast, readFormData } from "~/lib/form.server.ts";
import { redirectWithToast } from "~/lib/toast.server.ts";
import { requireAdmin } from "~/services/auth/guards.server.ts";
import { createFaq, getAdminFaq, listFaqCategoryOptions, updateFaq } from "~/services/admin/content-admin.server.ts";
import { FaqSchema } from "~/validation/admin-content.ts";
import { NOINDEX } from "~/lib/seo.ts";
import type { Route } from "./+types/faq-form";
import { uncheckedAsFalse } from "~/validation/fields.ts";

// /admin/faqs/new and /admin/faqs/:id, reached from the Help Center's admin controls.

export const meta: Route.MetaFunction = ({ data: loaded }) => [{ title: `${loaded?.faq ? "Edit FAQ" : "Add FAQ"} | Admin` }, NOINDEX];

export async function loader({ params }: Route.LoaderArgs) {
  const [faq, categories] = await Promise.all([params.id ? getAdminFaq(params.id) : null, listFaqCategoryOptions()]);
  if (params.id) invariantResponse(faq, "FAQ not found", { status: 404 });
  return { faq, categories };
}

export async function action({ request, params }: Route.ActionArgs) {
  const admin = await requireAdmin(request);
  const formData = await readFormData(request);
  uncheckedAsFalse(formData, "isActive");
  const submission = parseWithZod(formData, { schema: FaqSchema });
  // Failure toasts: "Error creating FAQ" / "Error updating FAQ", each with the server message.
  const failed = params.id ? "Error updating FAQ" : "Error creating FAQ";
  if (submission.status !== "success") return formErrorToast(submission, failed);
  try {
    if (params.id) await updateFaq(admin, params.id, submission.value);
    else await createFaq(admin, submission.value);
  } catch (error) {
    if (!(error instanceof ServiceError)) throw error;
    return formErrorToast(submission, failed, error);
  }
  return redirectWithToast("/help", {
    title: params.id ? "FAQ Updated" : "FAQ Created",
    description: submission.value.isActive ? "It is on the Help Center." : "It is saved as inactive: only admins see it.",
  });
}

export default function FaqFormScreen({ loaderData: { faq, categories }, actionData }: Route.ComponentProps) {
  const [form, fields] = useForm({
    lastResult: actionData?.result,
    defaultValue: faq
      ? { ...faq, categoryId: faq.categoryId ?? "", sortOrder: String(faq.sortOrder), isActive: faq.isActive ? "on" : undefined }
      : { isActive: "on", sortOrder: "0" },
    constraint: getZodConstraint(FaqSchema),
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => {
      uncheckedAsFalse(formData, "isActive");
      return parseWithZod(formData, { schema: FaqSchema });
    },
  });
  return (
    <AdminPage title={faq ? "Edit FAQ" : "Add FAQ"} description="Questions and answers of the Help Center.">
      <p className="text-sm">
        <TextLink to="/help">Back to the Help Center</TextLink>
      </p>
      <ActionToast toast={actionData && "toast" in actionData ? (actionData.toast as ToastData) : null} />
      <Panel>
        <Form method="post" {...getFormProps(form)} className="grid max-w-3xl gap-5">
          <Field label="Question" {...getInputProps(fields.question, { type: "text" })} errors={fields.question.errors} />
          <TextareaField
            label="Answer"
            hint="HTML is allowed; it is sanitised when shown."
            rows={8}
            {...getTextareaProps(fields.answer)}
            errors={fields.answer.errors}
          />
          <SelectField
            label="Category"
            placeholder="General (no category)"
            options={categories.map((c) => ({ value: c.id, label: c.isActive ? c.name : `${c.name} (inactive)` }))}
            {...getSelectProps(fields.categoryId)}
            errors={fields.categoryId.errors}
          />
          <Field
            label="Sort order"
            hint="Lower comes first."
            inputMode="numeric"
            {...getInputProps(fields.sortOrder, { type: "text" })}
            errors={fields.sortOrder.errors}
          />
          <CheckboxField label="Active (shown to visitors)" {...getInputProps(fields.isActive, { type: "checkbox" })} errors={fields.isActive.errors} />
          <ErrorList id={form.errorId} errors={form.errors} />
          <div>
            <SubmitButton pendingText="Saving...">{faq ? "Save FAQ" : "Add FAQ"}</SubmitButton>
          </div>
        </Form>
      </Panel>
    </AdminPage>
  );
}
