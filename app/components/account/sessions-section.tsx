import { useNavigation } from "react-router";
import { Form } from "~/components/ui/form.tsx";
import { Section } from "~/components/ui/section.tsx";
import { SubmitButton } from "~/components/ui/submit-button.tsx";
import { formatDateTime } from "~/lib/format.ts";

/** Where the forms of this section post (routes/account/profile-sessions.tsx). */
export const SESSIONS_ACTION = "/profile/sessions";

export type SessionRow = {
  kind: "session" | "token";
  id: string;
  device: string;
  place: string | null;
  ipAddress: string | null;
  createdAt: Date | string;
  lastUsedAt: Date | string;
  current: boolean;
};

/**
 * "Where you're signed in" on /profile: every browser session and API sign-in of the account,
 * each with its own "Sign out", and "Sign out everywhere else". Plain POST forms: they work
 * without JavaScript.
 */
export function SessionsSection({ sessions }: { sessions: SessionRow[] }) {
  const navigation = useNavigation();
  const posting = navigation.state !== "idle" && navigation.formAction === SESSIONS_ACTION ? navigation.formData : undefined;
  const others = sessions.filter((session) => !session.current).length;
  return (
    <Section
      card
      id="sessions"
      title="Where you're signed in"
      description="Browsers and apps signed in to your account. Sign out any you do not recognise, then change your password."
      className="mt-6"
    >
      <ul className="mt-4 divide-y divide-slate-200">
        {sessions.map((session) => (
          <li key={session.id} className="flex flex-wrap items-center justify-between gap-3 py-3">
            <div className="min-w-0">
              <p className="font-medium">
                {session.device}
                {session.kind === "token" ? <span className="ml-2 text-sm font-normal text-slate-600">API sign-in</span> : null}
                {session.current ? <span className="ml-2 rounded-full bg-green-100 px-2.5 py-0.5 text-xs font-medium text-green-800">This device</span> : null}
              </p>
              <p className="text-sm text-slate-600">{session.place ?? session.ipAddress ?? "Unknown location"}</p>
              <p className="text-sm text-slate-600">
                Signed in {formatDateTime(session.createdAt)} · Last used {formatDateTime(session.lastUsedAt)}
              </p>
            </div>
            <Form method="post" action={SESSIONS_ACTION}>
              <input type="hidden" name="id" value={session.id} />
              <SubmitButton name="intent" value="end" variant="secondary" size="sm" pending={posting?.get("id") === session.id} pendingText="Signing out...">
                Sign out<span className="sr-only"> {session.current ? "this device" : session.device}</span>
              </SubmitButton>
            </Form>
          </li>
        ))}
      </ul>
      {others > 0 ? (
        <Form method="post" action={SESSIONS_ACTION} className="mt-4">
          <SubmitButton
            name="intent"
            value="end-others"
            variant="danger"
            size="sm"
            pending={posting?.get("intent") === "end-others"}
            pendingText="Signing out..."
          >
            Sign out everywhere else
          </SubmitButton>
        </Form>
      ) : (
        <p className="mt-4 text-sm text-slate-600">You are not signed in anywhere else.</p>
      )}
    </Section>
  );
}
