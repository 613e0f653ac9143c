import { parseWithZod } from "@conform-to/zod/v4";
import { FormScreen } from "~/components/account/account-screen.tsx";
import { GeneralErrorBoundary } from "~/components/error-boundary.tsx";
import { Button, ButtonLink } from "~/components/ui/button.tsx";
import { ErrorList, Field } from "~/components/ui/field.tsx";
import { Form } from "~/components/ui/form.tsx";
import { formFields } from "~/lib/constraint-messages.ts";
import { formError, readFormData } from "~/lib/form.server.ts";
import { ServiceError } from "~/lib/errors.server.ts";
import { LOAD_AS_DOCUMENT, staticPageWith } from "~/lib/page-handle.ts";
import { clientAddress } from "~/lib/rate-limit.server.ts";
import { redirectWithToast } from "~/lib/toast.server.ts";
import { requestPasswordReset } from "~/services/auth/account.server.ts";
import { ForgotPasswordSchema, RESET_EMAIL_SENT } from "~/validation/account.ts";
import { pageHead, siteOf } from "~/lib/seo.ts";
import type { Route } from "./+types/forgot-password";

// The page does not hydrate (decision 025): its form is checked before it is sent by the page's
// own script (app/static-page/form-page.ts).
export const handle = staticPageWith("form");
export const clientMiddleware = LOAD_AS_DOCUMENT;

export const meta: Route.MetaFunction = ({ matches }) =>
  pageHead(siteOf(matches), {
    title: "Reset Password",
    description: "Forgot your password? Enter your account's e-mail address and we send you a link to choose a new one.",
    canonicalPath: "/forgot-password",
    robots: "noindex",
  });

export async function loader({ url }: Route.LoaderArgs) {
  // After a request the form is replaced by the notice (post/redirect/get: works without JS).
  return { sent: url.searchParams.get("sent") === "1" };
}

export async function action({ request, context }: Route.ActionArgs) {
  const formData = await readFormData(request);
  const submission = parseWithZod(formData, { schema: ForgotPasswordSchema });
  if (submission.status !== "success") return formError(submission);
  try {
    await requestPasswordReset(submission.value.email, clientAddress(context));
  } catch (error) {
    if (error instanceof ServiceError) return formError(submission, error);
    return redirectWithToast("/forgot-password", { title: "Error", description: "Something went wrong. Please try again.", type: "error" });
  }
  // The same answer whether or not the address has an account.
  return redirectWithToast("/forgot-password?sent=1", { title: "Reset email sent", description: RESET_EMAIL_SENT });
}

export default function ForgotPassword({ loaderData, actionData }: Route.ComponentProps) {
  const { formErrors, field } = formFields(ForgotPasswordSchema, "forgot-password", actionData?.result);
  return (
    <FormScreen title="Reset Password" back={{ to: "/auth", label: "Back to sign in" }}>
      {loaderData.sent ? (
        <div className="mt-6">
          <div role="status" className="rounded-lg border border-green-200 bg-green-50 p-4 text-sm text-green-900">
            <p className="font-semibold">Check your email</p>
            <p className="mt-1">{RESET_EMAIL_SENT} The link is valid for 1 hour.</p>
          </div>
          <ButtonLink to="/auth" className="mt-6 w-full">
            Back to Sign In
          </ButtonLink>
        </div>
      ) : (
        <Form method="post" id="forgot-password" data-check className="mt-6 flex flex-col gap-4">
          <p className="text-sm text-slate-600">Enter the email address of your account and we will send you a link to reset your password.</p>
          <Field label="Email" autoComplete="email" {...field("email")} />
          <ErrorList id="forgot-password-form-error" errors={formErrors} />
          <Button type="submit" data-pending-text="Sending...">
            Send Reset Link
          </Button>
        </Form>
      )}
    </FormScreen>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
