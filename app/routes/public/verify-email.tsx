import { data, redirect } from "react-router";
import { Form } from "~/components/ui/form.tsx";
import { AccountScreen } from "~/components/account/account-screen.tsx";
import { GeneralErrorBoundary } from "~/components/error-boundary.tsx";
import { Button, ButtonLink } from "~/components/ui/button.tsx";
import { ServiceError } from "~/lib/errors.server.ts";
import { redirectWithToast } from "~/lib/toast.server.ts";
import { safeRedirect } from "~/validation/auth-forms.ts";
import { ALREADY_VERIFIED_MESSAGE, resendVerification, VERIFICATION_MAIL_FAILED, verifyEmail } from "~/services/auth/account.server.ts";
import { getUser } from "~/services/auth/guards.server.ts";
import { NO_VERIFY_TOKEN } from "~/validation/account.ts";
import { pageHead, siteOf } from "~/lib/seo.ts";
import { LOAD_AS_DOCUMENT, STATIC_PAGE } from "~/lib/page-handle.ts";
import type { Route } from "./+types/verify-email";

// Reached from an e-mail's link: links and one plain form, so it loads no React (decision 025).
export const handle = STATIC_PAGE;
export const clientMiddleware = LOAD_AS_DOCUMENT;

export const meta: Route.MetaFunction = ({ matches }) =>
  pageHead(siteOf(matches), {
    title: "Verify Email",
    description: "Confirm your e-mail address with the link we sent you.",
    canonicalPath: "/verify-email",
    robots: "noindex",
  });

// The token is single use and unguessable, so the landing page verifies in its loader: one click
// from the mail, no JavaScript needed (read the token, then show success or
// failure). Decision 004 explains the trade-off with mail scanners that prefetch links.
export async function loader({ url }: Route.LoaderArgs) {
  const token = url.searchParams.get("token")?.trim();
  const headers = { "Cache-Control": "no-store" };
  if (!token) return data({ ok: false, message: NO_VERIFY_TOKEN }, { headers });
  try {
    const { alreadyVerified } = await verifyEmail(token);
    const message = alreadyVerified ? ALREADY_VERIFIED_MESSAGE : "Your email has been successfully verified!";
    // Signed up from a purchase or a licence page: on to it, the result in a toast.
    const next = safeRedirect(url.searchParams.get("next"), "");
    if (next) return redirectWithToast(next, { title: "Email Verified", description: message });
    return data({ ok: true, message }, { headers });
  } catch (error) {
    const message = error instanceof ServiceError ? error.message : "Email verification failed";
    return data({ ok: false, message }, { headers });
  }
}

// The result is never cached. (The site-wide strict-origin-when-cross-origin policy keeps the
// token out of Referer headers sent to other sites; "no-referrer" would make the resend form post
// with "Origin: null", which the CSRF guard refuses.)
export const headers: Route.HeadersFunction = ({ loaderHeaders }) => loaderHeaders;

// "Resend verification" needs to know whose address: anonymous visitors sign in first.
export async function action({ request }: Route.ActionArgs) {
  const user = await getUser(request);
  if (!user) throw redirect(`/auth?redirectTo=${encodeURIComponent("/profile")}`);
  try {
    await resendVerification(user);
  } catch (error) {
    const description = error instanceof ServiceError ? error.message : VERIFICATION_MAIL_FAILED;
    return redirectWithToast("/profile", { title: VERIFICATION_MAIL_FAILED, description, type: "error" });
  }
  return redirectWithToast("/profile", {
    title: "Verification Email Sent",
    description: `Please check ${user.email} for the verification link.`,
  });
}

export default function VerifyEmail({ loaderData }: Route.ComponentProps) {
  const { ok, message } = loaderData;
  if (ok) {
    return (
      <AccountScreen title="Email Verified" tone="success" message={message}>
        <ButtonLink to="/dashboard">Go to Dashboard</ButtonLink>
      </AccountScreen>
    );
  }
  return (
    <AccountScreen title="Verification Failed" tone="error" message={message}>
      <ButtonLink to="/profile" variant="secondary">
        Go to Profile
      </ButtonLink>
      <Form method="post">
        <Button type="submit">Resend Verification Email</Button>
      </Form>
      <ButtonLink to="/" variant="ghost">
        Go Home
      </ButtonLink>
    </AccountScreen>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
