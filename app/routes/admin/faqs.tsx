import { redirect } from "react-router";
import { ServiceError } from "~/lib/errors.server.ts";
import { redirectWithToast } from "~/lib/toast.server.ts";
import { requireAdmin } from "~/services/auth/guards.server.ts";
import { deleteFaq } from "~/services/content-admin.server.ts";
import type { Route } from "./+types/faqs";

// The FAQ list is the Help Center itself (admins see every FAQ there, with the controls); this
// route takes the delete that its confirm step posts.

export function loader() {
  return redirect("/help");
}

export async function action({ request }: Route.ActionArgs) {
  const admin = await requireAdmin(request);
  const form = await request.formData();
  if (form.get("intent") !== "delete") return redirectWithToast("/help", { title: "Error deleting FAQ", description: "Unknown action", type: "error" });
  try {
    await deleteFaq({ id: admin.id, email: admin.email }, String(form.get("id") ?? ""));
    return redirectWithToast("/help", { title: "FAQ Deleted", description: "The question was removed from the Help Center." });
  } catch (error) {
    if (!(error instanceof ServiceError)) throw error;
    // Spec section 8: "Error deleting FAQ" with the server message.
    return redirectWithToast("/help", { title: "Error deleting FAQ", description: error.message, type: "error" });
  }
}
