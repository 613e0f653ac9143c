import { getFormProps, getInputProps, getSelectProps, getTextareaProps, type SubmissionResult, useForm } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
import { AccountPage } from "~/components/account/account-screen.tsx";
import { ErrorScreen, GeneralErrorBoundary } from "~/components/error-boundary.tsx";
import { ErrorList, Field, SelectField, TextareaField } from "~/components/ui/field.tsx";
import { Form } from "~/components/ui/form.tsx";
import { Section } from "~/components/ui/section.tsx";
import { SubmitButton } from "~/components/ui/submit-button.tsx";
import { TextLink } from "~/components/ui/text-link.tsx";
import { ServiceError } from "~/lib/errors.server.ts";
import { formatDate, formatDateTime, formatLongDate } from "~/lib/format.ts";
import { formError, readFormData } from "~/lib/form.server.ts";
import { NOINDEX } from "~/lib/seo.ts";
import { redirectWithToast } from "~/lib/toast.server.ts";
import { LicenceAnalytics } from "~/components/account/licence-analytics.tsx";
import { requireUser } from "~/services/auth/guards.server.ts";
import { loadLicenceAnalytics } from "~/services/analytics/licence-analytics.server.ts";
import {
  createPatientLink,
  getLicenceForPage,
  listPatientLinks,
  patientLinkQrSvg,
  revokePatientLink,
  sendPatientLink,
  type PatientLinkRow,
} from "~/services/licensing/patient-links.server.ts";
import {
  DEFAULT_LINK_DAYS,
  LICENCE_NOT_FOUND,
  LINK_CREATED,
  LINK_LANGUAGE_LABEL,
  LINK_LANGUAGES,
  LINK_REVOKED,
  LINK_SENT,
  PatientLinkSchema,
  SendPatientLinkSchema,
} from "~/validation/patient-links.ts";
import type { Route } from "./+types/licence";

// /licences/{id}: one individual or category licence, as the clinic runs its patient education
// on it: what it covers and until when, its patient links (create, e-mail, QR code, revoke, and
// whether each was opened and watched), and what its embeds and links were watched.

export const meta: Route.MetaFunction = ({ data }) => [{ title: `${data?.licence.title ?? "License"} | Medanim` }, NOINDEX];

const DAY_MS = 24 * 60 * 60 * 1000;

export async function loader({ request, params }: Route.LoaderArgs) {
  const user = await requireUser(request);
  const now = new Date();
  const licence = await getLicenceForPage(user, params.id, now).catch((error: unknown) => {
    if (error instanceof ServiceError) throw new Response(error.message, { status: error.status });
    throw error;
  });
  const [links, analytics] = await Promise.all([
    licence.mayShare ? listPatientLinks(user, licence.id, now) : [],
    loadLicenceAnalytics(user, licence.id, {}, now),
  ]);
  // The QR codes of the links that still work: drawn on the server, so the page needs no script.
  const qr = Object.fromEntries(await Promise.all(links.filter((l) => l.state === "live").map(async (l) => [l.id, await patientLinkQrSvg(l.url)] as const)));
  const byDefault = new Date(Math.min(now.getTime() + DEFAULT_LINK_DAYS * DAY_MS, licence.endDate?.getTime() ?? Infinity));
  return {
    licence,
    links,
    qr,
    analytics,
    defaultExpiry: isoDay(byDefault),
    latestExpiry: licence.endDate ? isoDay(licence.endDate) : null,
    today: isoDay(now),
  };
}

function isoDay(date: Date) {
  return date.toISOString().slice(0, 10);
}

export async function action({ request, params }: Route.ActionArgs) {
  const user = await requireUser(request);
  const formData = await readFormData(request);
  const intent = String(formData.get("intent") ?? "");
  const back = (toast: Parameters<typeof redirectWithToast>[1], anchor = "#patient-links") => redirectWithToast(`/licences/${params.id}${anchor}`, toast);

  if (intent === "create") {
    const submission = parseWithZod(formData, { schema: PatientLinkSchema });
    if (submission.status !== "success") return formError(submission, undefined, { intent });
    try {
      await createPatientLink(user, params.id, submission.value);
      const sent = submission.value.recipientEmail ? ` and sent to ${submission.value.recipientEmail}` : "";
      return back({ title: LINK_CREATED, description: `Copy it below, print its QR code${sent ? "," : " or e-mail it"}${sent}.` });
    } catch (error) {
      return formError(submission, error, { intent });
    }
  }

  const linkId = String(formData.get("linkId") ?? "");
  if (intent === "send") {
    const submission = parseWithZod(formData, { schema: SendPatientLinkSchema });
    if (submission.status !== "success") return formError(submission, undefined, { intent, linkId });
    try {
      await sendPatientLink(user, params.id, linkId, submission.value.recipientEmail);
      return back({ title: LINK_SENT(submission.value.recipientEmail), description: "It comes from your clinic's name and carries no tracking." });
    } catch (error) {
      return formError(submission, error, { intent, linkId });
    }
  }

  if (intent === "revoke") {
    try {
      await revokePatientLink(user, params.id, linkId);
      return back({ title: LINK_REVOKED, description: "The patient now reads that it is no longer available." });
    } catch (error) {
      if (!(error instanceof ServiceError)) throw error;
      return back({ title: "Error", description: error.message, type: "error" });
    }
  }
  return back({ title: "Error", description: "Unknown action", type: "error" });
}

type ActionData = { intent?: string; linkId?: string; result?: SubmissionResult<string[]> } | undefined;

export default function LicencePage({ loaderData, actionData }: Route.ComponentProps) {
  const { licence, links, qr } = loaderData;
  const data = actionData as ActionData;
  return (
    <AccountPage title={licence.title} wide>
      <p className="mt-2 text-slate-700" data-testid="licence-summary">
        {licence.type === "category" ? "Category license" : "Individual license"}
        {licence.practice ? ` of ${licence.practice}` : ""}
        {licence.endDate ? `${licence.active ? ", valid until" : ", ended on"} ${formatLongDate(licence.endDate)}` : ""}
        {". "}
        <TextLink to={`/licences/${licence.id}/certificate`} reloadDocument>
          Certificate (PDF)
        </TextLink>
        {" · "}
        <TextLink to="/my-animations">Downloads and embeds</TextLink>
      </p>

      <Section id="patient-links" title="Patient links" className="mt-8">
        <p className="mt-2 max-w-3xl text-sm text-slate-700">
          Send a patient this license's animations before a consultation or a procedure. The link needs no account, plays the full animations with captions,
          shows {licence.practice ?? "your name"} and nothing for sale, and stops on the date you choose or when you revoke it. We record whether it was opened
          and watched to the end (no personal data about the patient): you may note that as part of informing the patient.
        </p>
        {!licence.mayShare ? (
          <p className="mt-4 text-sm text-slate-700">Only an owner or a manager of the practice can share its animations with patients.</p>
        ) : !licence.active ? (
          <p className="mt-4 text-sm text-slate-700">This license has ended: renew it to share its animations with patients.</p>
        ) : (
          <NewLinkForm
            animations={licence.animations}
            lastResult={data?.intent === "create" ? data.result : undefined}
            defaultExpiry={loaderData.defaultExpiry}
            latestExpiry={loaderData.latestExpiry}
            today={loaderData.today}
          />
        )}
        {links.length > 0 ? (
          <ul className="mt-6 space-y-4" aria-label="Your patient links">
            {links.map((link) => (
              <LinkCard
                key={link.id}
                link={link}
                licenceId={licence.id}
                qr={qr[link.id] ?? null}
                lastResult={data?.intent === "send" && data.linkId === link.id ? data.result : undefined}
              />
            ))}
          </ul>
        ) : licence.mayShare ? (
          <p className="mt-4 text-sm text-slate-600">No patient links yet.</p>
        ) : null}
      </Section>

      <LicenceAnalytics data={loaderData.analytics} csvHref={`/licences/${licence.id}/analytics.csv`} />
    </AccountPage>
  );
}

type LinkFields = { animationIds: string[]; label: string; note: string; language: string; expiresOn?: string; recipientEmail?: string };

function NewLinkForm({
  animations,
  lastResult,
  defaultExpiry,
  latestExpiry,
  today,
}: {
  animations: { id: string; title: string }[];
  lastResult: SubmissionResult<string[]> | undefined;
  defaultExpiry: string;
  latestExpiry: string | null;
  today: string;
}) {
  const [form, fields] = useForm<LinkFields>({
    id: "new-patient-link",
    lastResult,
    constraint: getZodConstraint(PatientLinkSchema),
    onValidate: ({ formData }) => parseWithZod(formData, { schema: PatientLinkSchema }),
    shouldRevalidate: "onBlur",
    defaultValue: { language: "en", expiresOn: defaultExpiry, animationIds: animations.length === 1 ? [animations[0]!.id] : [] },
  });
  const single = animations.length === 1 ? animations[0]! : null;
  return (
    <Form method="post" {...getFormProps(form)} className="mt-4 max-w-3xl space-y-4 rounded-xl border border-slate-200 bg-white p-4">
      <h3 className="font-semibold">New patient link</h3>
      {single ? (
        <p className="text-sm text-slate-700">
          <input type="hidden" name="animationIds" value={single.id} />
          Plays <strong>{single.title}</strong>.
        </p>
      ) : (
        <fieldset aria-describedby={fields.animationIds.errorId}>
          <legend className="text-sm font-medium">Animations, in the order the patient watches them</legend>
          <div className="mt-2 max-h-64 space-y-1 overflow-y-auto rounded-lg border border-slate-200 p-2">
            {animations.map((animation) => (
              <label key={animation.id} className="flex items-start gap-2 text-sm">
                <input
                  type="checkbox"
                  name="animationIds"
                  value={animation.id}
                  defaultChecked={(fields.animationIds.initialValue as string[] | undefined)?.includes(animation.id)}
                  className="mt-0.5 h-4 w-4 rounded border-slate-300"
                />
                {animation.title}
              </label>
            ))}
          </div>
          <ErrorList id={fields.animationIds.errorId} errors={fields.animationIds.errors} />
        </fieldset>
      )}
      <Field
        label="Label (for your list; the patient does not see it)"
        {...getInputProps(fields.label, { type: "text" })}
        errors={fields.label.errors}
        placeholder="Knee replacement, Tuesday's patients"
      />
      <TextareaField
        label="Note to the patient (optional)"
        {...getTextareaProps(fields.note)}
        errors={fields.note.errors}
        rows={3}
        hint="Shown above the video and in the e-mail."
      />
      <div className="grid gap-4 sm:grid-cols-2">
        <SelectField
          label="Language of the player and captions"
          {...getSelectProps(fields.language)}
          errors={fields.language.errors}
          options={LINK_LANGUAGES.map((value) => ({ value, label: LINK_LANGUAGE_LABEL[value] }))}
        />
        <Field
          label="Works until"
          {...getInputProps(fields.expiresOn, { type: "date" })}
          min={today}
          max={latestExpiry ?? undefined}
          errors={fields.expiresOn.errors}
          hint={latestExpiry ? `At most the license's end, ${formatLongDate(latestExpiry)}.` : undefined}
        />
      </div>
      <Field
        label="E-mail it to (optional)"
        {...getInputProps(fields.recipientEmail, { type: "email" })}
        errors={fields.recipientEmail.errors}
        autoComplete="off"
        hint="Sent in your clinic's name, without tracking. Leave empty to copy or print the link yourself."
      />
      <ErrorList id={form.errorId} errors={form.errors} />
      <SubmitButton name="intent" value="create" pendingText="Creating...">
        Create link
      </SubmitButton>
    </Form>
  );
}

const STATE_LABEL: Record<PatientLinkRow["state"], string> = { live: "Active", expired: "Expired", revoked: "Revoked" };

function LinkCard({
  link,
  licenceId,
  qr,
  lastResult,
}: {
  link: PatientLinkRow;
  licenceId: string;
  qr: string | null;
  lastResult: SubmissionResult<string[]> | undefined;
}) {
  const [form, fields] = useForm({
    id: `send-${link.id}`,
    lastResult,
    constraint: getZodConstraint(SendPatientLinkSchema),
    onValidate: ({ formData }) => parseWithZod(formData, { schema: SendPatientLinkSchema }),
    shouldRevalidate: "onBlur",
  });
  const live = link.state === "live";
  const name = link.label || link.animations.map((a) => a.title).join(", ");
  return (
    <li className="rounded-xl border border-slate-200 bg-white p-4" data-testid="patient-link">
      <div className="flex flex-wrap gap-4">
        <div className="min-w-0 flex-1 space-y-2">
          <p className="font-semibold">
            {name}{" "}
            <span
              className={`ml-1 rounded-full px-2 py-0.5 text-xs font-semibold ${live ? "bg-emerald-100 text-emerald-800" : "bg-slate-100 text-slate-700"}`}
              data-testid="patient-link-state"
            >
              {STATE_LABEL[link.state]}
            </span>
          </p>
          <p className="text-sm text-slate-700">
            {link.animations.map((a) => a.title).join(" → ")}
            {` · ${LINK_LANGUAGE_LABEL[link.language as "en"] ?? link.language}`}
            {live
              ? ` · works until ${formatDate(link.expiresAt)}`
              : link.revokedAt
                ? ` · revoked ${formatDate(link.revokedAt)}`
                : ` · expired ${formatDate(link.expiresAt)}`}
          </p>
          <p className="text-sm text-slate-700" data-testid="patient-link-activity">
            {link.sentAt ? `Sent to ${link.recipientEmail} on ${formatDateTime(link.sentAt)}. ` : ""}
            {link.firstOpenedAt ? `Opened on ${formatDateTime(link.firstOpenedAt)}. ` : "Not opened yet. "}
            {link.completedAt ? `Watched to the end on ${formatDateTime(link.completedAt)}.` : link.firstOpenedAt ? "Not watched to the end yet." : ""}
          </p>
          {link.note ? <p className="text-sm whitespace-pre-line text-slate-600">{`Note: ${link.note}`}</p> : null}
          {live ? (
            <>
              <label className="block text-sm">
                <span className="font-medium">Link</span>
                <input
                  readOnly
                  value={link.url}
                  className="mt-1 block w-full rounded-lg border border-slate-300 bg-slate-50 px-3 py-2 font-mono text-xs"
                  data-testid="patient-link-url"
                  onFocus={(event) => event.currentTarget.select()}
                />
              </label>
              <Form method="post" {...getFormProps(form)} className="flex flex-wrap items-end gap-2">
                <input type="hidden" name="linkId" value={link.id} />
                <Field
                  label="E-mail it to"
                  {...getInputProps(fields.recipientEmail, { type: "email" })}
                  errors={fields.recipientEmail.errors}
                  className="min-w-56 flex-1"
                  autoComplete="off"
                />
                <SubmitButton name="intent" value="send" variant="secondary" pendingText="Sending...">
                  Send
                </SubmitButton>
                <ErrorList id={form.errorId} errors={form.errors} />
              </Form>
              <div className="flex flex-wrap gap-3 text-sm">
                <TextLink to={`/licences/${licenceId}/patient-links/${link.id}/card`}>Print QR card</TextLink>
                <Form method="post">
                  <input type="hidden" name="intent" value="revoke" />
                  <input type="hidden" name="linkId" value={link.id} />
                  <button type="submit" className="font-medium text-red-700 underline hover:text-red-800">
                    Revoke
                  </button>
                </Form>
              </div>
            </>
          ) : null}
        </div>
        {qr ? (
          <div
            className="h-32 w-32 shrink-0 [&>svg]:h-full [&>svg]:w-full"
            role="img"
            aria-label={`QR code of the link for ${name}`}
            data-testid="patient-link-qr"
            // Markup the qrcode library drew from our own URL: paths and rects, no text of anyone's.
            dangerouslySetInnerHTML={{ __html: qr }}
          />
        ) : null}
      </div>
    </li>
  );
}

export function ErrorBoundary() {
  return (
    <GeneralErrorBoundary
      statusHandlers={{ 404: () => <ErrorScreen title={LICENCE_NOT_FOUND} message="There is no license with this id in your account or your practice." /> }}
    />
  );
}
