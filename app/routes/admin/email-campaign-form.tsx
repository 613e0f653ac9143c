import { getFormProps, getInputProps, getSelectProps, getTextareaProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { useEffect, useRef, useState } from "react";
import { data, useFetcher } from "react-router";
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
import { pluralize } from "~/lib/format.ts";
import { formErrorToast, readFormData } from "~/lib/form.server.ts";
import { enqueueCampaign } from "~/lib/jobs.server.ts";
import { renderTemplate } from "~/lib/mail.server.ts";
import { sanitizeHtml } from "~/lib/sanitize.server.ts";
import { redirectWithToast } from "~/lib/toast.server.ts";
import { requireAdmin } from "~/services/auth/guards.server.ts";
import { requireStepUp, stepUpLinkUnlessRecent } from "~/services/auth/step-up.server.ts";
import { sendTestEmail, startCampaign } from "~/services/admin/email-campaigns.server.ts";
import { audienceChoices, countRecipients } from "~/services/admin/campaign-audience.server.ts";
import { getCampaignTemplate } from "~/services/admin/email-manager.server.ts";
import {
  AUDIENCE_CHANGED,
  AUDIENCE_LABELS,
  AUDIENCES,
  audienceKey,
  BulkEmailSchema,
  CAMPAIGN_KIND_LABELS,
  CAMPAIGN_KINDS,
  LICENCE_STATUS_LABELS,
  LICENCE_STATUSES,
  plainTextFromHtml,
  RECIPIENTS_REQUIRED,
  TEST_EMAIL_REQUIRED,
  templateDisplayName,
} from "~/validation/admin-email.ts";
import { NOINDEX } from "~/lib/seo.ts";
import type { Route } from "./+types/email-campaign-form";

// "Send Bulk Email Campaign" (the e-mail manager's campaign dialog, as a page): a target group
// narrowed by picked filters (holders of a category's or an animation's licence, active or
// expired; a signup date range), the kind of mail (the preference recipients may have turned
// off), subject, HTML content. Preview renders on the server; Send Test sends one message
// ([TEST] subject); Count Recipients asks the server how many the campaign reaches now, and only
// then offers Send Campaign for that audience (refused if the choices changed since; a background
// job, whose progress page follows). No JavaScript needed for any step.

export const meta: Route.MetaFunction = () => [{ title: "Send Bulk Email | Admin" }, NOINDEX];

const FAILED = "Failed to send bulk emails";

/**
 * `?template=<id>` starts the campaign from a template's subject and HTML (the templates list
 * links here); a system template is refused (409) with the reason.
 */
/**
 * `?template=<id>` starts the campaign from a template's subject and HTML (the templates list
 * links here); a system template is refused (409) with the reason.
 */
export async function loader({ request, url }: Route.LoaderArgs) {
  const id = url.searchParams.get("template");
  return {
    template: id ? await getCampaignTemplate(id).catch(asRouteError) : null,
    choices: await audienceChoices(),
    stepUpLink: await stepUpLinkUnlessRecent(request),
  };
}

export async function action({ request }: Route.ActionArgs) {
  const admin = await requireAdmin(request);
  const formData = await readFormData(request);
  const intent = String(formData.get("intent") ?? "send");
  // The form picks its audience from lists; recipients by id are the API's (POST /api/emails/bulk).
  formData.delete("recipients");
  formData.delete("userIds");
  // The count step carries the audience it counted (countedAudience), not a number: people who
  // join or leave meanwhile are sent to as the start finds them, a change of choices is refused.
  formData.delete("expectedRecipients");
  const counted = intent === "send" ? formData.get("countedAudience") : null;
  formData.delete("countedAudience");
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
  if (!input.targetGroup) return formErrorToast(submission, FAILED, new ServiceError(RECIPIENTS_REQUIRED, 400, "targetGroup"));
  if (intent === "count") {
    try {
      return data({ result: submission.reply(), count: { ...(await countRecipients(input)), key: audienceKey(input) } });
    } catch (error) {
      if (!(error instanceof ServiceError)) throw error;
      return formErrorToast(submission, FAILED, error);
    }
  }
  if (typeof counted === "string" && counted !== audienceKey(input))
    return formErrorToast(submission, FAILED, new ServiceError(AUDIENCE_CHANGED, 400, "targetGroup"));
  // A preview, a test message or a count reaches no member; sending the campaign needs a recent second factor.
  await requireStepUp(request);
  try {
    const campaign = await startCampaign(admin, input, enqueueCampaign);
    return redirectWithToast(`/admin/email-manager/campaigns/${campaign.id}`, {
      title: "Campaign Started",
      description: `Sending to ${pluralize(campaign.total, "recipient")}${campaign.skipped ? ` (${campaign.skipped} skipped: blocked or opted out)` : ""}.`,
    });
  } catch (error) {
    if (!(error instanceof ServiceError)) throw error;
    return formErrorToast(submission, FAILED, error);
  }
}

/** The fields a count depends on (the kind too: opt-outs are per kind of mail). */
const AUDIENCE_FIELDS = new Set(["targetGroup", "licenceCategoryId", "licenceAnimationId", "licenceStatus", "signedUpFrom", "signedUpTo", "kind"]);

type Fields = {
  targetGroup: string;
  licenceCategoryId: string;
  licenceAnimationId: string;
  licenceStatus: string;
  signedUpFrom: string;
  signedUpTo: string;
  kind: string;
  subject: string;
  htmlContent: string;
  testEmail: string;
};

export default function CampaignForm({ loaderData: { template, choices, stepUpLink }, actionData }: Route.ComponentProps) {
  const [form, fields] = useForm<Fields>({
    lastResult: actionData?.result,
    defaultValue: {
      targetGroup: "all",
      licenceStatus: "active",
      kind: "newsletter",
      ...(template ? { subject: template.subject, htmlContent: template.htmlContent } : {}),
    },
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
  });
  const preview = actionData && "preview" in actionData ? actionData.preview : null;
  // With JavaScript, once counted, a change of the audience counts it again in the background
  // (Send Campaign waits for the new number); without it, Send Campaign refuses an audience
  // changed since its count and asks for Count Recipients again.
  const recount = useFetcher<typeof action>();
  const recountTimer = useRef<ReturnType<typeof setTimeout>>(undefined);
  const counted = actionData && "count" in actionData ? actionData.count : null;
  const recounted = recount.data && "count" in recount.data ? recount.data.count : null;
  const [count, setCount] = useState(counted);
  const [seen, setSeen] = useState({ counted, recounted });
  const [changed, setChanged] = useState(false);
  if (seen.counted !== counted || seen.recounted !== recounted) {
    setSeen({ counted, recounted });
    setCount(seen.counted !== counted ? counted : recounted);
    setChanged(false);
  }
  useEffect(() => () => clearTimeout(recountTimer.current), []);
  const audienceChanged = (formElement: HTMLFormElement) => {
    setChanged(true);
    if (!count) return;
    clearTimeout(recountTimer.current);
    recountTimer.current = setTimeout(() => {
      const data = new FormData(formElement);
      data.set("intent", "count");
      void recount.submit(data, { method: "post" });
    }, 400);
  };
  return (
    <AdminPage title="Send Bulk Email Campaign" description="A campaign is sent in the background at the configured rate; each recipient gets it once.">
      <p className="text-sm">
        <TextLink to="/admin/email-manager?tab=campaigns">Back to Email Manager</TextLink>
        {template ? <span className="ml-4 text-slate-600">Starting from the template {templateDisplayName(template.name)}.</span> : null}
      </p>
      <ActionToast toast={actionData && "toast" in actionData ? (actionData.toast as ToastData) : null} />
      <div className="grid gap-6 xl:grid-cols-2">
        <Panel title="Campaign">
          <Form
            method="post"
            {...getFormProps(form)}
            className="grid gap-5"
            onChange={(event) => {
              if (AUDIENCE_FIELDS.has((event.target as unknown as HTMLInputElement).name)) audienceChanged(event.currentTarget);
            }}
          >
            <fieldset className="grid gap-4 rounded-xl border border-slate-200 p-4">
              <legend className="px-1 text-sm font-semibold text-slate-700">Audience</legend>
              <SelectField
                label="Target group"
                options={AUDIENCES.map((a) => ({ value: a, label: AUDIENCE_LABELS[a] }))}
                {...getSelectProps(fields.targetGroup)}
                errors={fields.targetGroup.errors}
              />
              <p className="text-sm text-slate-600">Narrow it (optional; every filter chosen must hold):</p>
              <div className="grid gap-4 sm:grid-cols-2">
                <SelectField
                  label="Holds the category licence"
                  placeholder="Any (no category filter)"
                  options={choices.categories}
                  {...getSelectProps(fields.licenceCategoryId)}
                  required={false}
                  errors={fields.licenceCategoryId.errors}
                />
                <SelectField
                  label="Holds the animation licence"
                  placeholder="Any (no animation filter)"
                  options={choices.animations}
                  {...getSelectProps(fields.licenceAnimationId)}
                  required={false}
                  errors={fields.licenceAnimationId.errors}
                />
              </div>
              <SelectField
                label="Licence state"
                hint="For the licence filters: running now, ended (and not renewed), or either."
                options={LICENCE_STATUSES.map((s) => ({ value: s, label: LICENCE_STATUS_LABELS[s] }))}
                {...getSelectProps(fields.licenceStatus)}
                errors={fields.licenceStatus.errors}
              />
              <div className="grid gap-4 sm:grid-cols-2">
                <Field label="Signed up from" {...getInputProps(fields.signedUpFrom, { type: "date" })} required={false} errors={fields.signedUpFrom.errors} />
                <Field label="Signed up until" {...getInputProps(fields.signedUpTo, { type: "date" })} required={false} errors={fields.signedUpTo.errors} />
              </div>
            </fieldset>
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
              <SubmitButton name="intent" value="count" variant="secondary" pendingText="Counting...">
                Count Recipients
              </SubmitButton>
            </div>
            {count ? (
              <section aria-label="Recipients" className="grid gap-3 rounded-xl border border-brand-200 bg-brand-50 p-4">
                <p role="status" className="text-sm">
                  <strong className="text-base">{pluralize(count.recipients, "recipient")}</strong>{" "}
                  <span className="text-slate-600">
                    · {count.audience}
                    {count.skipped ? ` · ${count.skipped} more left out: blocked or opted out of this kind of mail` : ""}
                  </span>
                </p>
                {changed ? (
                  <p className="text-sm text-slate-700">
                    {recount.state === "idle" ? "The choices changed since this count: count again before sending." : "Counting the new audience..."}
                  </p>
                ) : count.recipients > 0 ? (
                  <div>
                    <input type="hidden" name="countedAudience" value={count.key} />
                    <SubmitButton name="intent" value="send" pendingText="Starting...">
                      Send Campaign to {pluralize(count.recipients, "recipient")}
                    </SubmitButton>
                  </div>
                ) : (
                  <p className="text-sm text-slate-700">Nobody to send to: change the audience and count again.</p>
                )}
              </section>
            ) : null}
          </Form>
        </Panel>
        {preview ? <EmailPreview preview={preview} /> : null}
      </div>
    </AdminPage>
  );
}
