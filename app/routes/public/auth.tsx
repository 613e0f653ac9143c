import type { SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { redirect, useSearchParams } from "react-router";
import { Link } from "~/components/ui/link.tsx";
import { Button } from "~/components/ui/button.tsx";
import { CheckboxField, ErrorList, Field } from "~/components/ui/field.tsx";
import { FormScreen } from "~/components/account/account-screen.tsx";
import { PasskeyButton } from "~/components/account/passkey-button.tsx";
import { TextLink } from "~/components/ui/text-link.tsx";
import { Form } from "~/components/ui/form.tsx";
import { formFields } from "~/lib/constraint-messages.ts";
import { formError, readFormData } from "~/lib/form.server.ts";
import { LOAD_AS_DOCUMENT, staticPageWith } from "~/lib/page-handle.ts";
import { clientAddress, enforceRateLimit, signUpRule } from "~/lib/rate-limit.server.ts";
import { setSecondStepToken } from "~/lib/session.server.ts";
import { redirectWithToast } from "~/lib/toast.server.ts";
import { registerUser } from "~/services/auth/credentials.server.ts";
import { requireAnonymous, TWO_STEP_SETUP_PATH } from "~/services/auth/guards.server.ts";
import { hasSecondFactor } from "~/services/auth/second-factor.server.ts";
import { beginSecondStep, SECOND_STEP_PATH, signIn, startBrowserSession } from "~/services/auth/sign-in.server.ts";
import { sendVerificationEmail } from "~/services/auth/verification.server.ts";
import { safeRedirect, SignInSchema, SignUpSchema } from "~/validation/auth-forms.ts";
import { pageHead, siteOf } from "~/lib/seo.ts";
import type { Route } from "./+types/auth";

// The page does not hydrate (decision 025): its forms are checked before they are sent, and the
// passkey button runs, from the page's own script (app/static-page/form-page.ts).
export const handle = staticPageWith("form");
export const clientMiddleware = LOAD_AS_DOCUMENT;

export const meta: Route.MetaFunction = ({ matches }) =>
  pageHead(siteOf(matches), {
    title: "Sign in",
    description: "Sign in to your Medanim account or create one to stream, license and download medical animations.",
    // Indexable: people look for the way in by the site's name. ?mode=signup and ?redirectTo=
    // are the same page (the canonical says so).
    canonicalPath: "/auth",
  });

export async function loader({ request }: Route.LoaderArgs) {
  await requireAnonymous(request);
  return null;
}

export async function action({ request, context }: Route.ActionArgs) {
  await requireAnonymous(request);
  const formData = await readFormData(request);
  const intent = formData.get("intent") === "signup" ? "signup" : "signin";

  if (intent === "signin") {
    const submission = parseWithZod(formData, { schema: SignInSchema });
    if (submission.status !== "success") return formError(submission, undefined, { intent, hideFields: ["password"] });
    let user;
    try {
      user = await signIn(submission.value, clientAddress(context));
    } catch (error) {
      return formError(submission, error, { intent, hideFields: ["password"] });
    }
    const redirectTo = safeRedirect(submission.value.redirectTo);
    if (await hasSecondFactor(user.id)) {
      // The password was right; the session waits for the second step.
      const token = await beginSecondStep(user.id, redirectTo);
      return redirect(SECOND_STEP_PATH, { headers: { "Set-Cookie": await setSecondStepToken(token) } });
    }
    const cookie = await startBrowserSession(user, request, context);
    if (user.role === "admin") {
      // Admins set up a second factor before the back office opens (decision 019).
      return redirectWithToast(
        `${TWO_STEP_SETUP_PATH}?redirectTo=${encodeURIComponent(redirectTo)}`,
        { title: "Set up two-step sign-in", description: "Admins need an authenticator app or a passkey. It takes a minute." },
        { headers: { "Set-Cookie": cookie } },
      );
    }
    return redirectWithToast(redirectTo, { title: "Welcome back!", description: "You have been successfully logged in." }, { headers: { "Set-Cookie": cookie } });
  }

  const submission = parseWithZod(formData, { schema: SignUpSchema });
  if (submission.status !== "success") {
    return formError(submission, undefined, { intent, hideFields: ["password", "confirmPassword"] });
  }
  try {
    await enforceRateLimit(`signup:${clientAddress(context)}`, signUpRule());
    const user = await registerUser(submission.value);
    const redirectTo = safeRedirect(submission.value.redirectTo);
    // The verification link continues where the sign-up started (a purchase, a licence page).
    await sendVerificationEmail(user, submission.value.redirectTo ? redirectTo : undefined);
    // The account's first device: later sign-ins from others are announced by mail.
    const cookie = await startBrowserSession(user, request, context);
    return redirectWithToast(
      redirectTo,
      { title: "Account Created!", description: "Please check your email to verify your account." },
      { headers: { "Set-Cookie": cookie } },
    );
  } catch (error) {
    return formError(submission, error, { intent, hideFields: ["password", "confirmPassword"] });
  }
}

export default function AuthScreen({ actionData }: Route.ComponentProps) {
  const [params] = useSearchParams();
  const mode = params.get("mode") === "signup" ? "signup" : "signin";
  const redirectTo = params.get("redirectTo") ?? "";
  const toggleParams = new URLSearchParams(params);
  if (mode === "signup") toggleParams.delete("mode");
  else toggleParams.set("mode", "signup");
  // Toggling clears both forms' errors: each form only reads results of its own intent.
  const lastResult = actionData?.intent === mode ? actionData.result : undefined;

  return (
    <FormScreen
      title={mode === "signup" ? "Create your account" : "Sign in"}
      intro={
        <>
          {mode === "signup" ? "Already have an account? " : "New to Medanim? "}
          <TextLink to={`/auth?${toggleParams}`}>{mode === "signup" ? "Sign in" : "Sign up"}</TextLink>
        </>
      }
    >
      {mode === "signup" ? (
        <SignUpForm key="signup" lastResult={lastResult} redirectTo={redirectTo} />
      ) : (
        <>
          <SignInForm key="signin" lastResult={lastResult} redirectTo={redirectTo} />
          <PasskeyButton purpose="sign-in" redirectTo={redirectTo || undefined}>
            Continue with a passkey
          </PasskeyButton>
        </>
      )}
      <p className="mt-6 text-center text-sm">
        <Link to="/" className="text-slate-600 hover:underline">
          Back to home
        </Link>
      </p>
    </FormScreen>
  );
}

type FormProps = { lastResult: SubmissionResult<string[]> | undefined; redirectTo: string };

function SignInForm({ lastResult, redirectTo }: FormProps) {
  const { formErrors, field } = formFields(SignInSchema, "signin", lastResult);
  return (
    <Form method="post" id="signin" data-check className="mt-6 flex flex-col gap-4">
      <input type="hidden" name="intent" value="signin" />
      <input type="hidden" name="redirectTo" value={redirectTo} />
      <Field label="Email" autoComplete="email" {...field("email")} />
      <Field label="Password" autoComplete="current-password" {...field("password")} type="password" />
      <div className="text-right text-sm">
        <TextLink to="/forgot-password">Forgot your password?</TextLink>
      </div>
      <ErrorList id="signin-form-error" errors={formErrors} />
      <Button type="submit" data-pending-text="Signing in...">
        Sign In
      </Button>
    </Form>
  );
}

function SignUpForm({ lastResult, redirectTo }: FormProps) {
  const { formErrors, field, valueOf } = formFields(SignUpSchema, "signup", lastResult);
  const { defaultValue: _agreed, ...agreeToTerms } = field("agreeToTerms");
  return (
    <Form method="post" id="signup" data-check className="mt-6 flex flex-col gap-4">
      <input type="hidden" name="intent" value="signup" />
      <input type="hidden" name="redirectTo" value={redirectTo} />
      <div className="grid grid-cols-2 gap-3">
        <Field label="First name" autoComplete="given-name" {...field("firstName")} />
        <Field label="Last name" autoComplete="family-name" {...field("lastName")} />
      </div>
      <Field label="Username" autoComplete="username" {...field("username")} />
      <Field label="Email" autoComplete="email" {...field("email")} />
      <Field label="Password" autoComplete="new-password" {...field("password")} type="password" />
      <Field label="Confirm password" autoComplete="new-password" {...field("confirmPassword", { sameAs: "password" })} type="password" />
      <CheckboxField
        label={
          <>
            I agree to the{" "}
            <Link to="/terms-of-service" className="text-brand-700 underline">
              Terms of Service
            </Link>{" "}
            and{" "}
            <Link to="/privacy-policy" className="text-brand-700 underline">
              Privacy Policy
            </Link>
          </>
        }
        {...agreeToTerms}
        type="checkbox"
        defaultChecked={valueOf("agreeToTerms") === "on"}
      />
      <ErrorList id="signup-form-error" errors={formErrors} />
      <Button type="submit" data-pending-text="Creating account...">
        Create Account
      </Button>
    </Form>
  );
}
