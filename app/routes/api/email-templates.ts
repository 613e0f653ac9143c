import { apiRoute, endpoint } from "~/lib/api-route.server.ts";
import { requireAdmin } from "~/services/auth/guards.server.ts";
import { createTemplate, listTemplates } from "~/services/email-manager.server.ts";
import { TemplateListQuerySchema, TemplateSchema } from "~/validation/admin-email.ts";

// GET /api/email-templates (?search) and POST /api/email-templates (layout A of the e-mail
// manager, spec section 7): admins only, checked per method (the path is not under /api/admin).
export const loader = apiRoute({
  GET: endpoint({
    auth: requireAdmin,
    query: TemplateListQuerySchema,
    run: ({ query }) => listTemplates(query),
  }),
  POST: endpoint({
    auth: requireAdmin,
    body: TemplateSchema,
    status: 201,
    run: ({ user, body }) => createTemplate(user, body),
  }),
});
export const action = loader;
