import { getFormProps, getInputProps, getTextareaProps, useForm } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
import { Form } from "~/components/ui/form.tsx";
import { AdminPage, Panel } from "~/components/admin/admin-page.tsx";
import { RefundEvidence } from "~/components/admin/refund-evidence.tsx";
import { CheckboxField, ErrorList, TextareaField } from "~/components/ui/field.tsx";
import { SubmitButton } from "~/components/ui/submit-button.tsx";
import { TextLink } from "~/components/ui/text-link.tsx";
import { invariantResponse, ServiceError } from "~/lib/errors.server.ts";
import { formError, readFormData } from "~/lib/form.server.ts";
import { formatDate, formatMoney } from "~/lib/format.ts";
import { redirectWithToast } from "~/lib/toast.server.ts";
import { takeKeptForm } from "~/services/auth/kept-form.server.ts";
import { requireAdminStepUp } from "~/services/auth/step-up.server.ts";
import { getRefundCase } from "~/services/commerce/refund-evidence.server.ts";
import { approveRefund, rejectRefund } from "~/services/commerce/refunds.server.ts";
import { REFUND_REASONS } from "~/validation/account.ts";
import { refundAnywayLabel, RefundDecisionSchema } from "~/validation/admin-refunds.ts";
import { NOINDEX } from "~/lib/seo.ts";
import type { Route } from "./+types/refund-decision";

// The decision step of a pending refund: it shows the user, amount, payment and reason, what the
// refund would take back (downloads, plays, embeds, patient links, the refund window), and
// requires admin notes. A page of its own, so it is the same with and without JavaScript. A
// decision sent without a recent second factor goes through the step-up form and comes back here
// with its notes kept (decision 034).

export const meta: Route.MetaFunction = () => [{ title: "Refund Request | Admin" }, NOINDEX];

export async function loader({ request: httpRequest, params, url }: Route.LoaderArgs) {
  const refundCase = await getRefundCase(params.id);
  invariantResponse(refundCase, "Refund request not found", { status: 404 });
  const kept = refundCase.request.status === "pending" ? await takeKeptForm(httpRequest) : null;
  return { ...refundCase, kept, decision: url.searchParams.get("decision") === "reject" ? ("reject" as const) : ("approve" as const) };
}

export async function action({ request, params }: Route.ActionArgs) {
  const admin = await requireAdminStepUp(request, { keepForm: true });
  const formData = await readFormData(request);
  const intent = formData.get("intent") === "reject" ? "reject" : "approve";
  const submission = parseWithZod(formData, { schema: RefundDecisionSchema });
  if (submission.status !== "success") return formError(submission);
  try {
    const decided =
      intent === "approve"
        ? await approveRefund(admin, params.id, submission.value.adminNotes, { confirmDownloads: submission.value.confirmDownloads })
        : await rejectRefund(admin, params.id, submission.value.adminNotes);
    const description =
      intent === "reject"
        ? "The member has been told, with your notes."
        : decided.status === "processed"
          ? "The payment was refunded and the member has been told."
          : "The refund is on its way; the request shows processed when the provider confirms it.";
    return redirectWithToast("/admin/refunds", { title: intent === "approve" ? "Refund Approved" : "Refund Rejected", description });
  } catch (error) {
    if (error instanceof ServiceError) return formError(submission, error);
    throw error;
  }
}

export default function RefundDecision({ loaderData: { request, evidence, kept, decision }, actionData }: Route.ComponentProps) {
  const downloadedFiles = evidence.licence ? evidence.downloads.files : 0;
  const [form, fields] = useForm({
    lastResult: actionData?.result,
    // What was typed before the step-up detour (decision 034).
    defaultValue: kept ?? undefined,
    constraint: getZodConstraint(RefundDecisionSchema),
    shouldValidate: "onSubmit",
    // Errors appear on submit and clear as they are typed away, never on blur: the blur of a
    // click on Submit would move the button from under the pointer.
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: RefundDecisionSchema }),
  });
  const reason = REFUND_REASONS.find((r) => r.value === request.reason)?.label ?? request.reason;
  return (
    <AdminPage title={decision === "approve" ? "Approve Refund" : "Reject Refund"}>
      <p className="text-sm">
        <TextLink to="/admin/refunds">Back to Refunds</TextLink>
      </p>
      <Panel title="Request">
        <dl className="grid gap-x-6 gap-y-2 text-sm sm:grid-cols-[auto_1fr]">
          <dt className="font-medium text-slate-600">User</dt>
          <dd>
            {request.userName} ({request.userEmail})
          </dd>
          <dt className="font-medium text-slate-600">Amount</dt>
          <dd>{formatMoney(request.paymentAmount)}</dd>
          <dt className="font-medium text-slate-600">Payment</dt>
          <dd>
            {request.paymentDescription} · paid {formatDate(request.paidAt)} · {request.paymentStatus}
          </dd>
          <dt className="font-medium text-slate-600">Reason</dt>
          <dd>{reason}</dd>
          {request.description ? (
            <>
              <dt className="font-medium text-slate-600">Details</dt>
              <dd className="whitespace-pre-line">{request.description}</dd>
            </>
          ) : null}
          <dt className="font-medium text-slate-600">Status</dt>
          <dd>{request.status}</dd>
        </dl>
      </Panel>
      <RefundEvidence evidence={evidence} />
      {request.status === "pending" ? (
        <Panel title="Decision">
          <Form method="post" {...getFormProps(form)} className="space-y-4">
            <TextareaField
              label="Admin notes"
              hint="Sent to the member with the decision."
              rows={4}
              {...getTextareaProps(fields.adminNotes)}
              errors={fields.adminNotes.errors}
            />
            {downloadedFiles > 0 ? (
              <CheckboxField
                label={refundAnywayLabel(downloadedFiles)}
                hint="Downloaded files are the buyer's to keep: approving refunds the money all the same. Not needed to reject."
                {...getInputProps(fields.confirmDownloads, { type: "checkbox" })}
                errors={fields.confirmDownloads.errors}
              />
            ) : null}
            <ErrorList id={form.errorId} errors={form.errors} />
            <div className="flex flex-wrap gap-3">
              <SubmitButton name="intent" value="approve" variant={decision === "approve" ? "primary" : "secondary"} pendingText="Approving...">
                Approve Refund
              </SubmitButton>
              <SubmitButton name="intent" value="reject" variant={decision === "reject" ? "danger" : "secondary"} pendingText="Rejecting...">
                Reject Refund
              </SubmitButton>
            </div>
          </Form>
        </Panel>
      ) : (
        <p className="text-sm text-slate-600">This request has been {request.status}; decisions are final.</p>
      )}
    </AdminPage>
  );
}
