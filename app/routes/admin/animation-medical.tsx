import { getFormProps, getInputProps, getSelectProps, useForm, type SubmissionResult } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
import { data, useLocation } from "react-router";
import { Form } from "~/components/ui/form.tsx";
import { Link } from "~/components/ui/link.tsx";
import { z } from "zod";
import { AdminPage, Panel } from "~/components/admin/admin-page.tsx";
import { ConfirmButton, ConfirmPanel, type ConfirmStep } from "~/components/admin/confirm.tsx";
import { DataTable } from "~/components/admin/data-table.tsx";
import { ErrorList, Field, SelectField } from "~/components/ui/field.tsx";
import { SubmitButton } from "~/components/ui/submit-button.tsx";
import { GeneralErrorBoundary } from "~/components/error-boundary.tsx";
import { asRouteError, invariantResponse, ServiceError } from "~/lib/errors.server.ts";
import { formError, readFormData } from "~/lib/form.server.ts";
import { formatDateTime, formatLongDate } from "~/lib/format.ts";
import { logger } from "~/lib/logger.server.ts";
import { redirectWithToast } from "~/lib/toast.server.ts";
import { discardUploads, streamMultipartUpload } from "~/lib/upload.server.ts";
import { requireAdmin } from "~/services/auth/guards.server.ts";
import { deleteCaption, listCaptions, saveCaption } from "~/services/catalogue/captions.server.ts";
import type { Actor } from "~/services/admin/audit.server.ts";
import { formatMedicalReview } from "~/services/catalogue/medical-review-claim.ts";
import { getMedicalReview, saveMedicalReview } from "~/services/catalogue/medical-review.server.ts";
import { UUID_RE } from "~/validation/account.ts";
import { CAPTION_LANGUAGES, CaptionUploadSchema, DeleteCaptionSchema, MedicalReviewSchema, REVIEW_INTERVAL_MONTHS } from "~/validation/admin-captions.ts";
import { NOINDEX } from "~/lib/seo.ts";
import type { Route } from "./+types/animation-medical";

// /admin/animations/:id/medical: an animation's caption tracks (WebVTT per language) and its
// medical review dates. The caption form is multipart with or without JavaScript: the file is
// streamed to storage by the upload helpers, then attached by the captions service.

const Params = z.object({ id: z.string().regex(UUID_RE) });

function animationId(params: Record<string, string | undefined>) {
  const parsed = Params.safeParse(params);
  invariantResponse(parsed.success, "Animation not found", { status: 404 });
  return parsed.data.id;
}

const screenUrl = (id: string) => `/admin/animations/${id}/medical`;

export async function loader({ params, url }: Route.LoaderArgs) {
  const id = animationId(params);
  const [animation, captions] = await Promise.all([getMedicalReview(id).catch(asRouteError), listCaptions(id)]);
  const confirmId = url.searchParams.get("confirm");
  const toDelete = url.searchParams.get("intent") === "delete" && confirmId ? captions.find((c) => c.id === confirmId) : undefined;
  return {
    animation,
    captions,
    confirm: toDelete ? { id: toDelete.id, label: toDelete.label, language: toDelete.language } : null,
  };
}

export const meta: Route.MetaFunction = ({ data: loaderData }) => [
  { title: `${loaderData?.animation.title ?? "Animation"} · Captions and medical review | Admin` },
  NOINDEX,
];

export async function action({ request, params }: Route.ActionArgs) {
  const id = animationId(params);
  const admin = await requireAdmin(request);
  const contentType = request.headers.get("content-type") ?? "";

  if (contentType.toLowerCase().startsWith("multipart/form-data")) return uploadCaption(request, admin, id);

  let formData: FormData;
  try {
    formData = await readFormData(request);
  } catch {
    return data({ result: null, message: "Expected a form" }, { status: 400 });
  }
  const intent = formData.get("intent");

  if (intent === "delete") {
    const parsed = DeleteCaptionSchema.safeParse({ id: formData.get("id") });
    if (!parsed.success) return data({ result: null, message: "Caption not found" }, { status: 404 });
    try {
      const deleted = await deleteCaption(admin, id, parsed.data.id);
      return redirectWithToast(screenUrl(id), { title: "Caption deleted", description: `The ${deleted.label} track was removed.` });
    } catch (error) {
      if (error instanceof ServiceError) return data({ result: null, message: error.message }, { status: error.status });
      logger.error({ err: error }, "caption delete failed");
      return redirectWithToast(screenUrl(id), { title: "Error", description: "Failed to delete caption", type: "error" });
    }
  }

  if (intent === "review") {
    const submission = parseWithZod(formData, { schema: MedicalReviewSchema });
    if (submission.status !== "success") return formError(submission, undefined, { form: "review" as const });
    try {
      const saved = await saveMedicalReview(admin, id, submission.value);
      return redirectWithToast(screenUrl(id), {
        title: "Medical review saved",
        description: `Reviewed by ${saved.medicalReviewer?.name ?? "its doctor"} on ${formatLongDate(saved.medicallyReviewedAt)}; next review due ${formatLongDate(saved.reviewDueAt)}.${saved.published ? " It was ready, so it is now published." : ""}`,
      });
    } catch (error) {
      if (error instanceof ServiceError) return formError(submission, error, { form: "review" as const });
      logger.error({ err: error }, "medical review save failed");
      return redirectWithToast(screenUrl(id), { title: "Error", description: "Failed to save medical review", type: "error" });
    }
  }

  return data({ result: null, message: "Unknown action" }, { status: 400 });
}

async function uploadCaption(request: Request, admin: Actor, id: string) {
  let upload;
  try {
    upload = await streamMultipartUpload(request, { fields: { file: "caption" } });
  } catch (error) {
    if (error instanceof ServiceError) return data({ result: null, message: error.message }, { status: error.status });
    throw error;
  }
  const { formData, files, errors } = upload;
  // Only a file sent with this request may be attached, never a path typed into the form.
  if (!files.file) formData.delete("file");
  const submission = parseWithZod(formData, { schema: CaptionUploadSchema });
  if (Object.keys(errors).length || submission.status !== "success") {
    const fieldErrors = { ...(submission.status === "success" ? {} : submission.error), ...errors } as Record<string, string[]>;
    if (errors.file) delete fieldErrors.file;
    await discardUploads(Object.values(files));
    return data(
      {
        form: "caption" as const,
        result: submission.reply({ fieldErrors: { ...fieldErrors, ...(errors.file ? { file: errors.file } : {}) } }) as SubmissionResult<string[]>,
      },
      { status: 400 },
    );
  }
  try {
    const { caption, replaced } = await saveCaption(admin, id, submission.value);
    return redirectWithToast(screenUrl(id), {
      title: replaced ? "Caption replaced" : "Caption uploaded",
      description: `${caption.label} (${caption.language}): ${caption.cueCount} cues.`,
    });
  } catch (error) {
    if (error instanceof ServiceError) return formError(submission, error, { form: "caption" as const });
    logger.error({ err: error }, "caption upload failed");
    return redirectWithToast(screenUrl(id), { title: "Error", description: "Failed to upload caption", type: "error" });
  }
}

type LoaderData = Route.ComponentProps["loaderData"];
type Caption = LoaderData["captions"][number];

function deleteStep(caption: { id: string; label: string; language: string }): ConfirmStep {
  return {
    id: caption.id,
    intent: "delete",
    title: "Delete caption track",
    message: `Are you sure you want to delete the ${caption.label} (${caption.language}) captions? The file is deleted too.`,
    confirmLabel: "Delete",
    pendingText: "Deleting...",
  };
}

function formatSize(bytes: number) {
  return bytes < 1024 ? `${bytes} B` : `${(bytes / 1024).toFixed(1)} KB`;
}

export default function AnimationMedical({ loaderData, actionData }: Route.ComponentProps) {
  const { animation, captions, confirm } = loaderData;
  const formName = actionData && "form" in actionData ? actionData.form : undefined;
  const result = actionData && "result" in actionData ? actionData.result : undefined;
  const message = actionData && "message" in actionData ? (actionData.message as string) : undefined;
  const location = useLocation();
  return (
    <AdminPage
      title={animation.title}
      description="Captions and medical review"
      actions={
        <Link to={`/admin/animations/${animation.id}`} className="text-sm font-medium text-brand-700 hover:underline">
          ← Back to the animation
        </Link>
      }
    >
      {message ? (
        <p role="alert" className="rounded-lg bg-red-50 px-4 py-3 text-sm text-red-800">
          {message}
        </p>
      ) : null}
      {confirm ? <ConfirmPanel step={deleteStep(confirm)} /> : null}

      <Panel title="Captions">
        <DataTable<Caption>
          caption="Caption tracks"
          rows={captions}
          rowKey={(c) => c.id}
          empty="No caption tracks yet"
          columns={[
            { header: "Language", cell: (c) => <code className="text-xs">{c.language}</code> },
            { header: "Label", cell: (c) => c.label },
            { header: "Size", cell: (c) => `${formatSize(c.size)} · ${c.cueCount} cues`, className: "whitespace-nowrap" },
            { header: "Uploaded", cell: (c) => formatDateTime(c.updatedAt), className: "whitespace-nowrap" },
            {
              header: "Actions",
              cell: (c) => (
                <span className="flex gap-3">
                  <a href={c.path} className="font-medium text-brand-700 hover:underline">
                    View file
                  </a>
                  <ConfirmButton step={deleteStep(c)}>Delete</ConfirmButton>
                </span>
              ),
            },
          ]}
        />
        {/* Keyed by the location: a successful upload redirects here, and the new form must not
            keep the errors conform held from the failed attempt before it. */}
        <CaptionForm key={location.key} lastResult={formName === "caption" ? result : undefined} />
      </Panel>

      <Panel title="Medical review">
        <ReviewSection animation={animation} lastResult={formName === "review" ? result : undefined} />
      </Panel>
    </AdminPage>
  );
}

function CaptionForm({ lastResult }: { lastResult: SubmissionResult<string[]> | null | undefined }) {
  const [form, fields] = useForm({ id: "caption", lastResult, constraint: getZodConstraint(CaptionUploadSchema) });
  return (
    <Form method="post" encType="multipart/form-data" className="mt-6 grid gap-4 border-t border-slate-200 pt-5 sm:grid-cols-3" {...getFormProps(form)}>
      <h3 className="text-base font-semibold sm:col-span-3">Upload a caption track</h3>
      <SelectField
        label="Language"
        options={CAPTION_LANGUAGES.map((l) => ({ value: l.tag, label: `${l.name} (${l.tag})` }))}
        errors={fields.language.errors}
        hint="A track in a language that already has one replaces it."
        {...getSelectProps(fields.language)}
      />
      <Field
        label="Label"
        placeholder="English"
        hint="Shown in the player's menu; the language's name if blank."
        errors={fields.label.errors}
        {...getInputProps(fields.label, { type: "text" })}
      />
      <Field
        label="Caption file (.vtt)"
        accept=".vtt,text/vtt"
        hint="WebVTT, at most 1 MB."
        errors={fields.file.errors}
        {...getInputProps(fields.file, { type: "file" })}
        required
      />
      <div className="sm:col-span-3">
        <ErrorList id={form.errorId} errors={form.errors} />
        <SubmitButton pendingText="Uploading...">Upload captions</SubmitButton>
      </div>
    </Form>
  );
}

function toDay(value: Date | string | null) {
  return value ? new Date(value).toISOString().slice(0, 10) : "";
}

/** What the pages claim from this record: the public sentence while it is current, otherwise why nothing. */
function reviewStatus(animation: LoaderData["animation"]) {
  if (animation.current) return `Pages show: “${formatMedicalReview(animation.current)}”.`;
  if (!animation.medicallyReviewedAt) return "This animation has never been medically reviewed. Pages make no review claim.";
  const who = animation.medicalReviewer ? ` by ${animation.medicalReviewer.name}` : "";
  const last = `Last reviewed${who} on ${formatLongDate(animation.medicallyReviewedAt)}; next review due ${formatLongDate(animation.reviewDueAt) || "not set"}.`;
  if (!animation.medicalReviewer) return `${last} No reviewing doctor is recorded, so pages make no review claim.`;
  if (!animation.medicalReviewer.isActive) return `${last} The reviewer is no longer an active doctor, so pages make no review claim.`;
  return `${last} The review is not current, so pages make no review claim until it is recorded again.`;
}

function ReviewSection({ animation, lastResult }: { animation: LoaderData["animation"]; lastResult: SubmissionResult<string[]> | null | undefined }) {
  const [form, fields] = useForm({
    id: "review",
    lastResult,
    constraint: getZodConstraint(MedicalReviewSchema),
    defaultValue: {
      // The last reviewer, or the animation's only doctor.
      reviewerId: animation.medicalReviewer?.id ?? (animation.doctors.length === 1 ? animation.doctors[0]!.id : ""),
      reviewedAt: toDay(animation.medicallyReviewedAt),
      // Blank, not the last review's date: a new review would otherwise keep the old due date.
      reviewDueAt: "",
    },
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: MedicalReviewSchema }),
  });
  const activeDoctors = animation.doctors.filter((d) => d.isActive);
  return (
    <div className="space-y-4">
      <p className="text-sm text-slate-700" data-testid="review-status">
        {reviewStatus(animation)}
      </p>
      {activeDoctors.length ? null : (
        <p className="text-sm text-slate-600">Link an active doctor to this animation (Edit) before recording its review: the review names its doctor.</p>
      )}
      <Form method="post" className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4" {...getFormProps(form)}>
        <input type="hidden" name="intent" value="review" />
        <SelectField
          label="Reviewed by"
          placeholder="Choose a doctor"
          options={activeDoctors.map((d) => ({ value: d.id, label: d.specialty ? `${d.name} (${d.specialty})` : d.name }))}
          hint="One of the animation's doctors."
          errors={fields.reviewerId.errors}
          {...getSelectProps(fields.reviewerId)}
        />
        <Field label="Reviewed on" errors={fields.reviewedAt.errors} {...getInputProps(fields.reviewedAt, { type: "date" })} />
        <Field
          label="Next review due"
          hint={`Left blank: ${REVIEW_INTERVAL_MONTHS} months after the review.`}
          errors={fields.reviewDueAt.errors}
          {...getInputProps(fields.reviewDueAt, { type: "date" })}
        />
        <div className="flex items-end">
          <SubmitButton name="intent" value="review" pendingText="Saving...">
            Save review
          </SubmitButton>
        </div>
        <div className="sm:col-span-2 lg:col-span-4">
          <ErrorList id={form.errorId} errors={form.errors} />
        </div>
      </Form>
    </div>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
