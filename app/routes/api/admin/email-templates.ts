import { z } from "zod";
import { apiRoute, endpoint } from "~/lib/api-route.server.ts";
import { requireAdmin } from "~/services/auth/guards.server.ts";
import { listTemplates } from "~/services/admin/email-manager.server.ts";
import { TemplateListQuerySchema } from "~/validation/admin-email.ts";
import { EmailTemplate } from "~/validation/api-responses-admin.ts";

// GET /api/admin/email-templates → every template (the e-mail manager's second body layout, B).
export const loader = apiRoute({
  GET: endpoint({
    summary: "Every e-mail template",
    description: "Every e-mail template, searchable by name or subject. Changes nothing.",
    auth: requireAdmin,
    response: z.array(EmailTemplate),
    query: TemplateListQuerySchema,
    run: ({ query }) => listTemplates(query),
  }),
});
export const action = loader;
