import { getFormProps, getInputProps, getTextareaProps, useForm } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
import { Form } from "~/components/ui/form.tsx";
import { ActionToast } from "~/components/admin/action-toast.tsx";
import { AdminPage, Panel } from "~/components/admin/admin-page.tsx";
import { EmailPreview } from "~/components/admin/email-preview.tsx";
import type { ToastData } from "~/components/ui/toast.tsx";
import { CheckboxField, ErrorList, Field, TextareaField } from "~/components/ui/field.tsx";
import { SubmitButton } from "~/components/ui/submit-button.tsx";
import { TextLink } from "~/components/ui/text-link.tsx";
import { invariantResponse, ServiceError } from "~/lib/errors.server.ts";
import { formErrorToast, readFormData } from "~/lib/form.server.ts";
import { redirectWithToast } from "~/lib/toast.server.ts";
import { requireAdmin } from "~/services/auth/guards.server.ts";
import { createTemplate, getTemplate, previewTemplate, updateTemplate } from "~/services/admin/email-manager.server.ts";
import { TemplateSchema, templateDisplayName } from "~/validation/admin-email.ts";
import { uncheckedAsFalse } from "~/validation/fields.ts";
import { NOINDEX } from "~/lib/seo.ts";
import type { Route } from "./+types/email-template-form";

// /admin/email-manager/templates/new and /:id: the template's fields, and beside an existing
// one its preview as sent: subject, variables, rendered HTML and plain text (layout B's side
// panel).

export const meta: Route.MetaFunction = ({ data }) => [{ title: `${data?.template ? "Edit Template" : "New Template"} | Admin` }, NOINDEX];

export async function loader({ params }: Route.LoaderArgs) {
  if (!params.id) return { template: null, preview: null };
  const template = await getTemplate(params.id);
  invariantResponse(template, "Template not found", { status: 404 });
  return { template, preview: previewTemplate(template) };
}

export async function action({ request, params }: Route.ActionArgs) {
  const admin = await requireAdmin(request);
  const formData = uncheckedAsFalse(await readFormData(request), "isActive");
  const submission = parseWithZod(formData, { schema: TemplateSchema });
  // Failure toasts: "Failed to create template" / "Failed to update template", with the server's message.
  const failed = params.id ? "Failed to update template" : "Failed to create template";
  if (submission.status !== "success") return formErrorToast(submission, failed);
  try {
    const template = params.id ? await updateTemplate(admin, params.id, submission.value) : await createTemplate(admin, submission.value);
    return redirectWithToast(`/admin/email-manager/templates/${template.id}`, {
      title: params.id ? "Template Updated" : "Template Created",
      description: `${templateDisplayName(template.name)} is saved (version ${template.version}).`,
    });
  } catch (error) {
    if (!(error instanceof ServiceError)) throw error;
    return formErrorToast(submission, failed, error);
  }
}

export default function TemplateFormScreen({ loaderData: { template, preview }, actionData }: Route.ComponentProps) {
  const [form, fields] = useForm({
    lastResult: actionData?.result,
    defaultValue: template
      ? { ...template, textContent: template.textContent ?? "", variables: template.variables.join(", "), isActive: template.isActive ? "on" : undefined }
      : { isActive: "on" },
    constraint: getZodConstraint(TemplateSchema),
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(uncheckedAsFalse(formData, "isActive"), { schema: TemplateSchema }),
  });
  return (
    <AdminPage title={template ? `Edit ${templateDisplayName(template.name)}` : "Create New Template"}>
      <p className="text-sm">
        <TextLink to="/admin/email-manager">Back to Email Manager</TextLink>
      </p>
      <ActionToast toast={actionData && "toast" in actionData ? (actionData.toast as ToastData) : null} />
      <div className="grid gap-6 xl:grid-cols-2">
        <Panel title="Template">
          <Form method="post" {...getFormProps(form)} className="grid gap-5">
            <Field
              label="Name"
              hint="Letters, digits and underscores, e.g. refund_decision."
              {...getInputProps(fields.name, { type: "text" })}
              errors={fields.name.errors}
            />
            <Field label="Subject" hint="Variables as {{firstName}}." {...getInputProps(fields.subject, { type: "text" })} errors={fields.subject.errors} />
            <TextareaField
              label="HTML content"
              hint="Unsafe markup is removed when it is saved."
              rows={12}
              className="font-mono"
              {...getTextareaProps(fields.htmlContent)}
              errors={fields.htmlContent.errors}
            />
            <TextareaField
              label="Text content"
              hint="Optional: made from the HTML when left empty."
              rows={6}
              {...getTextareaProps(fields.textContent)}
              required={false}
              errors={fields.textContent.errors}
            />
            <Field
              label="Variables"
              hint="Comma-separated, e.g. firstName, amount."
              {...getInputProps(fields.variables, { type: "text" })}
              required={false}
              errors={fields.variables.errors}
            />
            <CheckboxField
              label="Active"
              hint="An inactive template is not sent."
              {...getInputProps(fields.isActive, { type: "checkbox" })}
              errors={fields.isActive.errors}
            />
            <ErrorList id={form.errorId} errors={form.errors} />
            <div>
              <SubmitButton pendingText="Saving...">{template ? "Save Template" : "Create Template"}</SubmitButton>
            </div>
          </Form>
        </Panel>
        {preview ? <EmailPreview preview={preview} /> : null}
      </div>
    </AdminPage>
  );
}
