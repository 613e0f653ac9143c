import { parseWithZod } from "@conform-to/zod/v4";
import { FormScreen } from "~/components/account/account-screen.tsx";
import { PasskeyButton } from "~/components/account/passkey-button.tsx";
import { SecondFactorForm } from "~/components/account/second-factor-form.tsx";
import { GeneralErrorBoundary } from "~/components/error-boundary.tsx";
import { ServiceError } from "~/lib/errors.server.ts";
import { formError, readFormData } from "~/lib/form.server.ts";
import { clientAddress } from "~/lib/rate-limit.server.ts";
import { NOINDEX } from "~/lib/seo.ts";
import { clearSecondStepToken, getSecondStepToken } from "~/lib/session.server.ts";
import { redirectWithToast } from "~/lib/toast.server.ts";
import { openChallenge } from "~/services/auth/challenges.server.ts";
import { factorSummary } from "~/services/auth/second-factor.server.ts";
import { requireAnonymous } from "~/services/auth/guards.server.ts";
import { completeSecondStep, SIGN_IN_STEP_EXPIRED, startBrowserSession } from "~/services/auth/sign-in.server.ts";
import { SecondStepSchema, safeRedirect } from "~/validation/auth-forms.ts";
import type { Route } from "./+types/auth-two-step";

export const meta: Route.MetaFunction = () => [{ title: "Two-step sign-in | Medanim" }, NOINDEX];

async function expired() {
  return redirectWithToast("/auth", { title: "Sign-in expired", description: SIGN_IN_STEP_EXPIRED, type: "error" }, { headers: { "Set-Cookie": await clearSecondStepToken() } });
}

export async function loader({ request }: Route.LoaderArgs) {
  await requireAnonymous(request);
  const step = await openChallenge(await getSecondStepToken(request), "sign_in");
  if (!step?.userId) throw await expired();
  const factors = await factorSummary(step.userId);
  return { hasPasskey: factors.passkeys > 0, acceptsCodes: factors.acceptsCodes };
}

export async function action({ request, context }: Route.ActionArgs) {
  await requireAnonymous(request);
  const formData = await readFormData(request);
  const submission = parseWithZod(formData, { schema: SecondStepSchema });
  if (submission.status !== "success") return formError(submission, undefined, { hideFields: ["code"] });
  let outcome;
  try {
    outcome = await completeSecondStep(await getSecondStepToken(request), submission.value.code, clientAddress(context));
  } catch (error) {
    if (error instanceof ServiceError && error.status === 401) return expired();
    return formError(submission, error, { hideFields: ["code"] });
  }
  const headers = new Headers();
  headers.append("Set-Cookie", await startBrowserSession(outcome.user, request, context, { secondFactor: true }));
  headers.append("Set-Cookie", await clearSecondStepToken());
  return redirectWithToast(
    safeRedirect(outcome.redirectTo),
    outcome.kind === "recovery"
      ? { title: "Welcome back!", description: "You signed in with a recovery code. It cannot be used again: make new ones on your profile if few are left." }
      : { title: "Welcome back!", description: "You have been successfully logged in." },
    { headers },
  );
}

export default function TwoStepSignIn({ loaderData, actionData }: Route.ComponentProps) {
  return (
    <FormScreen title="Two-step sign-in" back={{ to: "/auth", label: "Back to sign in" }} intro="Your password was right. Now confirm it's you with your second factor.">
      {loaderData.acceptsCodes ? (
        <SecondFactorForm id="two-step" lastResult={actionData?.result} submitLabel="Verify">
          {loaderData.hasPasskey ? <PasskeyButton purpose="two-step">Use a passkey instead</PasskeyButton> : null}
        </SecondFactorForm>
      ) : (
        // A passkey is this account's only second factor (no app, no recovery codes yet).
        <PasskeyButton purpose="two-step">Use your passkey</PasskeyButton>
      )}
    </FormScreen>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
