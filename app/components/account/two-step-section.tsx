import { Form } from "~/components/ui/form.tsx";
import { ButtonLink } from "~/components/ui/button.tsx";
import { Section } from "~/components/ui/section.tsx";
import { SubmitButton } from "~/components/ui/submit-button.tsx";

type Summary = { totpEnabled: boolean; passkeys: number; recoveryCodesLeft: number; recoveryCodesIssued: number; any: boolean };

/** /profile's two-step sign-in: the authenticator app's state, its removal and the recovery codes. */
export function TwoStepSection({ summary, isAdmin }: { summary: Summary; isAdmin: boolean }) {
  return (
    <Section
      card
      id="two-step"
      title="Two-step sign-in"
      description="After your password, sign-in asks for a code from your phone (or a passkey), so a stolen password alone does not open your account."
      className="mt-6"
    >
      <dl className="mt-4 grid gap-2 text-sm sm:grid-cols-[max-content_1fr] sm:gap-x-6">
        <dt className="font-medium text-slate-900">Authenticator app</dt>
        <dd className="text-slate-700">{summary.totpEnabled ? "On" : "Off"}</dd>
        {summary.any ? (
          <>
            <dt className="font-medium text-slate-900">Recovery codes</dt>
            <dd className="text-slate-700">
              {summary.recoveryCodesLeft} of {summary.recoveryCodesIssued} left{summary.recoveryCodesLeft <= 3 ? ": make new ones soon." : ""}
            </dd>
          </>
        ) : null}
      </dl>
      {isAdmin && !summary.any ? (
        <p className="mt-3 text-sm font-medium text-amber-800">Admins must set up a second factor before using the back office.</p>
      ) : null}
      <div className="mt-4 flex flex-wrap gap-3">
        {summary.totpEnabled ? (
          <Form method="post" action="/profile/two-step">
            <SubmitButton name="intent" value="remove" variant="secondary" size="sm" pendingText="Removing...">
              Remove authenticator app
            </SubmitButton>
          </Form>
        ) : (
          <ButtonLink to="/profile/two-step" size="sm">
            Set up authenticator app
          </ButtonLink>
        )}
        {summary.any ? (
          <Form method="post" action="/profile/two-step">
            <SubmitButton name="intent" value="recovery-codes" variant="secondary" size="sm" pendingText="Making codes...">
              Make new recovery codes
            </SubmitButton>
          </Form>
        ) : null}
      </div>
    </Section>
  );
}
