import { getFormProps, getSelectProps, getTextareaProps, useForm } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
import { AdminPage, Panel } from "~/components/admin/admin-page.tsx";
import { MisuseStatusBadge } from "~/components/admin/misuse-status.tsx";
import { ErrorList, SelectField, TextareaField } from "~/components/ui/field.tsx";
import { Form } from "~/components/ui/form.tsx";
import { SubmitButton } from "~/components/ui/submit-button.tsx";
import { TextLink } from "~/components/ui/text-link.tsx";
import { invariantResponse, ServiceError } from "~/lib/errors.server.ts";
import { formError, readFormData } from "~/lib/form.server.ts";
import { formatDateTime } from "~/lib/format.ts";
import { NOINDEX } from "~/lib/seo.ts";
import { redirectWithToast } from "~/lib/toast.server.ts";
import { changeMisuseStatus, getMisuseReport, replyToReporter } from "~/services/admin/misuse-reports.server.ts";
import { requireAdmin } from "~/services/auth/guards.server.ts";
import { MISUSE_STATUS_LABELS, MISUSE_STATUSES, MisuseReplySchema, MisuseStatusChangeSchema } from "~/validation/admin-misuse.ts";
import type { Route } from "./+types/misuse-report";

// /admin/misuse/{id}: one misuse report (decision 033): what was reported, the other reports of
// its link, its history (who changed what, when, and why), the form that moves it to another
// state with a note, and the reply to the reporter by e-mail (the misuse_reply template).

export const meta: Route.MetaFunction = () => [{ title: "Misuse Report | Admin" }, NOINDEX];

export async function loader({ params }: Route.LoaderArgs) {
  const found = await getMisuseReport(params.id);
  invariantResponse(found, "Misuse report not found", { status: 404 });
  return found;
}

export async function action({ request, params }: Route.ActionArgs) {
  const admin = await requireAdmin(request);
  const formData = await readFormData(request);
  const intent = formData.get("intent") === "reply" ? ("reply" as const) : ("status" as const);
  const back = `/admin/misuse/${params.id}`;
  if (intent === "reply") {
    const submission = parseWithZod(formData, { schema: MisuseReplySchema });
    if (submission.status !== "success") return formError(submission, undefined, { intent });
    try {
      await replyToReporter(admin, params.id, submission.value.reply);
    } catch (error) {
      if (error instanceof ServiceError) return formError(submission, error, { intent });
      throw error;
    }
    return redirectWithToast(back, { title: "Reply Sent", description: "The reporter has your reply; it is in the report's history." });
  }
  const submission = parseWithZod(formData, { schema: MisuseStatusChangeSchema });
  if (submission.status !== "success") return formError(submission, undefined, { intent });
  try {
    await changeMisuseStatus(admin, params.id, submission.value);
  } catch (error) {
    if (error instanceof ServiceError) return formError(submission, error, { intent });
    throw error;
  }
  return redirectWithToast(back, { title: "Report Updated", description: `The report is ${MISUSE_STATUS_LABELS[submission.value.status]} now.` });
}

export default function MisuseReportScreen({ loaderData: { report, history, sameLink }, actionData }: Route.ComponentProps) {
  const [statusForm, statusFields] = useForm({
    id: "misuse-status",
    lastResult: actionData?.intent === "status" ? actionData.result : undefined,
    constraint: getZodConstraint(MisuseStatusChangeSchema),
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: MisuseStatusChangeSchema }),
  });
  const [replyForm, replyFields] = useForm({
    id: "misuse-reply",
    lastResult: actionData?.intent === "reply" ? actionData.result : undefined,
    constraint: getZodConstraint(MisuseReplySchema),
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: MisuseReplySchema }),
  });
  const others = MISUSE_STATUSES.filter((s) => s !== report.status);
  return (
    <AdminPage title="Misuse Report">
      <p className="text-sm">
        <TextLink to="/admin/misuse">Back to Misuse Reports</TextLink>
      </p>
      <Panel title="Report">
        <dl className="grid gap-x-6 gap-y-2 text-sm sm:grid-cols-[auto_1fr]">
          <dt className="font-medium text-slate-600">State</dt>
          <dd data-testid="misuse-state">
            <MisuseStatusBadge status={report.status} />
          </dd>
          <dt className="font-medium text-slate-600">Animation</dt>
          <dd>
            {report.animationSlug ? (
              <TextLink to={`/animations/${encodeURIComponent(report.animationSlug)}`}>{report.animationTitle}</TextLink>
            ) : (
              (report.animationTitle ?? "(none)")
            )}
          </dd>
          <dt className="font-medium text-slate-600">Reported link</dt>
          <dd className="break-all">
            {report.link ? (
              <a href={report.link} rel="noopener noreferrer nofollow" className="text-brand-700 underline">
                {report.link}
              </a>
            ) : (
              "(none)"
            )}
          </dd>
          <dt className="font-medium text-slate-600">Reporter</dt>
          <dd className="break-all">{report.reporterEmail}</dd>
          <dt className="font-medium text-slate-600">Received</dt>
          <dd>{formatDateTime(report.createdAt)}</dd>
          <dt className="font-medium text-slate-600">Message</dt>
          <dd className="whitespace-pre-line" data-testid="misuse-message">
            {report.message}
          </dd>
        </dl>
      </Panel>
      {sameLink.length > 0 ? (
        <Panel title={`Other reports of this link (${sameLink.length})`}>
          <ul className="divide-y divide-slate-100 text-sm">
            {sameLink.map((other) => (
              <li key={other.id} className="flex flex-wrap items-center justify-between gap-3 py-2">
                <span>
                  <span className="break-all">{other.reporterEmail}</span> · {formatDateTime(other.createdAt)}
                </span>
                <span className="flex items-center gap-3">
                  <MisuseStatusBadge status={other.status} />
                  <TextLink to={`/admin/misuse/${other.id}`} aria-label={`Open the report by ${other.reporterEmail}`}>
                    Open
                  </TextLink>
                </span>
              </li>
            ))}
          </ul>
          {report.linkKey ? (
            <p className="mt-2 text-sm">
              <TextLink to={`/admin/misuse?link=${encodeURIComponent(report.linkKey)}`}>See the group in the inbox</TextLink>
            </p>
          ) : null}
        </Panel>
      ) : null}
      <Panel title="Change the state">
        <Form method="post" {...getFormProps(statusForm)} className="space-y-4">
          <input type="hidden" name="intent" value="status" />
          <SelectField
            label="New state"
            placeholder="Choose…"
            options={others.map((s) => ({ value: s, label: MISUSE_STATUS_LABELS[s] }))}
            {...getSelectProps(statusFields.status)}
            errors={statusFields.status.errors}
          />
          <TextareaField
            label="Note"
            hint="Why: it is kept in the report's history."
            rows={3}
            {...getTextareaProps(statusFields.note)}
            errors={statusFields.note.errors}
          />
          <ErrorList id={statusForm.errorId} errors={statusForm.errors} />
          <SubmitButton pendingText="Saving...">Save State</SubmitButton>
        </Form>
      </Panel>
      <Panel title="Reply to the reporter">
        <Form method="post" {...getFormProps(replyForm)} className="space-y-4">
          <input type="hidden" name="intent" value="reply" />
          <p className="text-sm text-slate-600">
            Sent to {report.reporterEmail} in the “misuse_reply” e-mail template (it thanks them and names the animation and the link they reported), with your
            text.
          </p>
          <TextareaField label="Your reply" rows={5} {...getTextareaProps(replyFields.reply)} errors={replyFields.reply.errors} />
          <ErrorList id={replyForm.errorId} errors={replyForm.errors} />
          <SubmitButton pendingText="Sending...">Send Reply</SubmitButton>
        </Form>
      </Panel>
      <Panel title="History">
        {history.length === 0 ? (
          <p className="text-sm text-slate-600">Nothing yet: the report is as it arrived.</p>
        ) : (
          <ol className="divide-y divide-slate-100 text-sm" data-testid="misuse-history">
            {history.map((event) => (
              <li key={event.id} className="py-2">
                <p className="font-medium">
                  {event.kind === "reply"
                    ? "Replied to the reporter"
                    : `${MISUSE_STATUS_LABELS[event.fromStatus ?? "new"]} → ${MISUSE_STATUS_LABELS[event.toStatus ?? "new"]}`}
                </p>
                <p className="text-slate-600">
                  {event.actorEmail} · {formatDateTime(event.createdAt)}
                </p>
                <p className="mt-1 whitespace-pre-line">{event.note}</p>
              </li>
            ))}
          </ol>
        )}
      </Panel>
    </AdminPage>
  );
}
