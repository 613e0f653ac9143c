import { getFormProps, getInputProps, getSelectProps, getTextareaProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { data } from "react-router";
import { Form } from "~/components/ui/form.tsx";
import { ActionToast } from "~/components/admin/action-toast.tsx";
import { AdminPage, Panel } from "~/components/admin/admin-page.tsx";
import { EmailPreview } from "~/components/admin/email-preview.tsx";
import { ErrorList, Field, SelectField, TextareaField } from "~/components/ui/field.tsx";
import { SubmitButton } from "~/components/ui/submit-button.tsx";
import { StepUpNotice } from "~/components/admin/step-up-notice.tsx";
import { TextLink } from "~/components/ui/text-link.tsx";
import type { ToastData } from "~/components/ui/toast.tsx";
import { asRouteError, ServiceError } from "~/lib/errors.server.ts";
import { formErrorToast, readFormData } from "~/lib/form.server.ts";
import { enqueueCampaign } from "~/lib/jobs.server.ts";
import { renderTemplate } from "~/lib/mail.server.ts";
import { sanitizeHtml } from "~/lib/sanitize.server.ts";
import { redirectWithToast } from "~/lib/toast.server.ts";
import { requireAdmin } from "~/services/auth/guards.server.ts";
import { requireStepUp, stepUpLinkUnlessRecent } from "~/services/auth/step-up.server.ts";
import { sendTestEmail, startCampaign } from "~/services/admin/email-campaigns.server.ts";
import { getCampaignTemplate } from "~/services/admin/email-manager.server.ts";
import {
  AUDIENCE_LABELS,
  AUDIENCES,
  BulkEmailSchema,
  CAMPAIGN_KIND_LABELS,
  CAMPAIGN_KINDS,
  plainTextFromHtml,
  RECIPIENTS_REQUIRED,
  TEST_EMAIL_REQUIRED,
  templateDisplayName,
} from "~/validation/admin-email.ts";
import { NOINDEX } from "~/lib/seo.ts";
import type { Route } from "./+types/email-campaign-form";

// "Send Bulk Email Campaign" (the e-mail manager's campaign dialog, as a page): target group or
// chosen user ids, the kind of mail (the preference recipients may have turned off), subject,
// HTML content. Three buttons: Preview (rendered here by the server), Send Test (one message,
// subject prefixed [TEST]) and Send Campaign (a background job; its progress page follows).

export const meta: Route.MetaFunction = () => [{ title: "Send Bulk Email | Admin" }, NOINDEX];

const FAILED = "Failed to send bulk emails";

/**
 * `?template=<id>` starts the campaign from a template's subject and HTML (the templates list
 * links here); a system template is refused (409) with the reason.
 */
export async function loader({ request, url }: Route.LoaderArgs) {
  const id = url.searchParams.get("template");
  return { template: id ? await getCampaignTemplate(id).catch(asRouteError) : null, stepUpLink: await stepUpLinkUnlessRecent(request) };
}

export async function action({ request }: Route.ActionArgs) {
  const admin = await requireAdmin(request);
  const formData = await readFormData(request);
  const intent = String(formData.get("intent") ?? "send");
  // "Chosen users" sends the ids typed in the recipients box instead of a group.
  if (formData.get("targetGroup") === "users") formData.delete("targetGroup");
  else formData.delete("recipients");
  const submission = parseWithZod(formData, { schema: BulkEmailSchema });
  if (submission.status !== "success") return formErrorToast(submission, FAILED);
  const input = submission.value;

  if (intent === "preview") {
    const sample = { firstName: "Jane", lastName: "Doe", email: "jane@example.com", platformName: "Medanim" };
    const html = sanitizeHtml(renderTemplate(input.html, sample, true));
    return data({ result: submission.reply(), preview: { subject: renderTemplate(input.subject, sample, false), html, text: plainTextFromHtml(html) } });
  }
  if (intent === "test") {
    if (!input.testEmail) return formErrorToast(submission, FAILED, new ServiceError(TEST_EMAIL_REQUIRED, 400, "testEmail"));
    const result = await sendTestEmail(admin, { ...input, testEmail: input.testEmail });
    if (result.failed) return formErrorToast(submission, FAILED, new ServiceError(result.errorMessage ?? FAILED, 502));
    return data({ result: submission.reply(), toast: { title: "Test Email Sent", description: `“[TEST] ${input.subject}” was sent to ${input.testEmail}.` } });
  }
  if (!input.userIds && !input.targetGroup) return formErrorToast(submission, FAILED, new ServiceError(RECIPIENTS_REQUIRED, 400, "recipients"));
  // A preview or a test message reaches no member; sending the campaign needs a recent second factor.
  await requireStepUp(request);
  try {
    const campaign = await startCampaign(admin, input, enqueueCampaign);
    return redirectWithToast(`/admin/email-manager/campaigns/${campaign.id}`, {
      title: "Campaign Started",
      description: `Sending to ${campaign.total} recipients${campaign.skipped ? ` (${campaign.skipped} skipped: blocked or opted out)` : ""}.`,
    });
  } catch (error) {
    if (!(error instanceof ServiceError)) throw error;
    return formErrorToast(submission, FAILED, error);
  }
}

export default function CampaignForm({ loaderData: { template, stepUpLink }, actionData }: Route.ComponentProps) {
  const [form, fields] = useForm<{ targetGroup: string; recipients: string; kind: string; subject: string; htmlContent: string; testEmail: string }>({
    lastResult: actionData?.result,
    defaultValue: { targetGroup: "all", kind: "newsletter", ...(template ? { subject: template.subject, htmlContent: template.htmlContent } : {}) },
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
  });
  const preview = actionData && "preview" in actionData ? actionData.preview : null;
  return (
    <AdminPage title="Send Bulk Email Campaign" description="A campaign is sent in the background at the configured rate; each recipient gets it once.">
      <p className="text-sm">
        <TextLink to="/admin/email-manager?tab=campaigns">Back to Email Manager</TextLink>
        {template ? <span className="ml-4 text-slate-600">Starting from the template {templateDisplayName(template.name)}.</span> : null}
      </p>
      <ActionToast toast={actionData && "toast" in actionData ? (actionData.toast as ToastData) : null} />
      <div className="grid gap-6 xl:grid-cols-2">
        <Panel title="Campaign">
          <Form method="post" {...getFormProps(form)} className="grid gap-5">
            <SelectField
              label="Target group"
              options={[...AUDIENCES.map((a) => ({ value: a, label: AUDIENCE_LABELS[a] })), { value: "users", label: "Chosen users (by id)" }]}
              {...getSelectProps(fields.targetGroup)}
              errors={fields.targetGroup.errors}
            />
            <TextareaField
              label="Recipients"
              hint="Only for chosen users: user ids separated by commas."
              rows={2}
              className="font-mono"
              {...getTextareaProps(fields.recipients)}
              required={false}
              errors={fields.recipients.errors}
            />
            <SelectField
              label="Kind of mail"
              hint="Recipients who turned this kind of e-mail off are skipped; each message carries an unsubscribe link for it."
              options={CAMPAIGN_KINDS.map((k) => ({ value: k, label: CAMPAIGN_KIND_LABELS[k] }))}
              {...getSelectProps(fields.kind)}
              errors={fields.kind.errors}
            />
            <Field label="Subject" {...getInputProps(fields.subject, { type: "text" })} errors={fields.subject.errors} />
            <TextareaField
              label="HTML content"
              hint="Variables: {{firstName}}, {{lastName}}, {{email}}. Unsafe markup is removed."
              rows={12}
              className="font-mono"
              {...getTextareaProps(fields.htmlContent)}
              errors={fields.htmlContent.errors}
            />
            <Field
              label="Test e-mail"
              hint="Send Test sends one message here, its subject prefixed [TEST]."
              {...getInputProps(fields.testEmail, { type: "email" })}
              required={false}
              errors={fields.testEmail.errors}
            />
            <ErrorList id={form.errorId} errors={form.errors} />
            <StepUpNotice link={stepUpLink} action="Sending the campaign" />
            <div className="flex flex-wrap gap-3">
              <SubmitButton name="intent" value="preview" variant="secondary" pendingText="Rendering...">
                Preview
              </SubmitButton>
              <SubmitButton name="intent" value="test" variant="secondary" pendingText="Sending...">
                Send Test
              </SubmitButton>
              <SubmitButton name="intent" value="send" pendingText="Starting...">
                Send Campaign
              </SubmitButton>
            </div>
          </Form>
        </Panel>
        {preview ? <EmailPreview preview={preview} /> : null}
      </div>
    </AdminPage>
  );
}
