import { getFormProps, getInputProps, useForm, type SubmissionResult } from "@conform-to/react";
import { AccountPage } from "~/components/account/account-screen.tsx";
import { getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
import { Form } from "~/components/ui/form.tsx";
import { PasskeysSection } from "~/components/account/passkeys-section.tsx";
import { SessionsSection } from "~/components/account/sessions-section.tsx";
import { AccountStatusBadges } from "~/components/account/status-badges.tsx";
import { GeneralErrorBoundary } from "~/components/error-boundary.tsx";
import { ErrorList, Field } from "~/components/ui/field.tsx";
import { ServiceError } from "~/lib/errors.server.ts";
import { formError, readFormData } from "~/lib/form.server.ts";
import { Section } from "~/components/ui/section.tsx";
import { SubmitButton } from "~/components/ui/submit-button.tsx";
import { TextLink } from "~/components/ui/text-link.tsx";
import { logger } from "~/lib/logger.server.ts";
import { redirectWithToast } from "~/lib/toast.server.ts";
import { resendVerification, updateProfile, VERIFICATION_MAIL_FAILED } from "~/services/auth/account.server.ts";
import { getCredential, requireUser } from "~/services/auth/guards.server.ts";
import { factorSummary } from "~/services/auth/second-factor.server.ts";
import { TwoStepSection } from "~/components/account/two-step-section.tsx";
import { listPasskeys } from "~/services/auth/passkeys.server.ts";
import { listSignIns } from "~/services/auth/sessions.server.ts";
import { ProfileSchema } from "~/validation/account.ts";
import { NOINDEX } from "~/lib/seo.ts";
import type { Route } from "./+types/profile";

export const meta: Route.MetaFunction = () => [{ title: "Profile Settings | Medanim" }, NOINDEX];

export async function loader({ request }: Route.LoaderArgs) {
  const user = await requireUser(request);
  const [factors, passkeys, sessions] = await Promise.all([factorSummary(user.id), listPasskeys(user.id), listSignIns(user.id, await getCredential(request))]);
  return { user, factors, passkeys, sessions };
}

export async function action({ request }: Route.ActionArgs) {
  const user = await requireUser(request);
  const formData = await readFormData(request);

  if (formData.get("intent") === "resend-verification") {
    try {
      await resendVerification(user);
    } catch (error) {
      const description = error instanceof ServiceError ? error.message : VERIFICATION_MAIL_FAILED;
      return redirectWithToast("/profile", { title: VERIFICATION_MAIL_FAILED, description, type: "error" });
    }
    return redirectWithToast("/profile", { title: "Verification Email Sent", description: `Please check ${user.email} for the verification link.` });
  }

  const submission = parseWithZod(formData, { schema: ProfileSchema });
  if (submission.status !== "success") return formError(submission);
  try {
    const { emailChanged } = await updateProfile(user, submission.value);
    return redirectWithToast("/profile", {
      title: "Profile Updated",
      description: emailChanged ? `We sent a verification link to ${submission.value.email}. Please verify your new address.` : "Your profile has been saved.",
    });
  } catch (error) {
    if (error instanceof ServiceError) return formError(submission, error);
    logger.error({ err: error }, "profile update failed");
    return redirectWithToast("/profile", { title: "Error", description: "Failed to update profile", type: "error" });
  }
}

export default function Profile({ loaderData: { user, factors, passkeys, sessions }, actionData }: Route.ComponentProps) {
  return (
    <AccountPage title="Profile Settings">
      <Section card id="account-status" title="Account Status" className="mt-6">
        <div className="mt-3">
          <AccountStatusBadges accountType={user.accountType} isEmailVerified={user.isEmailVerified} />
        </div>
        {user.isEmailVerified ? null : (
          <Form method="post" className="mt-4 flex flex-wrap items-center gap-3">
            <p className="text-sm text-slate-600">Your email address is not verified yet. Check your inbox for the link, or request a new one.</p>
            <SubmitButton name="intent" value="resend-verification" variant="secondary" size="sm" pendingText="Sending...">
              Resend Verification Email
            </SubmitButton>
          </Form>
        )}
        {user.accountType === "free" ? (
          <p className="mt-4 text-sm">
            <TextLink to="/premium">Upgrade to Premium</TextLink>
          </p>
        ) : null}
      </Section>

      <ProfileForm key={`${user.firstName}|${user.lastName}|${user.username}|${user.email}`} user={user} lastResult={actionData?.result} />

      <TwoStepSection summary={factors} isAdmin={user.role === "admin"} />

      <PasskeysSection passkeys={passkeys} />

      <SessionsSection sessions={sessions} />

      <p className="mt-6 text-sm">
        <TextLink to="/notifications">Email notification preferences</TextLink>
      </p>
    </AccountPage>
  );
}

type ProfileUser = Route.ComponentProps["loaderData"]["user"];

/** Keyed by the saved values, so a successful save starts the form afresh from them. */
function ProfileForm({ user, lastResult }: { user: ProfileUser; lastResult: SubmissionResult<string[]> | null | undefined }) {
  const [form, fields] = useForm({
    id: "profile",
    lastResult,
    constraint: getZodConstraint(ProfileSchema),
    defaultValue: { firstName: user.firstName, lastName: user.lastName, username: user.username, email: user.email },
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: ProfileSchema }),
  });
  return (
    <Section card id="profile-details" title="Personal Information" className="mt-6">
      <Form method="post" className="mt-4 flex flex-col gap-4" {...getFormProps(form)}>
        <div className="grid gap-4 sm:grid-cols-2">
          <Field label="First name" autoComplete="given-name" errors={fields.firstName.errors} {...getInputProps(fields.firstName, { type: "text" })} />
          <Field label="Last name" autoComplete="family-name" errors={fields.lastName.errors} {...getInputProps(fields.lastName, { type: "text" })} />
        </div>
        <Field label="Username" autoComplete="username" errors={fields.username.errors} {...getInputProps(fields.username, { type: "text" })} />
        <Field
          label="Email"
          autoComplete="email"
          hint="Changing your email marks it unverified until you open the link we send to the new address."
          errors={fields.email.errors}
          {...getInputProps(fields.email, { type: "email" })}
        />
        <ErrorList id={form.errorId} errors={form.errors} />
        <div>
          <SubmitButton name="intent" value="update" pendingText="Saving...">
            Save Changes
          </SubmitButton>
        </div>
      </Form>
    </Section>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
