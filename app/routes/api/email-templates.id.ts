import { apiRoute, endpoint } from "~/lib/api-route.server.ts";
import { requireAdmin } from "~/services/auth/guards.server.ts";
import { deleteTemplate, updateTemplate } from "~/services/email-manager.server.ts";
import { TemplateUpdateSchema } from "~/validation/admin-email.ts";

// PUT /api/email-templates/{id} (subject, htmlContent, textContent; name, variables, isActive
// too) → the template; DELETE /api/email-templates/{id}. Admins only (spec section 7).
export const loader = apiRoute({
  PUT: endpoint({
    auth: requireAdmin,
    body: TemplateUpdateSchema,
    run: ({ user, params, body }) => updateTemplate(user, params.id!, body),
  }),
  DELETE: endpoint({
    auth: requireAdmin,
    run: async ({ user, params }) => {
      await deleteTemplate(user, params.id!);
      return { message: "Template deleted" };
    },
  }),
});
export const action = loader;
