import type { Submission, SubmissionResult } from "@conform-to/react";
import { data } from "react-router";
import { ServiceError } from "./errors.server.ts";

type ReplyOptions = { hideFields?: string[] };

export const MALFORMED_FORM = "The form could not be read. Please send it again.";

/**
 * The posted form. A body that does not parse as the form type it declares (a broken multipart
 * boundary, say) is the sender's mistake: 400 with a message, where `request.formData()` alone
 * would throw and answer 500.
 */
export async function readFormData(request: Request): Promise<FormData> {
  try {
    return await request.formData();
  } catch {
    throw data({ message: MALFORMED_FORM }, { status: 400 });
  }
}

/**
 * The HTML actions' failure answer: the submission's own errors (400), or a ServiceError shown
 * next to its field (or above the form), with the error's status. `extra` travels beside the
 * result (the sign-in screen's `intent`). Anything else is not the user's doing and is rethrown.
 */
export function formError<Extra extends object = object>(
  submission: Submission<unknown>,
  error?: unknown,
  { hideFields, ...extra }: ReplyOptions & Extra = {} as ReplyOptions & Extra,
) {
  if (error === undefined) return data({ ...(extra as Extra), result: submission.reply({ hideFields }) as SubmissionResult<string[]> }, { status: 400 });
  if (!(error instanceof ServiceError)) throw error;
  const result = submission.reply({
    fieldErrors: error.field ? { [error.field]: [error.message] } : undefined,
    formErrors: error.field ? undefined : [error.message],
    hideFields,
  }) as SubmissionResult<string[]>;
  const headers = error.retryAfterSeconds ? { "Retry-After": String(error.retryAfterSeconds) } : undefined;
  return data({ ...(extra as Extra), result }, { status: error.status, headers });
}

/**
 * formError with the product's failure toast beside it ("Error creating FAQ", "Failed to update
 * template"...): its text is the server's message, or the form's first one.
 */
export function formErrorToast(submission: Submission<unknown>, title: string, error?: unknown) {
  const reply = formError(submission, error);
  const fieldErrors = submission.status === "error" ? submission.error : undefined;
  const first = error instanceof ServiceError ? error.message : Object.values(fieldErrors ?? {}).flat()[0];
  return data({ ...reply.data, toast: { title, description: first ?? "Check the form.", type: "error" as const } }, reply.init ?? undefined);
}
