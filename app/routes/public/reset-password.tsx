import type { SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { data } from "react-router";
import { AccountScreen, FormScreen } from "~/components/account/account-screen.tsx";
import { GeneralErrorBoundary } from "~/components/error-boundary.tsx";
import { Button, ButtonLink } from "~/components/ui/button.tsx";
import { ErrorList, Field } from "~/components/ui/field.tsx";
import { Form } from "~/components/ui/form.tsx";
import { formFields } from "~/lib/constraint-messages.ts";
import { ServiceError } from "~/lib/errors.server.ts";
import { formError, readFormData } from "~/lib/form.server.ts";
import { LOAD_AS_DOCUMENT, staticPageWith } from "~/lib/page-handle.ts";
import { redirectWithToast } from "~/lib/toast.server.ts";
import { isResetTokenUsable, resetPassword } from "~/services/auth/account.server.ts";
import { ResetPasswordSchema } from "~/validation/account.ts";
import { pageHead, siteOf } from "~/lib/seo.ts";
import type { Route } from "./+types/reset-password";

// The page does not hydrate (decision 025): its form is checked before it is sent by the page's
// own script (app/static-page/form-page.ts).
export const handle = staticPageWith("form");
export const clientMiddleware = LOAD_AS_DOCUMENT;

export const meta: Route.MetaFunction = ({ matches }) =>
  pageHead(siteOf(matches), {
    title: "Reset Password",
    description: "Choose a new password for your account with the link we e-mailed you.",
    canonicalPath: "/reset-password",
    robots: "noindex",
  });

type View = "missing" | "invalid" | "form" | "done";

// Not "Referrer-Policy: no-referrer": browsers then post this page's form with "Origin: null",
// which the CSRF guard refuses. The site-wide strict-origin-when-cross-origin already keeps the
// token out of Referer headers sent to other sites.
const NO_STORE = { "Cache-Control": "no-store" };

export async function loader({ url }: Route.LoaderArgs) {
  const params = url.searchParams;
  if (params.get("done") === "1") return data({ view: "done" as View, token: "" }, { headers: NO_STORE });
  const token = params.get("token")?.trim() ?? "";
  if (!token) return data({ view: "missing" as View, token }, { headers: NO_STORE });
  // Checked, not used: the token is only consumed when the new password is saved.
  const view: View = (await isResetTokenUsable(token)) ? "form" : "invalid";
  return data({ view, token }, { headers: NO_STORE });
}

export const headers: Route.HeadersFunction = ({ loaderHeaders }) => loaderHeaders;

export async function action({ request }: Route.ActionArgs) {
  const formData = await readFormData(request);
  const submission = parseWithZod(formData, { schema: ResetPasswordSchema });
  if (submission.status !== "success") {
    return formError(submission, undefined, { invalid: false, hideFields: ["password", "confirmPassword"] });
  }
  try {
    await resetPassword(submission.value.token, submission.value.password);
  } catch (error) {
    // A message containing 'Invalid or expired' switches to the error screen.
    if (error instanceof ServiceError && error.message.includes("Invalid or expired")) {
      return formError(submission, undefined, { invalid: true, hideFields: ["password", "confirmPassword"] });
    }
    return redirectWithToast(`/reset-password?token=${encodeURIComponent(submission.value.token)}`, {
      title: "Error",
      description: error instanceof ServiceError ? error.message : "Failed to reset password. Please try again.",
      type: "error",
    });
  }
  // Every session ended with the reset: the user signs in again with the new password.
  return redirectWithToast("/reset-password?done=1", { title: "Password reset successful", description: "You can now sign in with your new password." });
}

export default function ResetPassword({ loaderData, actionData }: Route.ComponentProps) {
  const view: View = actionData?.invalid ? "invalid" : loaderData.view;
  if (view === "done") {
    return (
      <AccountScreen title="Password Reset Successful" tone="success" message="Your password has been updated. Sign in with your new password.">
        <ButtonLink to="/auth">Sign In Now</ButtonLink>
      </AccountScreen>
    );
  }
  if (view === "missing" || view === "invalid") {
    return (
      <AccountScreen
        title="Invalid Reset Link"
        tone="error"
        message={
          view === "missing"
            ? "Reset token is missing. Please check your email and click the reset link again."
            : "This reset link is invalid or has expired. Please request a new password reset."
        }
      >
        <ButtonLink to="/forgot-password">Request New Password Reset</ButtonLink>
        <ButtonLink to="/auth" variant="secondary">
          Back to Sign In
        </ButtonLink>
      </AccountScreen>
    );
  }
  return <ResetForm token={loaderData.token} lastResult={actionData?.result} />;
}

function ResetForm({ token, lastResult }: { token: string; lastResult: SubmissionResult<string[]> | null | undefined }) {
  const { formErrors, field, errorsOf } = formFields(ResetPasswordSchema, "reset-password", lastResult);
  return (
    <FormScreen title="Reset Password" intro="Choose a new password of at least 6 characters.">
      <Form method="post" id="reset-password" data-check className="mt-6 flex flex-col gap-4">
        <input type="hidden" name="token" value={token} />
        <Field label="New Password" autoComplete="new-password" {...field("password")} type="password" />
        <Field label="Confirm New Password" autoComplete="new-password" {...field("confirmPassword", { sameAs: "password" })} type="password" />
        <ErrorList errors={errorsOf("token")} />
        <ErrorList id="reset-password-form-error" errors={formErrors} />
        <Button type="submit" data-pending-text="Updating Password...">
          Update Password
        </Button>
      </Form>
    </FormScreen>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
