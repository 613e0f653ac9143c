import { getFormProps, getInputProps, getSelectProps, getTextareaProps, useForm } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
import { data } from "react-router";
import { Form } from "~/components/ui/form.tsx";
import { ActionToast } from "~/components/admin/action-toast.tsx";
import { AdminPage, Panel } from "~/components/admin/admin-page.tsx";
import { FileField } from "~/components/admin/file-field.tsx";
import { CheckboxField, ErrorList, Field, SelectField, TextareaField } from "~/components/ui/field.tsx";
import { SubmitButton } from "~/components/ui/submit-button.tsx";
import { StepUpNotice } from "~/components/admin/step-up-notice.tsx";
import { TextLink } from "~/components/ui/text-link.tsx";
import type { ToastData } from "~/components/ui/toast.tsx";
import { invariantResponse, ServiceError } from "~/lib/errors.server.ts";
import { formError } from "~/lib/form.server.ts";
import { redirectWithToast } from "~/lib/toast.server.ts";
import { discardUploads, readUploadForm } from "~/lib/upload-form.server.ts";
import { requireAdmin } from "~/services/auth/guards.server.ts";
import { requireStepUp, stepUpLinkUnlessRecent } from "~/services/auth/step-up.server.ts";
import { createCategory, getAdminCategory, listMainCategoryOptions, updateCategory } from "~/services/catalogue/category-admin.server.ts";
import { CATEGORY_NAME_REQUIRED, CategorySchema } from "~/validation/admin-catalogue.ts";
import { NOINDEX } from "~/lib/seo.ts";
import type { Route } from "./+types/category-form";
import { uncheckedAsFalse } from "~/validation/fields.ts";

// /admin/categories/new?type=main|sub and /admin/categories/:id. Main categories have no parent
// and no price (decision 009): their form has neither field.

export const meta: Route.MetaFunction = ({ data: loaded }) => [{ title: `${loaded?.category ? "Edit Category" : "New Category"} | Admin` }, NOINDEX];

export async function loader({ request, params, url }: Route.LoaderArgs) {
  const [category, mains] = await Promise.all([params.id ? getAdminCategory(params.id) : null, listMainCategoryOptions()]);
  if (params.id) invariantResponse(category, "Category not found", { status: 404 });
  const sub = category ? category.parentId !== null : url.searchParams.get("type") === "sub";
  return { category, sub, mains: mains.filter((main) => main.id !== category?.id), stepUpLink: sub ? await stepUpLinkUnlessRecent(request) : null };
}

// A blank name gives a toast "Validation Error" with "Category name is required".
const VALIDATION_TOAST = { title: "Validation Error", description: CATEGORY_NAME_REQUIRED, type: "error" as const };

export async function action({ request, params }: Route.ActionArgs) {
  const admin = await requireAdmin(request);
  const upload = await readUploadForm(request, { thumbnail: "thumbnail" });
  const formData = upload.formData;
  uncheckedAsFalse(formData, "isActive");
  // parentId is dropped on the Main tab.
  if (formData.get("level") !== "sub") {
    formData.delete("parentId");
    formData.delete("yearlyPrice");
  }
  const submission = parseWithZod(formData, { schema: CategorySchema });
  if (Object.keys(upload.errors).length) return formError(submission, new ServiceError(upload.errors.thumbnail?.[0] ?? "Upload failed", 400, "thumbnail"));
  if (submission.status !== "success") {
    await discardUploads(upload.stored);
    const reply = formError(submission);
    const blankName = submission.error?.name?.includes(CATEGORY_NAME_REQUIRED);
    return blankName ? data({ ...reply.data, toast: VALIDATION_TOAST }, reply.init ?? undefined) : reply;
  }
  try {
    const category = params.id
      ? await updateCategory(admin, params.id, submission.value, () => requireStepUp(request))
      : await createCategory(admin, submission.value, () => requireStepUp(request));
    const back = category.parentId ? "/admin/categories?tab=sub" : "/admin/categories";
    return redirectWithToast(back, { title: params.id ? "Category Updated" : "Category Created", description: `${category.name} was saved.` });
  } catch (error) {
    await discardUploads(upload.stored);
    if (error instanceof ServiceError) return formError(submission, error);
    throw error;
  }
}

export default function CategoryFormScreen({ loaderData: { category, sub, mains, stepUpLink }, actionData }: Route.ComponentProps) {
  const [form, fields] = useForm({
    lastResult: actionData?.result,
    defaultValue: category
      ? {
          ...category,
          sortOrder: String(category.sortOrder),
          yearlyPrice: category.yearlyPrice?.toFixed(2) ?? "",
          isActive: category.isActive ? "on" : undefined,
        }
      : { isActive: "on", sortOrder: "0" },
    constraint: getZodConstraint(CategorySchema),
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
    // No client-side validation: the server answers a blank name with its toast
    // ("Validation Error"), which a check in the browser would skip.
  });
  const kind = sub ? "Sub-category" : "Main Category";
  return (
    <AdminPage title={category ? `Edit ${category.name}` : `New ${kind}`}>
      <p className="text-sm">
        <TextLink to={sub ? "/admin/categories?tab=sub" : "/admin/categories"}>Back to Categories</TextLink>
      </p>
      <ActionToast toast={actionData && "toast" in actionData ? (actionData.toast as ToastData) : null} />
      <Panel>
        <Form method="post" encType="multipart/form-data" {...getFormProps(form)} className="grid max-w-2xl gap-5">
          <input type="hidden" name="level" value={sub ? "sub" : "main"} />
          <Field label="Name" {...getInputProps(fields.name, { type: "text" })} required={false} errors={fields.name.errors} />
          <Field label="Slug" hint="Leave blank to make it from the name." {...getInputProps(fields.slug, { type: "text" })} errors={fields.slug.errors} />
          <TextareaField label="Description" rows={4} {...getTextareaProps(fields.description)} errors={fields.description.errors} />
          {sub ? (
            <>
              <SelectField
                label="Main category"
                placeholder="Choose a main category"
                options={mains.map((main) => ({ value: main.id, label: main.name }))}
                {...getSelectProps(fields.parentId)}
                errors={fields.parentId.errors}
              />
              <Field
                label="Yearly price (USD)"
                hint="The category license's price; leave blank for the default $299."
                inputMode="decimal"
                {...getInputProps(fields.yearlyPrice, { type: "text" })}
                errors={fields.yearlyPrice.errors}
              />
              <StepUpNotice link={stepUpLink} action={category ? "Changing the yearly price" : "Setting a yearly price"} />
            </>
          ) : null}
          <FileField
            label="Thumbnail"
            name="thumbnail"
            kind="thumbnail"
            accept=".jpg,.jpeg,.png,image/jpeg,image/png"
            maxMB={10}
            hint="JPG or PNG, up to 10 MB."
            current={category?.thumbnail}
            image
            errors={fields.thumbnail.errors}
          />
          <Field
            label="Sort order"
            hint="Lower comes first."
            inputMode="numeric"
            {...getInputProps(fields.sortOrder, { type: "text" })}
            errors={fields.sortOrder.errors}
          />
          <CheckboxField label="Active (shown on the public site)" {...getInputProps(fields.isActive, { type: "checkbox" })} errors={fields.isActive.errors} />
          <ErrorList id={form.errorId} errors={form.errors} />
          <div>
            <SubmitButton pendingText="Saving...">{category ? "Save Category" : `Create ${kind}`}</SubmitButton>
          </div>
        </Form>
      </Panel>
    </AdminPage>
  );
}
