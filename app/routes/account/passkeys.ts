import { parseWithZod } from "@conform-to/zod/v4";
import { redirect } from "react-router";
import { ServiceError } from "~/lib/errors.server.ts";
import { readFormData } from "~/lib/form.server.ts";
import { redirectWithToast } from "~/lib/toast.server.ts";
import { removePasskey } from "~/services/auth/passkeys.server.ts";
import { requireStepUp } from "~/services/auth/step-up.server.ts";
import { RemovePasskeySchema } from "~/validation/passkeys.ts";
import type { Route } from "./+types/passkeys";

// The profile's passkey list posts its "Remove" forms here (a plain POST: no JavaScript needed).
// Removing a factor needs a recent step-up, which returns to the profile.

export function loader() {
  return redirect("/profile#passkeys");
}

export async function action({ request }: Route.ActionArgs) {
  const user = await requireStepUp(request);
  const submission = parseWithZod(await readFormData(request), { schema: RemovePasskeySchema });
  if (submission.status !== "success") {
    return redirectWithToast("/profile#passkeys", { title: "Passkey not removed", description: "Choose a passkey to remove.", type: "error" });
  }
  try {
    const passkey = await removePasskey(user, submission.value.passkeyId);
    return redirectWithToast("/profile#passkeys", { title: "Passkey removed", description: `“${passkey.name}” can no longer sign in to your account.` });
  } catch (error) {
    if (!(error instanceof ServiceError)) throw error;
    return redirectWithToast("/profile#passkeys", { title: "Passkey not removed", description: error.message, type: "error" });
  }
}
