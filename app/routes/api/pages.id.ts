import { apiRoute, endpoint } from "~/lib/api-route.server.ts";
import { requireAdmin } from "~/services/auth/guards.server.ts";
import { deletePage, updatePage } from "~/services/admin/content-admin.server.ts";
import { PageSchema } from "~/validation/admin-content.ts";
import { MessageResponse } from "~/validation/api-responses.ts";
import { AdminPage } from "~/validation/api-responses-admin.ts";

// PUT /api/pages/{id} (the page's fields → the page; the public page reflects it at once) and
// DELETE /api/pages/{id}. Admins only.
export const loader = apiRoute({
  PUT: endpoint({
    summary: "Update a page (admins)",
    description: "Replaces a page's fields; the public page shows the change at once. Records it in the audit log. 409 when the new slug is taken.",
    response: AdminPage,
    errors: [409],
    auth: requireAdmin,
    body: PageSchema,
    run: ({ user, params, body }) => updatePage(user, params.id!, body),
  }),
  DELETE: endpoint({
    summary: "Delete a page (admins)",
    description: "Deletes a page, which then answers 404 on the site, and records it in the audit log.",
    response: MessageResponse,
    auth: requireAdmin,
    run: async ({ user, params }) => {
      await deletePage(user, params.id!);
      return { message: "Page deleted" };
    },
  }),
});
export const action = loader;
