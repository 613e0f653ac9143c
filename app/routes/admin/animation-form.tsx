import { getFormProps, getInputProps, getTextareaProps, useForm } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
import { Form } from "~/components/ui/form.tsx";
import { AdminPage, Panel } from "~/components/admin/admin-page.tsx";
import { CategoryOptions } from "~/components/admin/category-options.tsx";
import { FileField } from "~/components/admin/file-field.tsx";
import { CheckboxField, ErrorList, Field, TextareaField } from "~/components/ui/field.tsx";
import { SubmitButton } from "~/components/ui/submit-button.tsx";
import { StepUpNotice } from "~/components/admin/step-up-notice.tsx";
import { TextLink } from "~/components/ui/text-link.tsx";
import { invariantResponse, ServiceError } from "~/lib/errors.server.ts";
import { formError } from "~/lib/form.server.ts";
import { formatDuration } from "~/lib/format.ts";
import { redirectWithToast } from "~/lib/toast.server.ts";
import { discardUploads, readUploadForm } from "~/lib/upload-form.server.ts";
import { uploadRule } from "~/lib/upload.server.ts";
import { requireAdmin } from "~/services/auth/guards.server.ts";
import { requireStepUp, stepUpLinkUnlessRecent } from "~/services/auth/step-up.server.ts";
import { createAnimation, getAdminAnimation, getAnimationFormOptions, retryMedia, updateAnimation } from "~/services/catalogue/animation-admin.server.ts";
import { listEmbedPlaysForAnimation } from "~/services/licensing/embeds.server.ts";
import { getIndividualPriceWarning } from "~/services/commerce/offers.server.ts";
import { getCurrentRenditions, getMediaJobs } from "~/services/media/media-jobs.server.ts";
import { MediaPanel } from "~/components/admin/media-panel.tsx";
import { getPublishing } from "~/services/catalogue/publishing.server.ts";
import { AnimationSchema } from "~/validation/admin-catalogue.ts";
import { NOINDEX } from "~/lib/seo.ts";
import type { Route } from "./+types/animation-form";

// /admin/animations/new and /admin/animations/:id (the form's fields, the
// uploads' states, duration default 120 shown as m:ss). Files: multipart without JavaScript,
// direct uploads with a percentage with it (components/admin/file-field.tsx). A new animation is
// a draft; "Publish when ready" publishes it once its ladder and review are done (decision 032).
// A duration probed from the full video is shown read-only; typed only for a master without one.

export const meta: Route.MetaFunction = ({ data }) => [{ title: `${data?.animation ? "Edit Animation" : "New Animation"} | Admin` }, NOINDEX];

const MEDIA = { coverImage: "cover", fullVideo: "video", downloadFile: "download" } as const;

export async function loader({ request, params }: Route.LoaderArgs) {
  const validId = params.id && /^[0-9a-f-]{36}$/i.test(params.id);
  const [animation, options, jobs, embedPlays, renditions, publishing] = await Promise.all([
    params.id ? getAdminAnimation(params.id) : null,
    getAnimationFormOptions(),
    validId ? getMediaJobs(params.id!) : [],
    validId ? listEmbedPlaysForAnimation(params.id!) : [],
    validId ? getCurrentRenditions(params.id!) : [],
    validId ? getPublishing(params.id!) : null,
  ]);
  if (params.id) invariantResponse(animation, "Animation not found", { status: 404 });
  const limits = { cover: uploadRule("cover").maxMB, video: uploadRule("video").maxMB, download: uploadRule("download").maxMB };
  const priceWarning = animation ? await getIndividualPriceWarning(animation) : null;
  return {
    animation,
    ...options,
    jobs: jobs.slice(0, 5),
    limits,
    embedPlays,
    priceWarning,
    renditions,
    publishing,
    stepUpLink: await stepUpLinkUnlessRecent(request),
  };
}

export async function action({ request, params }: Route.ActionArgs) {
  const admin = await requireAdmin(request);
  const upload = await readUploadForm(request, MEDIA);
  if (upload.formData.get("intent") === "retry-media" && params.id) {
    try {
      await retryMedia(admin, params.id);
      return redirectWithToast(`/admin/animations/${params.id}`, { title: "Transcode Queued", description: "The renditions are being made again." });
    } catch (error) {
      if (!(error instanceof ServiceError)) throw error;
      return redirectWithToast(`/admin/animations/${params.id}`, { title: "Failed to update animation", description: error.message, type: "error" });
    }
  }
  const submission = parseWithZod(upload.formData, { schema: AnimationSchema });
  const uploadError = Object.entries(upload.errors)[0];
  if (uploadError) return formError(submission, new ServiceError(uploadError[1][0] ?? "Upload failed", 400, uploadError[0]));
  if (submission.status !== "success") {
    await discardUploads(upload.stored);
    return formError(submission);
  }
  try {
    const animation = params.id
      ? await updateAnimation(admin, params.id, submission.value, () => requireStepUp(request))
      : await createAnimation(admin, submission.value, () => requireStepUp(request));
    // Saved either way: a price that is not below its category licence is the admin's call.
    const priceWarning = await getIndividualPriceWarning(animation);
    const draft = animation.publishWhenReady ? "a draft, published when it is ready" : "a draft until you publish it";
    const saved = animation.isActive ? `${animation.title} was saved.` : `${animation.title} was saved as ${draft}.`;
    return redirectWithToast("/admin/animations", {
      title: params.id ? "Animation Updated" : "Animation Created",
      description: priceWarning ? `${saved} ${priceWarning}` : saved,
      type: priceWarning ? "info" : "success",
    });
  } catch (error) {
    await discardUploads(upload.stored);
    if (!(error instanceof ServiceError)) throw error;
    // Failure toasts: "Failed to create animation" / "Failed to update animation"; the server's message preferred.
    return formError(
      submission,
      error.field ? error : new ServiceError(error.message || (params.id ? "Failed to update animation" : "Failed to create animation"), error.status),
    );
  }
}

export default function AnimationFormScreen({ loaderData, actionData }: Route.ComponentProps) {
  const { animation, categories, doctors, jobs, limits, embedPlays, priceWarning, renditions, publishing, stepUpLink } = loaderData;
  const [form, fields] = useForm({
    lastResult: actionData?.result,
    defaultValue: animation
      ? {
          ...animation,
          individualPrice: animation.individualPrice.toFixed(2),
          duration: String(animation.duration),
          doctorIds: animation.doctorIds,
          publishWhenReady: animation.publishWhenReady ? "on" : undefined,
        }
      : { duration: "120", individualPrice: "299.00", doctorIds: [] },
    constraint: getZodConstraint(AnimationSchema),
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
  });
  // The m:ss beside the field is the server's too: after a refused save it shows what was sent.
  const duration = Number(fields.duration.value ?? fields.duration.initialValue ?? 120);
  const probed = animation?.durationProbed ? animation : null;
  const chosenDoctors = new Set([fields.doctorIds.initialValue ?? []].flat().filter(Boolean) as string[]);
  return (
    <AdminPage
      title={animation ? `Edit “${animation.title}”` : "New Animation"}
      actions={animation ? <TextLink to={`/admin/animations/${animation.id}/medical`}>Captions & medical review</TextLink> : undefined}
    >
      <p className="flex gap-4 text-sm">
        <TextLink to="/admin/animations">Back to Animations</TextLink>
        {animation ? (
          <a href={`/animations/${animation.slug}`} target="_blank" rel="noopener noreferrer" className="font-medium text-brand-700 hover:underline">
            View public page (new tab)
          </a>
        ) : null}
      </p>
      {publishing ? (
        <p className="text-sm" data-testid="publish-state">
          <span className="font-medium">{publishing.label}</span>
          {publishing.missing.length ? <span className="text-slate-600"> · to publish, still needed: {publishing.missing.join("; ")}</span> : null}
        </p>
      ) : null}
      {animation ? <MediaPanel hasVideo={Boolean(animation.fullVideo)} job={jobs[0] ?? null} renditions={renditions} /> : null}
      <Panel>
        <Form method="post" encType="multipart/form-data" {...getFormProps(form)} className="grid max-w-3xl gap-5">
          <StepUpNotice link={stepUpLink} action={animation ? "Changing the price" : "Putting a new animation on sale"} />
          <Field label="Title" {...getInputProps(fields.title, { type: "text" })} errors={fields.title.errors} />
          <Field
            label="Slug"
            hint="Leave blank to make it from the title (lowercase, underscores)."
            {...getInputProps(fields.slug, { type: "text" })}
            errors={fields.slug.errors}
          />
          <TextareaField label="Description" rows={8} {...getTextareaProps(fields.description)} errors={fields.description.errors} />
          <div className="grid gap-5 sm:grid-cols-2">
            <div>
              <Field
                label="Individual price (USD)"
                inputMode="decimal"
                {...getInputProps(fields.individualPrice, { type: "text" })}
                aria-describedby={priceWarning ? "individual-price-warning" : undefined}
                errors={fields.individualPrice.errors}
              />
              {priceWarning ? (
                <p id="individual-price-warning" className="mt-1 rounded-md bg-amber-50 p-2 text-sm text-amber-900">
                  {priceWarning}
                </p>
              ) : null}
            </div>
            {probed ? (
              <Field
                label="Duration (seconds)"
                hint={`Shown as ${formatDuration(probed.duration)}. Read from the full video${probed.videoWidth && probed.videoHeight ? ` (${probed.videoWidth}×${probed.videoHeight})` : ""}.`}
                name={fields.duration.name}
                id={fields.duration.id}
                type="number"
                value={probed.duration}
                readOnly
              />
            ) : (
              <Field
                label="Duration (seconds)"
                hint={`Shown as ${formatDuration(Number.isFinite(duration) && duration > 0 ? duration : 0)}.${animation?.fullVideo ? "" : " Read from the full video once one is uploaded."}`}
                {...getInputProps(fields.duration, { type: "number" })}
                min={1}
                max={3600}
                errors={fields.duration.errors}
              />
            )}
          </div>
          <div>
            <label htmlFor={fields.categoryId.id} className="mb-1 block text-sm font-medium text-slate-700">
              Category
            </label>
            <select
              id={fields.categoryId.id}
              name={fields.categoryId.name}
              defaultValue={String(fields.categoryId.initialValue ?? "")}
              aria-invalid={fields.categoryId.errors ? true : undefined}
              aria-describedby={fields.categoryId.errors ? `${fields.categoryId.id}-error` : undefined}
              className="block w-full rounded-lg border border-slate-300 bg-white px-3 py-2 text-sm shadow-sm"
            >
              <option value="">Choose a category</option>
              <CategoryOptions categories={categories} />
            </select>
            <ErrorList id={`${fields.categoryId.id}-error`} errors={fields.categoryId.errors} />
          </div>
          <fieldset>
            <legend className="mb-1 text-sm font-medium text-slate-700">Doctors</legend>
            <div className="grid max-h-56 gap-1 overflow-y-auto rounded-lg border border-slate-200 p-3 sm:grid-cols-2">
              {doctors.length === 0 ? <p className="text-sm text-slate-600">No doctors yet.</p> : null}
              {doctors.map((doctor) => (
                <label key={doctor.id} className="flex items-start gap-2 text-sm">
                  <input type="checkbox" name="doctorIds" value={doctor.id} defaultChecked={chosenDoctors.has(doctor.id)} className="mt-0.5" />
                  <span>
                    {doctor.name} <span className="text-slate-500">· {doctor.specialty}</span>
                    {doctor.isActive ? null : <span className="text-slate-500"> (inactive)</span>}
                  </span>
                </label>
              ))}
            </div>
            <ErrorList errors={fields.doctorIds.errors} />
          </fieldset>
          <FileField
            label="Cover image"
            name="coverImage"
            kind="cover"
            accept=".jpg,.jpeg,.png,image/jpeg,image/png"
            maxMB={limits.cover}
            hint={`JPG or PNG, up to ${limits.cover} MB.`}
            current={animation?.coverImage}
            image
            errors={fields.coverImage.errors}
          />
          <FileField
            label="Full video"
            name="fullVideo"
            kind="video"
            accept=".mp4,.mov,video/mp4,video/quicktime"
            maxMB={limits.video}
            hint="MP4 or MOV. A 10-second preview is cut from it automatically."
            current={animation?.fullVideo}
            errors={fields.fullVideo.errors}
          />
          <FileField
            label="Download file"
            name="downloadFile"
            kind="download"
            accept=".zip,.rar,application/zip"
            maxMB={limits.download}
            hint="Optional extras (source files, print stills), ZIP or RAR: added to the license package, which is made from the video."
            current={animation?.downloadFile}
            errors={fields.downloadFile.errors}
          />
          {animation?.isActive ? null : (
            <CheckboxField
              label="Publish when ready"
              hint="Publishes it by itself once its video is processed and, as the settings require, its medical review is recorded. Unchecked, it stays a draft until you publish it from the list."
              {...getInputProps(fields.publishWhenReady, { type: "checkbox" })}
              errors={fields.publishWhenReady.errors}
            />
          )}
          <ErrorList id={form.errorId} errors={form.errors} />
          <div>
            <SubmitButton pendingText="Saving...">{animation ? "Save Animation" : "Create Animation"}</SubmitButton>
          </div>
        </Form>
      </Panel>
      {animation ? (
        <Panel title="Embed plays">
          {embedPlays.length ? (
            <table className="w-full max-w-3xl text-left text-sm">
              <caption className="sr-only">Plays of this animation's licensed embeds, per licensee and site</caption>
              <thead>
                <tr className="border-b border-slate-200 text-slate-600">
                  <th scope="col" className="py-1.5 pr-4 font-medium">
                    Licensee
                  </th>
                  <th scope="col" className="py-1.5 pr-4 font-medium">
                    Domain
                  </th>
                  <th scope="col" className="py-1.5 text-right font-medium">
                    Plays
                  </th>
                </tr>
              </thead>
              <tbody>
                {embedPlays.map((row) => (
                  <tr key={`${row.licenceId}|${row.host}`} className="border-b border-slate-100">
                    {/* Long addresses and hosts wrap: a phone's column is narrower than they are. */}
                    <td className="py-1.5 pr-4 break-all">{row.email}</td>
                    <td className="py-1.5 pr-4 break-all">
                      <code>{row.host}</code>
                    </td>
                    <td className="py-1.5 text-right tabular-nums">{row.plays}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          ) : (
            <p className="text-sm text-slate-600">No embed of this animation has been played yet.</p>
          )}
        </Panel>
      ) : null}
    </AdminPage>
  );
}
