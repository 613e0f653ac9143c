import { getFormProps, getInputProps, getSelectProps, getTextareaProps, useForm } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
import { Form } from "~/components/ui/form.tsx";
import { Link } from "~/components/ui/link.tsx";
import { GeneralErrorBoundary } from "~/components/error-boundary.tsx";
import { ButtonLink } from "~/components/ui/button.tsx";
import { EmptyState } from "~/components/ui/empty-state.tsx";
import { Section } from "~/components/ui/section.tsx";
import { ErrorList, Field, SelectField, TextareaField } from "~/components/ui/field.tsx";
import { SubmitButton } from "~/components/ui/submit-button.tsx";
import { formatDate, formatMoney } from "~/lib/format.ts";
import { asRouteError, ServiceError } from "~/lib/errors.server.ts";
import { formError, readFormData } from "~/lib/form.server.ts";
import { logger } from "~/lib/logger.server.ts";
import { redirectWithToast } from "~/lib/toast.server.ts";
import { requireUser } from "~/services/auth/guards.server.ts";
import { getRefundForm, requestRefund } from "~/services/commerce/refunds.server.ts";
import { REFUND_REASONS, RefundRequestSchema } from "~/validation/account.ts";
import { NOINDEX } from "~/lib/seo.ts";
import type { Route } from "./+types/refund";

export const meta: Route.MetaFunction = () => [{ title: "Request Refund | Medanim" }, NOINDEX];

const FAILED = "Failed to submit refund request";

export async function loader({ request, url }: Route.LoaderArgs) {
  // Anonymous visitors go to /auth.
  const user = await requireUser(request);
  const { subscriptions, unavailable, payment } = await getRefundForm(user.id, url.searchParams.get("payment")).catch(asRouteError);
  return { email: user.email, subscriptions, unavailable, payment };
}

export async function action({ request }: Route.ActionArgs) {
  const user = await requireUser(request);
  const submission = parseWithZod(await readFormData(request), { schema: RefundRequestSchema });
  if (submission.status !== "success") return formError(submission);
  try {
    await requestRefund(user, submission.value);
  } catch (error) {
    if (error instanceof ServiceError) return formError(submission, error);
    logger.error({ err: error }, "refund request failed");
    return redirectWithToast("/refund", { title: FAILED, description: "Please try again or contact support.", type: "error" });
  }
  return redirectWithToast("/dashboard", {
    title: "Refund Request Submitted",
    description: "We will review your request within 3-5 business days.",
  });
}

export default function Refund({ loaderData: { email, subscriptions, unavailable, payment }, actionData }: Route.ComponentProps) {
  const [form, fields] = useForm({
    id: "refund",
    lastResult: actionData?.result,
    constraint: getZodConstraint(RefundRequestSchema),
    defaultValue: {
      subscriptionId: payment?.subscriptionId ?? (subscriptions.length === 1 ? subscriptions[0]!.id : ""),
      contactEmail: email,
      paymentId: payment?.subscriptionId ? payment.id : "",
    },
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: RefundRequestSchema }),
  });
  const hasErrors = Boolean(form.errors?.length);

  return (
    <main className="mx-auto max-w-3xl px-4 py-10">
      <h1 className="text-3xl font-bold">Request Refund</h1>
      <p className="mt-1 text-slate-600">
        Refunds are available within 30 days of purchase. We review every request within 3-5 business days; an approved refund reaches your payment method
        within 7-10 business days.
      </p>

      {subscriptions.length === 0 ? (
        <EmptyState className="mt-8" titleAs="h2" title="No Active Subscriptions" message="You have no subscriptions or licenses that can be refunded." />
      ) : (
        <Form method="post" className="mt-8 flex flex-col gap-5 rounded-2xl border border-slate-200 bg-white p-6 shadow-sm" {...getFormProps(form)}>
          {payment ? (
            <p className="rounded-lg bg-slate-50 p-3 text-sm text-slate-700">
              Payment of {formatMoney(payment.amount)} on {formatDate(payment.createdAt)}
              {payment.description ? ` for ${payment.description}` : ""}.
              {payment.subscriptionId
                ? null
                : ` ${unavailable.find((s) => s.latestPayment?.id === payment.id)?.reason ?? "Only the latest completed payment of a subscription, within 30 days, can be refunded."}`}
            </p>
          ) : null}
          <input {...getInputProps(fields.paymentId, { type: "hidden" })} />
          <SelectField
            label="Subscription"
            placeholder="Select a subscription"
            errors={fields.subscriptionId.errors}
            options={subscriptions.map((s) => ({
              value: s.id,
              label: `${s.label} – ${formatMoney(s.latestPayment!.amount)} paid ${formatDate(s.latestPayment!.createdAt)}`,
            }))}
            {...getSelectProps(fields.subscriptionId)}
          />
          <SelectField
            label="Reason for refund"
            placeholder="Select a reason"
            errors={fields.reason.errors}
            options={REFUND_REASONS.map((r) => ({ value: r.value, label: r.label }))}
            {...getSelectProps(fields.reason)}
          />
          <TextareaField
            label="Detailed explanation"
            rows={5}
            hint="At least 20 characters."
            errors={fields.description.errors}
            {...getTextareaProps(fields.description)}
          />
          <Field label="Contact email" autoComplete="email" errors={fields.contactEmail.errors} {...getInputProps(fields.contactEmail, { type: "email" })} />
          {hasErrors ? (
            <div role="alert" className="rounded-lg border border-red-200 bg-red-50 p-3 text-sm text-red-900">
              <p className="font-semibold">{FAILED}</p>
              <ErrorList id={form.errorId} errors={form.errors} />
            </div>
          ) : null}
          <div>
            <SubmitButton pendingText="Submitting...">Submit Refund Request</SubmitButton>
          </div>
        </Form>
      )}

      {unavailable.length > 0 ? (
        <Section id="not-refundable" title="Not refundable" className="mt-8">
          <ul className="mt-3 divide-y divide-slate-200 rounded-2xl border border-slate-200 bg-white">
            {unavailable.map((s) => (
              <li key={s.id} className="flex flex-col gap-1 p-4 text-sm sm:flex-row sm:justify-between sm:gap-4">
                <span className="font-medium text-slate-900">
                  {s.label}
                  {s.latestPayment ? `, paid ${formatDate(s.latestPayment.createdAt)}` : ""}
                </span>
                <span className="text-slate-600">{s.reason}</span>
              </li>
            ))}
          </ul>
        </Section>
      ) : null}

      <nav aria-label="Related" className="mt-8 flex flex-wrap gap-3">
        <ButtonLink to="/dashboard" variant="secondary" size="sm">
          Back to Dashboard
        </ButtonLink>
        <ButtonLink to="/billing" variant="secondary" size="sm">
          View Billing History
        </ButtonLink>
        <ButtonLink to="/contact" variant="secondary" size="sm">
          Contact Support
        </ButtonLink>
      </nav>
      <p className="mt-4 text-xs text-slate-500">
        Questions about a charge?{" "}
        <Link to="/help" className="underline">
          Read the Help Center
        </Link>
        .
      </p>
    </main>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
