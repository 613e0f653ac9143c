import { getFormProps, getInputProps, getTextareaProps, useForm } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
import { Form } from "~/components/ui/form.tsx";
import { AdminPage, Panel } from "~/components/admin/admin-page.tsx";
import { ErrorList, Field, TextareaField } from "~/components/ui/field.tsx";
import { SubmitButton } from "~/components/ui/submit-button.tsx";
import { TextLink } from "~/components/ui/text-link.tsx";
import { invariantResponse, ServiceError } from "~/lib/errors.server.ts";
import { formError, readFormData } from "~/lib/form.server.ts";
import { redirectWithToast } from "~/lib/toast.server.ts";
import { requireAdmin } from "~/services/auth/guards.server.ts";
import { getAdminUser, sendUserEmail } from "~/services/admin/user-admin.server.ts";
import { UserEmailSchema } from "~/validation/admin-users.ts";
import { NOINDEX } from "~/lib/seo.ts";
import type { Route } from "./+types/user-email";

// "Send Email" of the users list: a message to one user, really sent and logged
// (docs/architecture.md, "Product decisions": the menu item does something).

export const meta: Route.MetaFunction = () => [{ title: "Send Email | Admin" }, NOINDEX];

export async function loader({ params }: Route.LoaderArgs) {
  const user = await getAdminUser(params.id);
  invariantResponse(user, "User not found", { status: 404 });
  return { user };
}

export async function action({ request, params }: Route.ActionArgs) {
  const admin = await requireAdmin(request);
  const submission = parseWithZod(await readFormData(request), { schema: UserEmailSchema });
  if (submission.status !== "success") return formError(submission);
  try {
    const { user } = await sendUserEmail(admin, params.id, submission.value);
    return redirectWithToast("/admin/users", { title: "Email Sent", description: `Your message to ${user.email} was sent.` });
  } catch (error) {
    if (error instanceof ServiceError && error.status !== 404) return formError(submission, error);
    throw error;
  }
}

export default function SendUserEmail({ loaderData: { user }, actionData }: Route.ComponentProps) {
  const [form, fields] = useForm({
    lastResult: actionData?.result,
    constraint: getZodConstraint(UserEmailSchema),
    shouldValidate: "onSubmit",
    // Errors appear on submit and clear as they are typed away, never on blur: the blur of a
    // click on Submit would move the button from under the pointer.
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: UserEmailSchema }),
  });
  return (
    <AdminPage
      title="Send Email"
      description={
        <>
          To {user.firstName} {user.lastName} &lt;{user.email}&gt;
        </>
      }
    >
      <p className="text-sm">
        <TextLink to="/admin/users">Back to Users</TextLink>
      </p>
      <Panel>
        <Form method="post" {...getFormProps(form)} className="space-y-4">
          <Field label="Subject" {...getInputProps(fields.subject, { type: "text" })} errors={fields.subject.errors} />
          <TextareaField
            label="Message"
            hint="Plain text, or simple HTML (it is sanitised before sending)."
            rows={10}
            {...getTextareaProps(fields.message)}
            errors={fields.message.errors}
          />
          <ErrorList id={form.errorId} errors={form.errors} />
          <SubmitButton pendingText="Sending...">Send Email</SubmitButton>
        </Form>
      </Panel>
    </AdminPage>
  );
}
