import type { SubmissionResult } from "@conform-to/react";
import { useRef, useState } from "react";
import { Form } from "react-router";
import { Button } from "~/components/ui/button.tsx";
import { SubmitButton } from "~/components/ui/submit-button.tsx";
import { useIsPending } from "~/components/ui/use-is-pending.ts";
import { ErrorList, Field, TextareaField } from "~/components/ui/field.tsx";
import { useHydrated } from "~/components/ui/use-hydrated.ts";

export const REPORT_INTENT = "report-misuse";

/**
 * The misuse report on the animation page: a <details> toggle opens and closes it without
 * JavaScript. Email and message are required, the link is optional. The parent remounts it
 * (a new key per location) after each submission, so success leaves it closed and empty, and
 * a rejected submission reopens it with the answers and the errors.
 *
 * Validation is the server's (parseWithZod in the route action) plus the browser's own
 * (`required`, `type=email`, `type=url`): this form renders on every detail page, and a
 * client form library here cost a measurable share of the page's server render time.
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
  const submitting = useIsPending({ intent: REPORT_INTENT, state: "submitting" });
  const details = useRef<HTMLDetailsElement>(null);
  const errors = (lastResult?.error ?? {}) as Record<string, string[] | null | undefined>;
  const hasErrors = Object.values(errors).some((e) => e?.length);

  // Submit stays disabled until email and message are filled. Only once hydrated:
  // without JavaScript the button must stay usable (the fields are `required` instead).
  const hydrated = useHydrated();
  const initial = (lastResult?.initialValue ?? {}) as Record<string, unknown>;
  const [filled, setFilled] = useState({
    email: String(initial.reporterEmail ?? "").trim() !== "",
    message: String(initial.message ?? "").trim() !== "",
  });

  return (
    <details ref={details} open={hasErrors} className="rounded-xl border border-slate-200 bg-white" data-testid="misuse-report">
      <summary className="px-5 py-3 text-sm font-semibold text-slate-700 hover:text-red-700">Report Misuse</summary>
      <Form
        method="post"
        preventScrollReset
        className="flex flex-col gap-4 border-t border-slate-100 px-5 py-4"
        id="misuse-report"
        onInput={(event) => {
          const data = new FormData(event.currentTarget);
          setFilled({
            email: String(data.get("reporterEmail") ?? "").trim() !== "",
            message: String(data.get("message") ?? "").trim() !== "",
          });
        }}
      >
        <p className="text-sm text-slate-600">
          Seen this animation used without a license, or something wrong with it? Tell us and we will investigate.
        </p>
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
          defaultValue={String(initial.reporterEmail ?? "")}
          errors={errors.reporterEmail}
        />
        <TextareaField
          label="What is the problem?"
          name="message"
          required
          maxLength={5000}
          rows={4}
          defaultValue={String(initial.message ?? "")}
          errors={errors.message}
        />
        <Field
          label="Link (optional)"
          name="link"
          type="url"
          maxLength={2000}
          placeholder="https://"
          defaultValue={String(initial.link ?? "")}
          errors={errors.link}
        />
        <ErrorList errors={errors[""]} />
        <div className="flex gap-3">
          <SubmitButton
            variant="danger"
            pending={submitting}
            pendingText="Submitting..."
            disabled={hydrated && !(filled.email && filled.message)}
          >
            Submit Report
          </SubmitButton>
          <Button
            type="reset"
            variant="secondary"
            onClick={() => {
              // Cancel clears (a reset button) and closes.
              setFilled({ email: false, message: false });
              if (details.current) details.current.open = false;
            }}
          >
            Cancel
          </Button>
        </div>
      </Form>
    </details>
  );
}
