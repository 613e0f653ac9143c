import { redirect } from "react-router";
import { invariantResponse, ServiceError } from "~/lib/errors.server.ts";
import { pluralize } from "~/lib/format.ts";
import { readFormData } from "~/lib/form.server.ts";
import { destroySession } from "~/lib/session.server.ts";
import { redirectWithToast } from "~/lib/toast.server.ts";
import { getCredential, requireUser } from "~/services/auth/guards.server.ts";
import { endOtherSignIns, endSignIn, signInIdOf } from "~/services/auth/sessions.server.ts";
import type { Route } from "./+types/profile-sessions";

// The forms of /profile's "Where you're signed in" (components/account/sessions-section.tsx)
// post here and return to the list. A GET has nothing to show: back to the list.

const BACK = "/profile#sessions";

export async function loader() {
  return redirect(BACK);
}

export async function action({ request }: Route.ActionArgs) {
  const user = await requireUser(request);
  const current = await getCredential(request);
  const formData = await readFormData(request);
  const intent = formData.get("intent");

  if (intent === "end-others") {
    const ended = await endOtherSignIns(user, current);
    return redirectWithToast(BACK, {
      title: ended ? "Signed out everywhere else" : "Nothing to sign out",
      description: ended ? `${pluralize(ended, "other session")} ended. Only this device is still signed in.` : "You are not signed in anywhere else.",
    });
  }

  const id = formData.get("id");
  invariantResponse(intent === "end" && typeof id === "string" && id.length > 0, "Choose a session to sign out.");
  try {
    const ended = await endSignIn(user, id, user);
    if (ended.id === signInIdOf(current)) {
      return redirectWithToast(
        "/auth",
        { title: "Signed out", description: "You signed this device out." },
        { headers: { "Set-Cookie": await destroySession(request) } },
      );
    }
    return redirectWithToast(BACK, { title: "Signed out", description: `${ended.device} is no longer signed in to your account.` });
  } catch (error) {
    if (!(error instanceof ServiceError)) throw error;
    return redirectWithToast(BACK, { title: error.message, description: "It may have been signed out already.", type: "error" });
  }
}
