import { getFormProps, getInputProps, getTextareaProps, type SubmissionResult, useForm } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
import { useState } from "react";
import { Form } from "~/components/ui/form.tsx";
import { AdminPage, Panel } from "~/components/admin/admin-page.tsx";
import { CheckboxField, ErrorList, Field, TextareaField } from "~/components/ui/field.tsx";
import { SubmitButton } from "~/components/ui/submit-button.tsx";
import { ServiceError } from "~/lib/errors.server.ts";
import { formError, readFormData } from "~/lib/form.server.ts";
import { redirectWithToast } from "~/lib/toast.server.ts";
import type { PublicUser } from "~/services/auth/credentials.server.ts";
import { requireAdminStepUp } from "~/services/auth/step-up.server.ts";
import { listAdminSettings, saveSettings } from "~/services/site/settings.server.ts";
import { getCurrentLicenceTerms } from "~/services/licensing/licence-terms.server.ts";
import { formatLicenceTermsTitle } from "~/services/licensing/licence-terms-text.ts";
import { InvoicingSchema, PublicDetailsSchema, roundedYearlyPrice, SettingsFormSchema } from "~/validation/admin-settings.ts";
import { NOINDEX } from "~/lib/seo.ts";
import type { Route } from "./+types/settings";

export const meta: Route.MetaFunction = () => [{ title: "Settings | Admin" }, NOINDEX];

export async function loader() {
  const [settings, terms] = await Promise.all([listAdminSettings(), getCurrentLicenceTerms()]);
  const value = (key: string) => settings.find((s) => s.key === key)?.value ?? "";
  return {
    platformName: value("platform_name"),
    licenceTerms: formatLicenceTermsTitle(terms),
    annualPrice: value("global_subscription_yearly_price"),
    seatPrice: value("practice_seat_price"),
    requireMedicalReview: value("require_medical_review") === "true" ? "on" : undefined,
    analyticsRetentionDays: value("analytics_retention_days"),
    backupKeep: value("backup_keep"),
    publicDetails: {
      supportEmail: value("support_email"),
      supportPhone: value("support_phone"),
      supportAddress: value("support_address"),
      testimonialQuote: value("testimonial_quote"),
      testimonialAuthor: value("testimonial_author"),
      searchSynonyms: value("search_synonyms"),
    },
    invoicing: {
      sellerLegalName: value("seller_legal_name"),
      sellerAddress: value("seller_address"),
      sellerTaxId: value("seller_tax_id"),
      sellerCountry: value("seller_country"),
      taxRates: value("tax_rates"),
    },
  };
}

export async function action({ request }: Route.ActionArgs) {
  // Both forms of this page change settings (one the premium price): each needs a recent second factor.
  const admin = await requireAdminStepUp(request);
  const formData = await readFormData(request);
  if (formData.get("intent") === "public-details") return savePublicDetails(admin, formData);
  if (formData.get("intent") === "invoicing") return saveInvoicing(admin, formData);
  const submission = parseWithZod(formData, { schema: SettingsFormSchema });
  if (submission.status !== "success") return formError(submission);
  try {
    // Save All Settings: every field in one transaction.
    await saveSettings(admin, [
      { key: "platform_name", value: submission.value.platformName },
      { key: "global_subscription_yearly_price", value: submission.value.annualPrice },
      { key: "require_medical_review", value: String(submission.value.requireMedicalReview) },
      ...(submission.value.seatPrice ? [{ key: "practice_seat_price", value: submission.value.seatPrice }] : []),
      ...(submission.value.analyticsRetentionDays ? [{ key: "analytics_retention_days", value: submission.value.analyticsRetentionDays }] : []),
      ...(submission.value.backupKeep ? [{ key: "backup_keep", value: submission.value.backupKeep }] : []),
    ]);
  } catch (error) {
    if (error instanceof ServiceError) return formError(submission, error);
    throw error;
  }
  return redirectWithToast("/admin/settings", { title: "Settings Saved", description: "New subscriptions use the new settings from now on." });
}

/** The contact details and testimonial visitors see, saved together. */
async function savePublicDetails(admin: PublicUser, formData: FormData) {
  const submission = parseWithZod(formData, { schema: PublicDetailsSchema });
  if (submission.status !== "success") return formError(submission, undefined, { intent: "public-details" as const });
  const value = submission.value;
  try {
    await saveSettings(admin, [
      { key: "support_email", value: value.supportEmail },
      { key: "support_phone", value: value.supportPhone },
      { key: "support_address", value: value.supportAddress },
      { key: "testimonial_quote", value: value.testimonialQuote },
      { key: "testimonial_author", value: value.testimonialAuthor },
      { key: "search_synonyms", value: value.searchSynonyms },
    ]);
  } catch (error) {
    if (error instanceof ServiceError) return formError(submission, error, { intent: "public-details" as const });
    throw error;
  }
  return redirectWithToast("/admin/settings", { title: "Settings Saved", description: "The contact page and the sales pages show the new details." });
}

/** The seller's details and tax rates the next invoices print (issued ones keep theirs). */
async function saveInvoicing(admin: PublicUser, formData: FormData) {
  const submission = parseWithZod(formData, { schema: InvoicingSchema });
  if (submission.status !== "success") return formError(submission, undefined, { intent: "invoicing" as const });
  const value = submission.value;
  try {
    await saveSettings(admin, [
      { key: "seller_legal_name", value: value.sellerLegalName },
      { key: "seller_address", value: value.sellerAddress },
      { key: "seller_tax_id", value: value.sellerTaxId },
      { key: "seller_country", value: value.sellerCountry },
      { key: "tax_rates", value: value.taxRates },
    ]);
  } catch (error) {
    if (error instanceof ServiceError) return formError(submission, error, { intent: "invoicing" as const });
    throw error;
  }
  return redirectWithToast("/admin/settings", { title: "Settings Saved", description: "Invoices issued from now on print the new details." });
}

export default function AdminSettings({ loaderData, actionData }: Route.ComponentProps) {
  const intent = actionData && "intent" in actionData ? actionData.intent : undefined;
  const publicDetailsResult = intent === "public-details" ? actionData?.result : undefined;
  const invoicingResult = intent === "invoicing" ? actionData?.result : undefined;
  const [form, fields] = useForm({
    lastResult: intent ? undefined : actionData?.result,
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
          <Field
            label="Practice seat price (USD a year)"
            hint="Each seat of a practice's license beyond the 3 included: a practice of 5 pays for 2 more."
            {...getInputProps(fields.seatPrice, { type: "text" })}
            inputMode="decimal"
            errors={fields.seatPrice.errors}
          />
          <ul className="list-disc space-y-1 pl-5 text-sm text-slate-600">
            <li>Changes apply immediately to new subscriptions.</li>
            <li>Existing active subscriptions keep their original price.</li>
            <li>Prices are in USD through a card payment provider.</li>
          </ul>
          <CheckboxField
            label="Require a medical review to publish"
            hint="When ticked, an animation can be published only while it has a current medical review (a reviewing doctor and a next review date still ahead). On by default; either way a new animation is a draft until its video is processed and it is published."
            {...getInputProps(fields.requireMedicalReview, { type: "checkbox" })}
            errors={fields.requireMedicalReview.errors}
          />
          <Field
            label="Keep playback events (days)"
            hint="How long the raw events of licensed embeds and patient links are kept before deletion; the daily numbers licensees see are kept. 1 to 3650, 90 by default."
            {...getInputProps(fields.analyticsRetentionDays, { type: "text" })}
            inputMode="numeric"
            errors={fields.analyticsRetentionDays.errors}
          />
          <Field
            label="Backups kept"
            hint="How many archives of the daily backup are kept; the job deletes its own older ones (never an archive of npm run backup). 1 to 365, 7 by default."
            {...getInputProps(fields.backupKeep, { type: "text" })}
            inputMode="numeric"
            errors={fields.backupKeep.errors}
          />
          <ErrorList id={form.errorId} errors={form.errors} />
          <SubmitButton pendingText="Saving...">Save All Settings</SubmitButton>
        </Form>
      </Panel>
      <PublicDetailsForm defaultValue={loaderData.publicDetails} lastResult={publicDetailsResult} />
      <InvoicingForm defaultValue={loaderData.invoicing} lastResult={invoicingResult} />
      {/* A new version is written by a migration for now: it has no form (decision 028). */}
      <Panel title="License terms">
        <p className="text-sm text-slate-700" data-testid="licence-terms-version">
          In effect: {loaderData.licenceTerms}. The FAQs, the Terms page, checkout, download packages and certificates show it.
        </p>
      </Panel>
    </AdminPage>
  );
}

/**
 * Contact details and the testimonial. The demo ships invented ones, which the public pages
 * label "Demo content" until they are replaced here; an empty testimonial shows none.
 */
function PublicDetailsForm({
  defaultValue,
  lastResult,
}: {
  defaultValue: Route.ComponentProps["loaderData"]["publicDetails"];
  lastResult: SubmissionResult<string[]> | undefined;
}) {
  const [form, fields] = useForm({
    id: "public-details",
    lastResult,
    defaultValue,
    constraint: getZodConstraint(PublicDetailsSchema),
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: PublicDetailsSchema }),
  });
  return (
    <Panel>
      <h2 className="mb-4 text-lg font-semibold">Contact details, testimonial and search</h2>
      <Form method="post" {...getFormProps(form)} className="max-w-xl space-y-5">
        <input type="hidden" name="intent" value="public-details" />
        <Field label="Support Email" {...getInputProps(fields.supportEmail, { type: "email" })} errors={fields.supportEmail.errors} />
        <Field label="Support Phone" {...getInputProps(fields.supportPhone, { type: "text" })} errors={fields.supportPhone.errors} />
        <TextareaField label="Support Address" {...getTextareaProps(fields.supportAddress)} rows={2} errors={fields.supportAddress.errors} />
        <TextareaField
          label="Testimonial"
          hint="Shown on the premium and license pages. Leave empty to show none."
          {...getTextareaProps(fields.testimonialQuote)}
          rows={3}
          errors={fields.testimonialQuote.errors}
        />
        <Field label="Testimonial Author" {...getInputProps(fields.testimonialAuthor, { type: "text" })} errors={fields.testimonialAuthor.errors} />
        <TextareaField
          label="Search synonyms"
          hint="Lay words search understands, one per line as lay words=medical term: nose job=rhinoplasty."
          {...getTextareaProps(fields.searchSynonyms)}
          rows={6}
          errors={fields.searchSynonyms.errors}
        />
        <ErrorList id={form.errorId} errors={form.errors} />
        <SubmitButton pendingText="Saving...">Save Contact Details</SubmitButton>
      </Form>
    </Panel>
  );
}

/** What every invoice prints as the seller, and the tax rate per buyer country (decision 029). */
function InvoicingForm({
  defaultValue,
  lastResult,
}: {
  defaultValue: Route.ComponentProps["loaderData"]["invoicing"];
  lastResult: SubmissionResult<string[]> | undefined;
}) {
  const [form, fields] = useForm({
    id: "invoicing",
    lastResult,
    defaultValue,
    constraint: getZodConstraint(InvoicingSchema),
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: InvoicingSchema }),
  });
  return (
    <Panel>
      <h2 className="mb-4 text-lg font-semibold">Invoices</h2>
      <Form method="post" {...getFormProps(form)} className="max-w-xl space-y-5">
        <input type="hidden" name="intent" value="invoicing" />
        <Field
          label="Seller Legal Name"
          hint="Printed as the seller on every invoice. Empty: the platform name."
          {...getInputProps(fields.sellerLegalName, { type: "text" })}
          errors={fields.sellerLegalName.errors}
        />
        <TextareaField label="Seller Address" {...getTextareaProps(fields.sellerAddress)} rows={3} errors={fields.sellerAddress.errors} />
        <Field label="Seller VAT / Tax ID" {...getInputProps(fields.sellerTaxId, { type: "text" })} errors={fields.sellerTaxId.errors} />
        <Field
          label="Seller Country"
          hint="Two letters, such as DE. A business buyer elsewhere in the EU with a VAT number is billed by reverse charge."
          {...getInputProps(fields.sellerCountry, { type: "text" })}
          errors={fields.sellerCountry.errors}
        />
        <TextareaField
          label="Tax Rates"
          hint="The tax included in prices, per buyer country: DE=19, FR=20. A country not listed is charged no tax."
          {...getTextareaProps(fields.taxRates)}
          rows={3}
          errors={fields.taxRates.errors}
        />
        <ErrorList id={form.errorId} errors={form.errors} />
        <SubmitButton pendingText="Saving...">Save Invoice Details</SubmitButton>
      </Form>
    </Panel>
  );
}
