import { getFormProps, getInputProps, useForm } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
import { useState } from "react";
import { Form } from "react-router";
import { AdminPage, Panel } from "~/components/admin/admin-page.tsx";
import { CheckboxField, ErrorList, Field } from "~/components/ui/field.tsx";
import { SubmitButton } from "~/components/ui/submit-button.tsx";
import { ServiceError } from "~/lib/errors.server.ts";
import { formError, readFormData } from "~/lib/form.server.ts";
import { redirectWithToast } from "~/lib/toast.server.ts";
import { requireAdmin } from "~/services/auth/guards.server.ts";
import { listAdminSettings, saveSettings } from "~/services/settings.server.ts";
import { roundedYearlyPrice, SettingsFormSchema } from "~/validation/admin-settings.ts";
import type { Route } from "./+types/settings";

export const meta: Route.MetaFunction = () => [{ title: "Settings | Admin" }];

export async function loader() {
  const settings = await listAdminSettings();
  const value = (key: string) => settings.find((s) => s.key === key)?.value ?? "";
  return {
    platformName: value("platform_name"),
    annualPrice: value("global_subscription_yearly_price"),
    requireMedicalReview: value("require_medical_review") === "true" ? "on" : undefined,
  };
}

export async function action({ request }: Route.ActionArgs) {
  const admin = await requireAdmin(request);
  const submission = parseWithZod(await readFormData(request), { schema: SettingsFormSchema });
  if (submission.status !== "success") return formError(submission);
  try {
    // Save All Settings: every field in one transaction.
    await saveSettings(admin, [
      { key: "platform_name", value: submission.value.platformName },
      { key: "global_subscription_yearly_price", value: submission.value.annualPrice },
      { key: "require_medical_review", value: String(submission.value.requireMedicalReview) },
    ]);
  } catch (error) {
    if (error instanceof ServiceError) return formError(submission, error);
    throw error;
  }
  return redirectWithToast("/admin/settings", { title: "Settings Saved", description: "New subscriptions use the new settings from now on." });
}

export default function AdminSettings({ loaderData, actionData }: Route.ComponentProps) {
  const [form, fields] = useForm({
    lastResult: actionData?.result,
    defaultValue: loaderData,
    constraint: getZodConstraint(SettingsFormSchema),
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: SettingsFormSchema }),
  });
  // The preview follows the input as it is typed (with JavaScript); the server renders it too.
  const [price, setPrice] = useState(String(fields.annualPrice.initialValue ?? loaderData.annualPrice));
  const rounded = roundedYearlyPrice(price);
  return (
    <AdminPage title="Settings" description="Platform-wide settings. Save All Settings saves them all.">
      <Panel>
        <Form method="post" {...getFormProps(form)} className="max-w-xl space-y-5">
          <Field label="Platform Name" {...getInputProps(fields.platformName, { type: "text" })} errors={fields.platformName.errors} />
          <div>
            <Field
              label="Annual Price (USD)"
              {...getInputProps(fields.annualPrice, { type: "text" })}
              inputMode="decimal"
              errors={fields.annualPrice.errors}
              onChange={(event) => setPrice(event.currentTarget.value)}
            />
            <p className="mt-2 text-sm text-slate-700" aria-live="polite" data-testid="price-preview">
              {rounded ? `Premium: $${rounded} per year` : "Enter a price to see the preview"}
            </p>
          </div>
          <ul className="list-disc space-y-1 pl-5 text-sm text-slate-600">
            <li>Changes apply immediately to new subscriptions.</li>
            <li>Existing active subscriptions keep their original price.</li>
            <li>Prices are in USD through a card payment provider.</li>
          </ul>
          <CheckboxField
            label="Require a medical review to publish"
            hint="When ticked, an animation can be published only while it has a current medical review (a reviewing doctor and a next review date still ahead). Off by default."
            {...getInputProps(fields.requireMedicalReview, { type: "checkbox" })}
            errors={fields.requireMedicalReview.errors}
          />
          <ErrorList id={form.errorId} errors={form.errors} />
          <SubmitButton pendingText="Saving...">Save All Settings</SubmitButton>
        </Form>
      </Panel>
    </AdminPage>
  );
}
