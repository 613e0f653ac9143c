import { z } from "zod";
import { apiRoute, endpoint } from "~/lib/api-route.server.ts";
import { requireAdmin } from "~/services/auth/guards.server.ts";
import { createTemplate, listTemplates } from "~/services/admin/email-manager.server.ts";
import { TemplateListQuerySchema, TemplateSchema } from "~/validation/admin-email.ts";
import { EmailTemplate } from "~/validation/api-responses-admin.ts";

// GET /api/email-templates (?search) and POST /api/email-templates (layout A of the e-mail
// manager's calls): admins only, checked per method (the path is not under /api/admin).
export const loader = apiRoute({
  GET: endpoint({
    summary: "E-mail templates, searchable by name or subject (admins)",
    description: "Every e-mail template, searchable by name or subject, for the e-mail manager. Changes nothing.",
    response: z.array(EmailTemplate),
    auth: requireAdmin,
    query: TemplateListQuerySchema,
    run: ({ query }) => listTemplates(query),
  }),
  POST: endpoint({
    summary: "Create an e-mail template (admins)",
    description: "Creates an e-mail template (name, subject, HTML and text content, variables) and records it in the audit log. 409 when the name is taken.",
    response: EmailTemplate,
    errors: [409],
    auth: requireAdmin,
    body: TemplateSchema,
    status: 201,
    run: ({ user, body }) => createTemplate(user, body),
  }),
});
export const action = loader;
