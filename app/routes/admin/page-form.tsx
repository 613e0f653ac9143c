import { getFormProps, getInputProps, getSelectProps, getTextareaProps, useForm } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
import { useRef } from "react";
import { Form } from "~/components/ui/form.tsx";
import { AdminPage, Panel } from "~/components/admin/admin-page.tsx";
import { RichTextToolbar } from "~/components/admin/rich-text-toolbar.tsx";
import { CheckboxField, ErrorList, Field, SelectField, TextareaField } from "~/components/ui/field.tsx";
import { SubmitButton } from "~/components/ui/submit-button.tsx";
import { TextLink } from "~/components/ui/text-link.tsx";
import { invariantResponse, ServiceError } from "~/lib/errors.server.ts";
import { formError, readFormData } from "~/lib/form.server.ts";
import { redirectWithToast } from "~/lib/toast.server.ts";
import { requireAdmin } from "~/services/auth/guards.server.ts";
import { createPage, getAdminPage, updatePage } from "~/services/admin/content-admin.server.ts";
import { pageSlugFromTitle, PageSchema } from "~/validation/admin-content.ts";
import { PAGE_TYPES } from "~/validation/content.ts";
import { NOINDEX } from "~/lib/seo.ts";
import type { Route } from "./+types/page-form";
import { uncheckedAsFalse } from "~/validation/fields.ts";

// /admin/pages/new and /admin/pages/:id (the page's fields, create and edit). The slug is made
// from the title only when creating: live as the title is typed with JavaScript, on the server
// when it is left blank without.

export const meta: Route.MetaFunction = ({ data }) => [{ title: `${data?.page ? "Edit Page" : "New Page"} | Admin` }, NOINDEX];

export async function loader({ params }: Route.LoaderArgs) {
  if (!params.id) return { page: null };
  const page = await getAdminPage(params.id);
  invariantResponse(page, "Page not found", { status: 404 });
  return { page };
}

export async function action({ request, params }: Route.ActionArgs) {
  const admin = await requireAdmin(request);
  const formData = await readFormData(request);
  uncheckedAsFalse(formData, "isPublished");
  if (!params.id && !String(formData.get("slug") ?? "").trim()) formData.set("slug", pageSlugFromTitle(String(formData.get("title") ?? "")));
  const submission = parseWithZod(formData, { schema: PageSchema });
  if (submission.status !== "success") return formError(submission);
  try {
    const page = params.id ? await updatePage(admin, params.id, submission.value) : await createPage(admin, submission.value);
    return redirectWithToast("/admin/pages", {
      title: params.id ? "Page Updated" : "Page Created",
      description: `${page.title} is ${page.isPublished ? `live at /${page.slug}` : "saved as a draft"}.`,
    });
  } catch (error) {
    if (error instanceof ServiceError) return formError(submission, error);
    throw error;
  }
}

export default function PageFormScreen({ loaderData: { page }, actionData }: Route.ComponentProps) {
  const slugEdited = useRef(Boolean(page));
  const [form, fields] = useForm({
    lastResult: actionData?.result,
    defaultValue: page
      ? { ...page, metaDescription: page.metaDescription ?? "", metaKeywords: page.metaKeywords ?? "", isPublished: page.isPublished ? "on" : undefined }
      : { type: "other", isPublished: "on" },
    constraint: getZodConstraint(PageSchema),
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => {
      uncheckedAsFalse(formData, "isPublished");
      return parseWithZod(formData, { schema: PageSchema });
    },
  });
  return (
    <AdminPage title={page ? `Edit “${page.title}”` : "New Page"}>
      <p className="flex gap-4 text-sm">
        <TextLink to="/admin/pages">Back to Pages</TextLink>
        {page ? (
          <a href={`/pages/${page.slug}`} target="_blank" rel="noopener noreferrer" className="font-medium text-brand-700 hover:underline">
            View page (new tab)
          </a>
        ) : null}
      </p>
      <Panel>
        <Form method="post" {...getFormProps(form)} className="grid max-w-3xl gap-5">
          <Field
            label="Title"
            {...getInputProps(fields.title, { type: "text" })}
            errors={fields.title.errors}
            onChange={(event) => {
              if (slugEdited.current) return;
              const slug = document.getElementById(fields.slug.id) as HTMLInputElement | null;
              if (slug) slug.value = pageSlugFromTitle(event.currentTarget.value);
            }}
          />
          <Field
            label="Slug"
            hint={page ? "The page's address: /{slug}." : "Made from the title; edit it if you like."}
            {...getInputProps(fields.slug, { type: "text" })}
            required={false}
            errors={fields.slug.errors}
            onInput={() => (slugEdited.current = true)}
          />
          <SelectField
            label="Type"
            options={PAGE_TYPES.map((t) => ({ value: t, label: t.charAt(0).toUpperCase() + t.slice(1) }))}
            {...getSelectProps(fields.type)}
            errors={fields.type.errors}
          />
          <CheckboxField
            label="Published"
            hint="Drafts are visible to admins only."
            {...getInputProps(fields.isPublished, { type: "checkbox" })}
            errors={fields.isPublished.errors}
          />
          <div>
            <RichTextToolbar textareaId={fields.content.id} />
            <TextareaField
              label="Content"
              hint="HTML; scripts and unsafe markup are removed when the page is shown."
              rows={16}
              className="font-mono"
              {...getTextareaProps(fields.content)}
              errors={fields.content.errors}
            />
          </div>
          <Field label="Meta description" {...getInputProps(fields.metaDescription, { type: "text" })} errors={fields.metaDescription.errors} />
          <Field label="Meta keywords" {...getInputProps(fields.metaKeywords, { type: "text" })} errors={fields.metaKeywords.errors} />
          <ErrorList id={form.errorId} errors={form.errors} />
          <div>
            <SubmitButton pendingText="Saving...">{page ? "Save Page" : "Create Page"}</SubmitButton>
          </div>
        </Form>
      </Panel>
    </AdminPage>
  );
}
