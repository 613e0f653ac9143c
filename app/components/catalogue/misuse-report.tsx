import type { SubmissionResult } from "@conform-to/react";
import { Button } from "~/components/ui/button.tsx";
import { ErrorList, Field, TextareaField } from "~/components/ui/field.tsx";
import { Form } from "~/components/ui/form.tsx";
import { formFields } from "~/lib/constraint-messages.ts";
import { MisuseReportSchema, REPORT_FAILED } from "~/validation/catalogue.ts";

export const REPORT_INTENT = "report-misuse";

/**
 * The misuse report on the animation page: a <details> toggle opens and closes it without
 * JavaScript. Email and message are required, the link is optional. A rejected submission
 * renders the page again with it open, the answers and the errors; success redirects to the page
 * with a toast, the report closed and empty.
 *
 * Validation is the server's (parseWithZod in the route action): the form is `novalidate`
 * (components/ui/form.tsx), so its messages show rather than the browser's. The page does not
 * hydrate (decision 025): its script (app/static-page/animation-page.ts) keeps Submit disabled
 * until email and message are filled, says "Submitting..." while the report is sent, and closes
 * the form on Cancel.
 */
export function MisuseReport({
  animationId,
  animationTitle,
  lastResult,
}: {
  animationId: string;
  animationTitle: string;
  lastResult?: SubmissionResult<string[]> | null;
}) {
  const { invalid, formErrors, errorsOf, valueOf } = formFields(MisuseReportSchema, "misuse-report", lastResult);

  return (
    <details open={invalid} className="rounded-xl border border-slate-200 bg-white" data-testid="misuse-report">
      <summary className="px-5 py-3 text-sm font-semibold text-slate-700 hover:text-red-700">Report Misuse</summary>
      <Form method="post" className="flex flex-col gap-4 border-t border-slate-100 px-5 py-4" id="misuse-report" data-misuse-report>
        <p className="text-sm text-slate-600">Seen this animation used without a license, or something wrong with it? Tell us and we will investigate.</p>
        <input type="hidden" name="intent" value={REPORT_INTENT} />
        <input type="hidden" name="animationId" value={animationId} />
        <input type="hidden" name="animationTitle" value={animationTitle} />
        <Field
          label="Your email"
          name="reporterEmail"
          type="email"
          required
          maxLength={254}
          autoComplete="email"
          defaultValue={String(valueOf("reporterEmail") ?? "")}
          errors={errorsOf("reporterEmail")}
        />
        <TextareaField
          label="What is the problem?"
          name="message"
          required
          maxLength={5000}
          rows={4}
          defaultValue={String(valueOf("message") ?? "")}
          errors={errorsOf("message")}
        />
        <Field
          label="Link (optional)"
          name="link"
          type="url"
          maxLength={2000}
          placeholder="https://"
          defaultValue={String(valueOf("link") ?? "")}
          errors={errorsOf("link")}
        />
        {formErrors?.length ? (
          // A refusal that is not one field's (over the hourly limit): the product's failure
          // title with the server's text, which says when to try again and where to write.
          <div role="alert" className="rounded-lg border border-red-200 bg-red-50 p-3 text-sm text-red-900" data-testid="misuse-report-error">
            <p className="font-semibold">{REPORT_FAILED}</p>
            <ErrorList errors={formErrors} />
          </div>
        ) : null}
        <div className="flex gap-3">
          <Button type="submit" variant="danger" data-pending-text="Submitting...">
            Submit Report
          </Button>
          <Button type="reset" variant="secondary">
            Cancel
          </Button>
        </div>
      </Form>
    </details>
  );
}
