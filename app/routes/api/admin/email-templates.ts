import { apiRoute, endpoint } from "~/lib/api-route.server.ts";
import { listTemplates } from "~/services/email-manager.server.ts";
import { TemplateListQuerySchema } from "~/validation/admin-email.ts";

// GET /api/admin/email-templates → every template (layout B; spec section 7).
export const loader = apiRoute({
  GET: endpoint({ query: TemplateListQuerySchema, run: ({ query }) => listTemplates(query) }),
});
export const action = loader;
