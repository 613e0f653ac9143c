import { apiRoute, endpoint } from "~/lib/api-route.server.ts";
import { requireAdmin } from "~/services/auth/guards.server.ts";
import { deleteFaq, updateFaq } from "~/services/admin/content-admin.server.ts";
import { FaqSchema } from "~/validation/admin-content.ts";
import { MessageResponse } from "~/validation/api-responses.ts";
import { AdminFaq } from "~/validation/api-responses-admin.ts";

// PUT /api/admin/faqs/{id} (same fields → the FAQ) and DELETE /api/admin/faqs/{id}.
export const loader = apiRoute({
  PUT: endpoint({
    summary: "Update an FAQ",
    description: "Replaces an FAQ's question, answer, category and active flag, and records the change in the audit log.",
    response: AdminFaq,
    auth: requireAdmin,
    body: FaqSchema,
    run: ({ user, params, body }) => updateFaq(user, params.id!, body),
  }),
  DELETE: endpoint({
    summary: "Delete an FAQ",
    description: "Deletes an FAQ and records it in the audit log.",
    response: MessageResponse,
    auth: requireAdmin,
    run: async ({ user, params }) => {
      await deleteFaq(user, params.id!);
      return { message: "FAQ deleted" };
    },
  }),
});
export const action = loader;
