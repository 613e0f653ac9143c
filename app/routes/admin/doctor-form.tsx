import { getFormProps, getInputProps, getTextareaProps, useForm } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
import { Form } from "~/components/ui/form.tsx";
import { AdminPage, Panel } from "~/components/admin/admin-page.tsx";
import { FileField } from "~/components/admin/file-field.tsx";
import { CheckboxField, ErrorList, Field, TextareaField } from "~/components/ui/field.tsx";
import { SubmitButton } from "~/components/ui/submit-button.tsx";
import { TextLink } from "~/components/ui/text-link.tsx";
import { invariantResponse, ServiceError } from "~/lib/errors.server.ts";
import { formError } from "~/lib/form.server.ts";
import { redirectWithToast } from "~/lib/toast.server.ts";
import { discardUploads, readUploadForm } from "~/lib/upload-form.server.ts";
import { requireAdmin } from "~/services/auth/guards.server.ts";
import { createDoctor, getAdminDoctor, updateDoctor } from "~/services/catalogue/doctor-admin.server.ts";
import { DoctorSchema } from "~/validation/admin-catalogue.ts";
import { NOINDEX } from "~/lib/seo.ts";
import type { Route } from "./+types/doctor-form";
import { uncheckedAsFalse } from "~/validation/fields.ts";

// /admin/doctors/new and /admin/doctors/:id: one form for both.

export const meta: Route.MetaFunction = ({ data }) => [{ title: `${data?.doctor ? "Edit Doctor" : "New Doctor"} | Admin` }, NOINDEX];

export async function loader({ params }: Route.LoaderArgs) {
  if (!params.id) return { doctor: null };
  const doctor = await getAdminDoctor(params.id);
  invariantResponse(doctor, "Doctor not found", { status: 404 });
  return { doctor };
}

export async function action({ request, params }: Route.ActionArgs) {
  const admin = await requireAdmin(request);
  const upload = await readUploadForm(request, { photo: "doctor-photo" });
  uncheckedAsFalse(upload.formData, "isActive");
  const submission = parseWithZod(upload.formData, { schema: DoctorSchema });
  if (Object.keys(upload.errors).length) {
    return formError(submission, new ServiceError(upload.errors.photo?.[0] ?? "Upload failed", 400, "photo"));
  }
  if (submission.status !== "success") {
    await discardUploads(upload.stored);
    return formError(submission);
  }
  try {
    const doctor = params.id ? await updateDoctor(admin, params.id, submission.value) : await createDoctor(admin, submission.value);
    return redirectWithToast("/admin/doctors", { title: params.id ? "Doctor Updated" : "Doctor Created", description: `${doctor.name} was saved.` });
  } catch (error) {
    await discardUploads(upload.stored);
    if (error instanceof ServiceError) return formError(submission, error);
    throw error;
  }
}

export default function DoctorFormScreen({ loaderData: { doctor }, actionData }: Route.ComponentProps) {
  const [form, fields] = useForm({
    lastResult: actionData?.result,
    defaultValue: doctor ? { ...doctor, isActive: doctor.isActive ? "on" : undefined } : { isActive: "on" },
    constraint: getZodConstraint(DoctorSchema),
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: DoctorSchema }),
  });
  return (
    <AdminPage title={doctor ? `Edit ${doctor.name}` : "New Doctor"}>
      <p className="text-sm">
        <TextLink to="/admin/doctors">Back to Doctors</TextLink>
      </p>
      <Panel>
        <Form method="post" encType="multipart/form-data" {...getFormProps(form)} className="grid max-w-2xl gap-5">
          <Field label="Name" {...getInputProps(fields.name, { type: "text" })} errors={fields.name.errors} />
          <Field label="Specialty" {...getInputProps(fields.specialty, { type: "text" })} errors={fields.specialty.errors} />
          <Field label="Slug" hint="Leave blank to make it from the name." {...getInputProps(fields.slug, { type: "text" })} errors={fields.slug.errors} />
          <TextareaField label="About" rows={6} {...getTextareaProps(fields.description)} errors={fields.description.errors} />
          <FileField
            label="Photo"
            name="photo"
            kind="doctor-photo"
            accept=".jpg,.jpeg,.png,image/jpeg,image/png"
            maxMB={5}
            hint="JPG or PNG, up to 5 MB; 300x300 px advised."
            current={doctor?.photo}
            image
            errors={fields.photo.errors}
          />
          <Field label="Website" hint="https://… (optional)" {...getInputProps(fields.website, { type: "url" })} errors={fields.website.errors} />
          <Field
            label="Instagram"
            hint="A handle (@name) or a full link (optional)"
            {...getInputProps(fields.instagram, { type: "text" })}
            errors={fields.instagram.errors}
          />
          <CheckboxField label="Active (shown on the public site)" {...getInputProps(fields.isActive, { type: "checkbox" })} errors={fields.isActive.errors} />
          <ErrorList id={form.errorId} errors={form.errors} />
          <div>
            <SubmitButton pendingText="Saving...">{doctor ? "Save Doctor" : "Create Doctor"}</SubmitButton>
          </div>
        </Form>
      </Panel>
    </AdminPage>
  );
}
