import { apiRoute, endpoint } from "~/lib/api-route.server.ts";
import { requireAdmin } from "~/services/auth/guards.server.ts";
import { createFaq } from "~/services/admin/content-admin.server.ts";
import { FaqSchema } from "~/validation/admin-content.ts";
import { AdminFaq } from "~/validation/api-responses-admin.ts";

// POST /api/admin/faqs { question, answer, categoryId, isActive } → 201 with the FAQ.
export const loader = apiRoute({
  POST: endpoint({
    summary: "Create an FAQ",
    description: "Creates an FAQ (question, answer, category, active flag) and records it in the audit log. 400 for a category that does not exist.",
    response: AdminFaq,
    auth: requireAdmin,
    body: FaqSchema,
    status: 201,
    run: ({ user, body }) => createFaq(user, body),
  }),
});
export const action = loader;
