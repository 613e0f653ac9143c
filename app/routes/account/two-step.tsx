import { getFormProps, getInputProps, type SubmissionResult, useForm } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
import QRCode from "qrcode";
import { data, redirect } from "react-router";
import { Form } from "~/components/ui/form.tsx";
import { z } from "zod";
import { AccountPage } from "~/components/account/account-screen.tsx";
import { GeneralErrorBoundary } from "~/components/error-boundary.tsx";
import { ButtonLink } from "~/components/ui/button.tsx";
import { ErrorList, Field } from "~/components/ui/field.tsx";
import { Section } from "~/components/ui/section.tsx";
import { SubmitButton } from "~/components/ui/submit-button.tsx";
import { ServiceError } from "~/lib/errors.server.ts";
import { formError, readFormData } from "~/lib/form.server.ts";
import { NOINDEX } from "~/lib/seo.ts";
import { redirectWithToast } from "~/lib/toast.server.ts";
import { recordAudit } from "~/services/admin/audit.server.ts";
import { getCredential, requireUser } from "~/services/auth/guards.server.ts";
import {
  confirmTotpEnrolment,
  factorSummary,
  pendingTotpSetup,
  RECOVERY_CODE_COUNT,
  recoveryCodesText,
  regenerateRecoveryCodes,
  removeTotp,
  startTotpEnrolment,
} from "~/services/auth/second-factor.server.ts";
import { sendFactorChangeAlert } from "~/services/auth/security-alerts.server.ts";
import { requireStepUp } from "~/services/auth/step-up.server.ts";
import { SecondFactorCodeSchema, safeRedirect } from "~/validation/auth-forms.ts";
import type { Route } from "./+types/two-step";

// Setting up the authenticator app (the first-sign-in walk-through of admins, decision 019),
// and the POSTs of /profile's two-step section: remove it, make new recovery codes.

export const meta: Route.MetaFunction = () => [{ title: "Two-step sign-in | Medanim" }, NOINDEX];

const ConfirmSchema = z.object({ code: SecondFactorCodeSchema });

export async function loader({ request, url }: Route.LoaderArgs) {
  const user = await requireUser(request);
  const [summary, pending] = await Promise.all([factorSummary(user.id), pendingTotpSetup(user)]);
  return {
    email: user.email,
    role: user.role,
    summary,
    // The QR code is drawn here: an SVG image works without JavaScript and costs no bundle.
    setup: pending ? { secret: pending.secret, qr: await QRCode.toString(pending.uri, { type: "svg", margin: 1, errorCorrectionLevel: "M" }) } : null,
    redirectTo: safeRedirect(url.searchParams.get("redirectTo"), "/profile"),
    recoveryCodeCount: RECOVERY_CODE_COUNT,
  };
}

export async function action({ request }: Route.ActionArgs) {
  const user = await requireUser(request);
  const formData = await readFormData(request);
  const intent = formData.get("intent");
  const redirectTo = safeRedirect(formData.get("redirectTo"), "/profile");
  const here = `/profile/two-step?redirectTo=${encodeURIComponent(redirectTo)}`;
  const audit = (action: string, summary: string) => (tx: Parameters<typeof recordAudit>[0]) =>
    recordAudit(tx, user, { action, entityType: "security", entityId: user.id, summary });

  if (intent === "start") {
    try {
      await startTotpEnrolment(user);
    } catch (error) {
      if (!(error instanceof ServiceError)) throw error;
      return redirectWithToast(here, { title: "Authenticator app", description: error.message, type: "error" });
    }
    return redirect(here);
  }

  if (intent === "confirm") {
    const submission = parseWithZod(formData, { schema: ConfirmSchema });
    if (submission.status !== "success") return formError(submission, undefined, { hideFields: ["code"] });
    let enrolled: Awaited<ReturnType<typeof confirmTotpEnrolment>>;
    try {
      enrolled = await confirmTotpEnrolment(
        user,
        await getCredential(request),
        submission.value.code,
        audit("security.totp_enable", "Set up an authenticator app for two-step sign-in"),
      );
    } catch (error) {
      return formError(submission, error, { hideFields: ["code"] });
    }
    await sendFactorChangeAlert(user, "added", "an authenticator app", enrolled.endedSignIns);
    const { codes } = enrolled;
    return data({ codes, codesText: recoveryCodesText(user.email, codes), enabled: true as const });
  }

  // Removing a factor or replacing the codes is what a thief with a stolen session would do
  // first: both need a second factor confirmed in the last ten minutes.
  if (intent === "remove") {
    await requireStepUp(request, { returnTo: "/profile#two-step" });
    try {
      await removeTotp(user.id, audit("security.totp_disable", "Removed the authenticator app from two-step sign-in"));
    } catch (error) {
      if (!(error instanceof ServiceError)) throw error;
      return redirectWithToast("/profile#two-step", { title: "Authenticator app", description: error.message, type: "error" });
    }
    await sendFactorChangeAlert(user, "removed", "an authenticator app");
    return redirectWithToast("/profile#two-step", { title: "Authenticator app removed", description: "Sign-in no longer asks for its codes." });
  }

  if (intent === "recovery-codes") {
    await requireStepUp(request, { returnTo: "/profile#two-step" });
    try {
      const codes = await regenerateRecoveryCodes(
        user.id,
        audit("security.recovery_codes_regenerate", "Made new recovery codes (the old ones no longer work)"),
      );
      return data({ codes, codesText: recoveryCodesText(user.email, codes), enabled: false as const });
    } catch (error) {
      if (!(error instanceof ServiceError)) throw error;
      return redirectWithToast("/profile#two-step", { title: "Recovery codes", description: error.message, type: "error" });
    }
  }
  throw data({ message: "Unknown action" }, { status: 400 });
}

export default function TwoStep({ loaderData, actionData }: Route.ComponentProps) {
  const { summary, setup, redirectTo, role, recoveryCodeCount } = loaderData;
  const codes = actionData && "codes" in actionData ? actionData : null;
  return (
    <AccountPage title="Two-step sign-in">
      {codes ? (
        <RecoveryCodes codes={codes.codes} text={codes.codesText} justEnabled={codes.enabled} redirectTo={redirectTo} />
      ) : summary.totpEnabled ? (
        <Section card id="totp-status" title="Your authenticator app is set up" className="mt-6">
          <p className="mt-2 text-sm text-slate-700">
            Sign-in asks for a code from it after your password. You have {summary.recoveryCodesLeft} recovery codes left.
          </p>
          <ButtonLink to={redirectTo} className="mt-4">
            Continue
          </ButtonLink>
        </Section>
      ) : setup ? (
        <ScanAndConfirm setup={setup} redirectTo={redirectTo} lastResult={actionData && "result" in actionData ? actionData.result : undefined} />
      ) : (
        <Section card id="totp-start" title="Set up two-step sign-in" className="mt-6">
          <p className="mt-2 text-sm text-slate-700">
            {role === "admin" ? "Admins must use a second factor before the back office opens. " : ""}
            After your password, sign-in will ask for a six-digit code from an authenticator app on your phone (such as Google Authenticator, Microsoft
            Authenticator, 1Password or Authy). If you lose the phone, one of {recoveryCodeCount} recovery codes gets you in.
          </p>
          {summary.passkeys > 0 ? <p className="mt-2 text-sm text-slate-700">You already have a passkey, which counts as a second factor.</p> : null}
          <Form method="post" className="mt-4">
            <input type="hidden" name="redirectTo" value={redirectTo} />
            <SubmitButton name="intent" value="start" pendingText="Preparing...">
              Set up authenticator app
            </SubmitButton>
          </Form>
        </Section>
      )}
    </AccountPage>
  );
}

function ScanAndConfirm({
  setup,
  redirectTo,
  lastResult,
}: {
  setup: { secret: string; qr: string };
  redirectTo: string;
  lastResult: SubmissionResult<string[]> | undefined;
}) {
  const [form, fields] = useForm({
    id: "totp-confirm",
    lastResult,
    constraint: getZodConstraint(ConfirmSchema),
    shouldValidate: "onSubmit",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: ConfirmSchema }),
  });
  return (
    <Section card id="totp-setup" title="Set up two-step sign-in" className="mt-6">
      <ol className="mt-3 list-decimal space-y-4 pl-5 text-sm text-slate-700">
        <li>
          Scan this QR code with your authenticator app.
          <img
            src={`data:image/svg+xml;utf8,${encodeURIComponent(setup.qr)}`}
            alt="QR code for your authenticator app"
            width={192}
            height={192}
            className="mt-3 rounded-lg border border-slate-200"
          />
        </li>
        <li>
          Can't scan it? Enter this secret key in the app instead:
          <p className="mt-2">
            <code
              id="totp-secret"
              aria-label="Secret key"
              className="rounded bg-slate-100 px-2 py-1 font-mono text-base tracking-wider break-all text-slate-900"
            >
              {setup.secret}
            </code>
          </p>
        </li>
        <li>Enter the six-digit code the app shows.</li>
      </ol>
      <Form method="post" className="mt-4 flex flex-col gap-4" {...getFormProps(form)}>
        <input type="hidden" name="redirectTo" value={redirectTo} />
        <Field
          label="Code from the app"
          autoComplete="one-time-code"
          inputMode="numeric"
          errors={fields.code.errors}
          {...getInputProps(fields.code, { type: "text" })}
        />
        <ErrorList id={form.errorId} errors={form.errors} />
        <div>
          <SubmitButton name="intent" value="confirm" pendingText="Checking...">
            Turn on two-step sign-in
          </SubmitButton>
        </div>
      </Form>
    </Section>
  );
}

function RecoveryCodes({ codes, text, justEnabled, redirectTo }: { codes: string[]; text: string; justEnabled: boolean; redirectTo: string }) {
  return (
    <Section card id="recovery-codes" title="Save your recovery codes" className="mt-6">
      <p className="mt-2 text-sm text-slate-700">
        {justEnabled ? "Two-step sign-in is on. " : "Your new recovery codes replace the old ones. "}
        If you lose your phone, each of these codes signs you in once. This is the only time they are shown: download or write them down now.
      </p>
      <ul aria-label="Recovery codes" className="mt-4 grid grid-cols-2 gap-2 font-mono text-base">
        {codes.map((code) => (
          <li key={code} className="rounded bg-slate-100 px-2 py-1 text-center">
            {code}
          </li>
        ))}
      </ul>
      <div className="mt-4 flex flex-wrap gap-3">
        <a
          href={`data:text/plain;charset=utf-8,${encodeURIComponent(text)}`}
          download="medanim-recovery-codes.txt"
          className="inline-flex items-center rounded-lg px-4 py-2 text-sm font-semibold ring-1 ring-slate-300 hover:bg-slate-50"
        >
          Download as text
        </a>
        <ButtonLink to={redirectTo}>I have saved them, continue</ButtonLink>
      </div>
    </Section>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
