import { data } from "react-router";
import { Form } from "~/components/ui/form.tsx";
import { AccountScreen } from "~/components/account/account-screen.tsx";
import { Button, ButtonLink } from "~/components/ui/button.tsx";
import { readUnsubscribeLink, unsubscribe } from "~/services/admin/email-campaigns.server.ts";
import { UNSUBSCRIBE_KIND_LABELS } from "~/validation/admin-email.ts";
import { pageHead, siteOf } from "~/lib/seo.ts";
import { LOAD_AS_DOCUMENT, STATIC_PAGE } from "~/lib/page-handle.ts";
import type { Route } from "./+types/unsubscribe";

// Reached from an e-mail's link: one plain form, so it loads no React (decision 025).
export const handle = STATIC_PAGE;
export const clientMiddleware = LOAD_AS_DOCUMENT;

export const meta: Route.MetaFunction = ({ matches }) =>
  pageHead(siteOf(matches), {
    title: "Unsubscribe",
    description: "Stop receiving this kind of e-mail from us with your unsubscribe link.",
    canonicalPath: "/unsubscribe",
    robots: "noindex",
  });

// The unsubscribe link of every campaign and renewal-reminder mail (?u=user&k=kind&t=signature). It works without
// signing in: the signature names the user and the kind of mail. Opening the link only asks
// (mail scanners follow links); the button, or the mail provider's RFC 8058 one-click POST
// (body "List-Unsubscribe=One-Click" to the same URL), turns that preference off.

const INVALID = "This unsubscribe link is not valid. You can change which e-mails you receive in your notification settings.";
const noStore = { "Cache-Control": "no-store" };

export async function loader({ url }: Route.LoaderArgs) {
  const link = readUnsubscribeLink(url.searchParams);
  return data(link ? { state: "ask" as const, label: UNSUBSCRIBE_KIND_LABELS[link.kind] } : { state: "invalid" as const }, { headers: noStore, status: link ? 200 : 400 });
}

export async function action({ url }: Route.ActionArgs) {
  const link = readUnsubscribeLink(url.searchParams);
  const done = link ? await unsubscribe(link) : null;
  if (!done) return data({ state: "invalid" as const }, { status: 400, headers: noStore });
  return data({ state: "done" as const, label: done.label, email: done.email }, { headers: noStore });
}

export const headers: Route.HeadersFunction = ({ loaderHeaders, actionHeaders }) => actionHeaders ?? loaderHeaders;

export default function Unsubscribe({ loaderData, actionData }: Route.ComponentProps) {
  const state = actionData ?? loaderData;
  if (state.state === "invalid") {
    return (
      <AccountScreen title="Unsubscribe" tone="error" message={INVALID}>
        <ButtonLink to="/notifications">Notification Settings</ButtonLink>
      </AccountScreen>
    );
  }
  if (state.state === "done") {
    return (
      <AccountScreen title="You Are Unsubscribed" tone="success" message={`${state.email} will no longer receive ${state.label.toLowerCase()} e-mails from Medanim.`}>
        <ButtonLink to="/">Go to Home</ButtonLink>
      </AccountScreen>
    );
  }
  return (
    <AccountScreen title="Unsubscribe" message={`Stop receiving ${state.label.toLowerCase()} e-mails from Medanim? Other e-mails, such as receipts and security alerts, are not affected.`}>
      <Form method="post">
        <Button type="submit">Unsubscribe</Button>
      </Form>
    </AccountScreen>
  );
}
