import { parseWithZod } from "@conform-to/zod/v4";
import { FormScreen } from "~/components/account/account-screen.tsx";
import { PasskeyButton } from "~/components/account/passkey-button.tsx";
import { SecondFactorForm } from "~/components/account/second-factor-form.tsx";
import { GeneralErrorBoundary } from "~/components/error-boundary.tsx";
import { TextLink } from "~/components/ui/text-link.tsx";
import { formError, readFormData } from "~/lib/form.server.ts";
import { clientAddress } from "~/lib/rate-limit.server.ts";
import { NOINDEX } from "~/lib/seo.ts";
import { redirectWithToast } from "~/lib/toast.server.ts";
import { Form } from "~/components/ui/form.tsx";
import { SubmitButton } from "~/components/ui/submit-button.tsx";
import { formatDateTime } from "~/lib/format.ts";
import { getCredential, requireUser } from "~/services/auth/guards.server.ts";
import { factorSummary } from "~/services/auth/second-factor.server.ts";
import { endStepUp, STEP_UP_CONFIRMED, STEP_UP_ENDED, STEP_UP_WINDOW_MS, stepUpIsRecent, stepUpWithCode } from "~/services/auth/step-up.server.ts";
import { SecondStepSchema, safeRedirect } from "~/validation/auth-forms.ts";
import type { Route } from "./+types/step-up";

export const meta: Route.MetaFunction = () => [{ title: "Confirm it's you | Medanim" }, NOINDEX];

export async function loader({ request, url }: Route.LoaderArgs) {
  const user = await requireUser(request);
  const [factors, credential] = await Promise.all([factorSummary(user.id), getCredential(request)]);
  // A recent confirmation of this browser's sign-in can be ended here ("ask me again").
  const confirmedUntil = credential?.kind === "session" && stepUpIsRecent(credential) ? new Date(credential.stepUpAt!.getTime() + STEP_UP_WINDOW_MS) : null;
  return {
    confirmedUntil,
    hasFactor: factors.any,
    acceptsCodes: factors.acceptsCodes,
    hasPasskey: factors.passkeys > 0,
    redirectTo: safeRedirect(url.searchParams.get("redirectTo"), "/profile"),
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  await requireUser(request);
  const formData = await readFormData(request);
  const redirectTo = safeRedirect(formData.get("redirectTo"), "/profile");
  if (formData.get("intent") === "end") {
    await endStepUp(request);
    return redirectWithToast(redirectTo, STEP_UP_ENDED);
  }
  const submission = parseWithZod(formData, { schema: SecondStepSchema });
  if (submission.status !== "success") return formError(submission, undefined, { hideFields: ["code"] });
  try {
    await stepUpWithCode(request, submission.value.code, clientAddress(context));
  } catch (error) {
    return formError(submission, error, { hideFields: ["code"] });
  }
  return redirectWithToast(redirectTo, STEP_UP_CONFIRMED);
}

export default function StepUp({ loaderData: { hasFactor, acceptsCodes, hasPasskey, redirectTo, confirmedUntil }, actionData }: Route.ComponentProps) {
  return (
    <FormScreen
      title="Confirm it's you"
      back={{ to: redirectTo, label: "Back" }}
      intro={
        acceptsCodes
          ? "This action is protected. Enter a code from your authenticator app to continue."
          : "This action is protected. Confirm with your passkey to continue."
      }
    >
      {hasFactor && !acceptsCodes ? (
        <PasskeyButton purpose="step-up" redirectTo={redirectTo}>
          Use a passkey
        </PasskeyButton>
      ) : hasFactor ? (
        <SecondFactorForm id="step-up" lastResult={actionData?.result} submitLabel="Confirm" hidden={{ redirectTo }}>
          {hasPasskey ? (
            <PasskeyButton purpose="step-up" redirectTo={redirectTo}>
              Use a passkey
            </PasskeyButton>
          ) : null}
        </SecondFactorForm>
      ) : (
        <p className="mt-6 text-sm text-slate-700">
          Your account has no second factor yet. <TextLink to="/profile/two-step">Set up two-step sign-in</TextLink> first.
        </p>
      )}
      {confirmedUntil ? (
        <Form method="post" className="mt-6 border-t border-slate-200 pt-4">
          <input type="hidden" name="redirectTo" value={redirectTo} />
          <p className="text-sm text-slate-700">
            You confirmed it&apos;s you in this browser: protected actions ask for nothing more until {formatDateTime(confirmedUntil)}.
          </p>
          <SubmitButton name="intent" value="end" variant="secondary" pendingText="Ending..." className="mt-3">
            Ask me again next time
          </SubmitButton>
        </Form>
      ) : null}
    </FormScreen>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
