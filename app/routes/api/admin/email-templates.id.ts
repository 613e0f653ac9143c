import { apiRoute, endpoint } from "~/lib/api-route.server.ts";
import { requireAdmin } from "~/services/auth/guards.server.ts";
import { updateTemplate } from "~/services/admin/email-manager.server.ts";
import { TemplateUpdateSchema } from "~/validation/admin-email.ts";
import { EmailTemplate } from "~/validation/api-responses-admin.ts";

// PUT /api/admin/email-templates/{id} { subject, htmlContent, textContent } → the updated
// template (layout B's edit panel).
export const loader = apiRoute({
  PUT: endpoint({
    summary: "Update an e-mail template's subject and content",
    description:
      "Replaces a template's subject, HTML and text content; the next e-mail sent with it uses the new text. Records the change in the audit log. 409 when the new name is taken.",
    response: EmailTemplate,
    errors: [409],
    auth: requireAdmin,
    body: TemplateUpdateSchema,
    run: ({ user, params, body }) => updateTemplate(user, params.id!, body),
  }),
});
export const action = loader;
