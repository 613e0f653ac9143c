import { apiRoute, endpoint } from "~/lib/api-route.server.ts";
import { requireAdmin } from "~/services/auth/guards.server.ts";
import { deleteTemplate, updateTemplate } from "~/services/admin/email-manager.server.ts";
import { TemplateUpdateSchema } from "~/validation/admin-email.ts";
import { MessageResponse } from "~/validation/api-responses.ts";
import { EmailTemplate } from "~/validation/api-responses-admin.ts";

// PUT /api/email-templates/{id} (subject, htmlContent, textContent; name, variables, isActive
// too) → the template; DELETE /api/email-templates/{id}. Admins only.
export const loader = apiRoute({
  PUT: endpoint({
    summary: "Update an e-mail template (admins)",
    description:
      "Replaces a template's subject and content (and its name, variables and active flag when sent); the next e-mail sent with it uses the new text. Records the change in the audit log. 409 when the new name is taken.",
    response: EmailTemplate,
    errors: [409],
    auth: requireAdmin,
    body: TemplateUpdateSchema,
    run: ({ user, params, body }) => updateTemplate(user, params.id!, body),
  }),
  DELETE: endpoint({
    summary: "Delete an e-mail template (admins)",
    description:
      "Deletes an e-mail template and records it in the audit log. 409 for a system template (one the site sends by itself, such as password_reset).",
    response: MessageResponse,
    errors: [409],
    auth: requireAdmin,
    run: async ({ user, params }) => {
      await deleteTemplate(user, params.id!);
      return { message: "Template deleted" };
    },
  }),
});
export const action = loader;
