import { apiRoute, endpoint } from "~/lib/api-route.server.ts";
import { requireAdmin } from "~/services/auth/guards.server.ts";
import { deleteTemplate, updateTemplate } from "~/services/email-manager.server.ts";
import { TemplateUpdateSchema } from "~/validation/admin-email.ts";
import { MessageResponse } from "~/validation/api-responses.ts";
import { EmailTemplate } from "~/validation/api-responses-admin.ts";

// PUT /api/email-templates/{id} (subject, htmlContent, textContent; name, variables, isActive
// too) → the template; DELETE /api/email-templates/{id}. Admins only.
export const loader = apiRoute({
  PUT: endpoint({
    summary: "Update an e-mail template (admins)",
    response: EmailTemplate,
    errors: [409],
    auth: requireAdmin,
    body: TemplateUpdateSchema,
    run: ({ user, params, body }) => updateTemplate(user, params.id!, body),
  }),
  DELETE: endpoint({
    summary: "Delete an e-mail template (admins)",
    response: MessageResponse,
    auth: requireAdmin,
    run: async ({ user, params }) => {
      await deleteTemplate(user, params.id!);
      return { message: "Template deleted" };
    },
  }),
});
export const action = loader;
