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
import { requireUser } from "~/services/auth/guards.server.ts";
import { factorSummary } from "~/services/auth/second-factor.server.ts";
import { STEP_UP_CONFIRMED, stepUpWithCode } from "~/services/auth/step-up.server.ts";
import { SecondStepSchema, safeRedirect } from "~/validation/auth-forms.ts";
import type { Route } from "./+types/step-up";

export const meta: Route.MetaFunction = () => [{ title: "Confirm it's you | Medanim" }, NOINDEX];

export async function loader({ request, url }: Route.LoaderArgs) {
  const user = await requireUser(request);
  const factors = await factorSummary(user.id);
  return {
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
  const submission = parseWithZod(formData, { schema: SecondStepSchema });
  if (submission.status !== "success") return formError(submission, undefined, { hideFields: ["code"] });
  try {
    await stepUpWithCode(request, submission.value.code, clientAddress(context));
  } catch (error) {
    return formError(submission, error, { hideFields: ["code"] });
  }
  return redirectWithToast(redirectTo, STEP_UP_CONFIRMED);
}

export default function StepUp({ loaderData: { hasFactor, acceptsCodes, hasPasskey, redirectTo }, actionData }: Route.ComponentProps) {
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
    </FormScreen>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
