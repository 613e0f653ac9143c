import { data } from "react-router";
import { Form } from "~/components/ui/form.tsx";
import { AccountScreen } from "~/components/account/account-screen.tsx";
import { ErrorScreen, GeneralErrorBoundary } from "~/components/error-boundary.tsx";
import { ButtonLink } from "~/components/ui/button.tsx";
import { SubmitButton } from "~/components/ui/submit-button.tsx";
import { ServiceError } from "~/lib/errors.server.ts";
import { formatLongDate } from "~/lib/format.ts";
import { readFormData } from "~/lib/form.server.ts";
import { pageHead, siteOf } from "~/lib/seo.ts";
import { redirectWithToast } from "~/lib/toast.server.ts";
import { getUser, requireUser } from "~/services/auth/guards.server.ts";
import { acceptInvitation, describeInvitation } from "~/services/practices/practices.server.ts";
import { INVITATION_NOT_FOUND, INVITATION_OTHER_EMAIL, ROLE_DESCRIPTION, ROLE_LABEL } from "~/validation/practices.ts";
import type { Route } from "./+types/practice-invitation";

// /practice/invitations/{token}: the link of an invitation e-mail. Anyone with the link sees the
// practice and the role; accepting needs the account of the address it was sent to.

// No "no-referrer" policy here: browsers would then post the Accept form with "Origin: null",
// which the CSRF guard refuses (see reset-password.tsx); the site-wide policy sends only the origin.
export const meta: Route.MetaFunction = ({ matches, data, location }) =>
  pageHead(siteOf(matches), {
    title: data && "practiceName" in data ? `Join ${data.practiceName}` : "Invitation",
    description: "An invitation to join a practice: its members use the practice's licensed animations.",
    canonicalPath: location.pathname,
    robots: "noindex",
  });

async function describe(token: string) {
  try {
    return await describeInvitation(token);
  } catch (error) {
    if (error instanceof ServiceError) throw data({ message: error.message }, { status: error.status });
    throw error;
  }
}

export async function loader({ request, params }: Route.LoaderArgs) {
  const [invitation, user] = await Promise.all([describe(params.token), getUser(request)]);
  const path = new URL(request.url).pathname;
  return {
    ...invitation,
    signedInAs: user?.email ?? null,
    otherAddress: user && user.email.toLowerCase() !== invitation.email ? INVITATION_OTHER_EMAIL(invitation.email) : null,
    signIn: `/auth?redirectTo=${encodeURIComponent(path)}`,
    signUp: `/auth?mode=signup&redirectTo=${encodeURIComponent(path)}`,
  };
}

export async function action({ request, params }: Route.ActionArgs) {
  const user = await requireUser(request);
  await readFormData(request);
  try {
    const joined = await acceptInvitation(user, params.token);
    return redirectWithToast("/practice", {
      title: `Welcome to ${joined.practiceName}`,
      description: "The practice's licensed animations are now under My Animations.",
    });
  } catch (error) {
    if (!(error instanceof ServiceError)) throw error;
    return data({ message: error.message }, { status: error.status });
  }
}

export default function PracticeInvitation({ loaderData, actionData }: Route.ComponentProps) {
  const { practiceName, role, email, expiresAt, problem, signedInAs, otherAddress, signIn, signUp } = loaderData;
  const refusal = actionData?.message ?? problem ?? otherAddress;
  return (
    <AccountScreen
      title={`Join ${practiceName}`}
      tone={problem ? "error" : "info"}
      message={
        problem ??
        `You are invited as ${ROLE_LABEL[role].toLowerCase()} (${ROLE_DESCRIPTION[role].toLowerCase()}). The invitation was sent to ${email} and works until ${formatLongDate(expiresAt)}.`
      }
    >
      {refusal && !problem ? (
        <p role="alert" className="rounded-lg bg-red-50 p-3 text-sm text-red-800">
          {refusal}
        </p>
      ) : null}
      {problem ? (
        <ButtonLink to="/">Go to the home page</ButtonLink>
      ) : signedInAs ? (
        <Form method="post">
          <SubmitButton className="w-full" pendingText="Joining...">
            Accept invitation
          </SubmitButton>
          <p className="mt-2 text-xs text-slate-600">{`Signed in as ${signedInAs}.`}</p>
        </Form>
      ) : (
        <>
          <ButtonLink to={signIn}>Sign in to accept</ButtonLink>
          <ButtonLink to={signUp} variant="secondary">
            Create an account
          </ButtonLink>
        </>
      )}
    </AccountScreen>
  );
}

export function ErrorBoundary() {
  return (
    <GeneralErrorBoundary
      statusHandlers={{
        404: () => (
          <ErrorScreen title="Invitation not found" message={`${INVITATION_NOT_FOUND}. Check the link in the e-mail, or ask the practice to send a new one.`} />
        ),
      }}
    />
  );
}
