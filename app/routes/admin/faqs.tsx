import { redirect } from "react-router";
import { runListAction } from "~/lib/list-query.server.ts";
import { requireAdmin } from "~/services/auth/guards.server.ts";
import { deleteFaq } from "~/services/admin/content-admin.server.ts";
import type { Route } from "./+types/faqs";

// The FAQ list is the Help Center itself (admins see every FAQ there, with the controls); this
// route takes the delete that its confirm step posts.

export function loader() {
  return redirect("/help");
}

export async function action({ request }: Route.ActionArgs) {
  const admin = await requireAdmin(request);
  // The failure toast: "Error deleting FAQ" with the server message.
  return runListAction(request, "/help", {
    delete: {
      failed: "Error deleting FAQ",
      run: async (id) => {
        await deleteFaq(admin, id);
        return { title: "FAQ Deleted", description: "The question was removed from the Help Center." };
      },
    },
  });
}
