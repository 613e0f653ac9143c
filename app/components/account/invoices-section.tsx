import { getFormProps, getInputProps, getTextareaProps, type SubmissionResult, useForm } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
import { Form } from "~/components/ui/form.tsx";
import { EmptyState } from "~/components/ui/empty-state.tsx";
import { ErrorList, Field, TextareaField } from "~/components/ui/field.tsx";
import { Section } from "~/components/ui/section.tsx";
import { SubmitButton } from "~/components/ui/submit-button.tsx";
import { TextLink } from "~/components/ui/text-link.tsx";
import { formatDate } from "~/lib/format.ts";
import { BillingDetailsFields, BillingDetailsSchema } from "~/validation/invoicing.ts";

// Billing's invoices and credit notes, and who the next ones are made out to (decision 029).

type InvoiceRow = {
  id: string;
  kind: "invoice" | "credit_note";
  number: string;
  issuedAt: Date | string;
  description: string;
  currency: string;
  total: number;
};
type Details = { legalName: string; address: string; country: string; taxId: string | null; billingEmail: string | null } | null;

export function InvoicesSection({ invoices }: { invoices: InvoiceRow[] }) {
  return (
    <Section id="invoices" title="Invoices" className="mt-10">
      {invoices.length ? (
        <ul className="mt-4 divide-y divide-slate-100 rounded-xl border border-slate-200 bg-white">
          {invoices.map((invoice) => (
            <li key={invoice.id} className="flex flex-wrap items-center justify-between gap-2 px-4 py-3 text-sm" data-testid="invoice-row">
              <span>
                <TextLink to={`/billing/invoices/${invoice.id}`}>{`${invoice.kind === "invoice" ? "Invoice" : "Credit note"} ${invoice.number}`}</TextLink>
                <span className="text-slate-600">{` · ${formatDate(invoice.issuedAt)} · ${invoice.description}`}</span>
              </span>
              <span className="flex items-center gap-3 whitespace-nowrap">
                {`${invoice.currency} ${invoice.total.toFixed(2)}`}
                <a href={`/billing/invoices/${invoice.id}/pdf`} download className="font-medium text-brand-700 hover:underline">
                  PDF<span className="sr-only">{` of ${invoice.number}`}</span>
                </a>
              </span>
            </li>
          ))}
        </ul>
      ) : (
        <EmptyState className="mt-4" title="No invoices yet." />
      )}
    </Section>
  );
}

/** The form of who invoices are made out to; saved details apply to invoices issued afterwards. */
export function BillingDetailsSection({ details, lastResult }: { details: Details; lastResult: SubmissionResult<string[]> | undefined }) {
  return (
    <Section id="billing-details" title="Invoice details" className="mt-10">
      <p className="mt-2 text-sm text-slate-700">
        Invoices are made out to these details. Changes apply to invoices issued from now on; issued invoices keep what they say.
      </p>
      <PartyDetailsForm
        id="billing-details-form"
        intent="billing-details"
        details={details}
        lastResult={lastResult}
        legalNameHint="Your practice or company, or your own name"
        submitLabel="Save invoice details"
      />
    </Section>
  );
}

/**
 * A legal name, address, country, VAT or tax id and billing e-mail: a member's invoice details
 * and a practice's (decision 030) follow the same rules and read the same.
 */
export function PartyDetailsForm({
  id,
  intent,
  details,
  lastResult,
  legalNameHint,
  submitLabel,
}: {
  id: string;
  intent: string;
  details: Details;
  lastResult: SubmissionResult<string[]> | undefined;
  legalNameHint: string;
  submitLabel: string;
}) {
  const [form, fields] = useForm({
    id,
    lastResult,
    defaultValue: details ? { ...details, taxId: details.taxId ?? "", billingEmail: details.billingEmail ?? "" } : undefined,
    constraint: getZodConstraint(BillingDetailsFields),
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: BillingDetailsSchema }),
  });
  return (
    <Form method="post" {...getFormProps(form)} className="mt-4 grid max-w-xl gap-4">
      <input type="hidden" name="intent" value={intent} />
      <Field label="Legal name" hint={legalNameHint} {...getInputProps(fields.legalName, { type: "text" })} errors={fields.legalName.errors} />
      <TextareaField label="Address" {...getTextareaProps(fields.address)} rows={3} errors={fields.address.errors} />
      <Field label="Country" hint="Two letters, such as DE or US" {...getInputProps(fields.country, { type: "text" })} errors={fields.country.errors} />
      <Field
        label="VAT / Tax ID (optional)"
        hint="EU businesses: with the country prefix, such as DE123456789"
        {...getInputProps(fields.taxId, { type: "text" })}
        errors={fields.taxId.errors}
      />
      <Field
        label="Billing email (optional)"
        hint="Printed on invoices instead of the account's"
        {...getInputProps(fields.billingEmail, { type: "email" })}
        errors={fields.billingEmail.errors}
      />
      <ErrorList id={form.errorId} errors={form.errors} />
      <div>
        <SubmitButton pendingText="Saving...">{submitLabel}</SubmitButton>
      </div>
    </Form>
  );
}
