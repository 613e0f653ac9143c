import { apiRoute, endpoint } from "~/lib/api-route.server.ts";
import { requireAdmin } from "~/services/auth/guards.server.ts";
import { listEmailLogs } from "~/services/admin/email-manager.server.ts";
import { LogListQuerySchema } from "~/validation/admin-email.ts";
import { EmailLogPage } from "~/validation/api-responses-admin.ts";

// GET /api/admin/email-logs (?status, ?search, ?campaign, ?page, ?limit) → the log, newest
// first, with page and hasNext (the log is never counted whole).
export const loader = apiRoute({
  GET: endpoint({
    summary: "The e-mail log, newest first, paged without a count",
    description:
      "The e-mail log, newest first, filtered by status, search and campaign, a page at a time with whether a next page exists (the log is never counted whole). Changes nothing.",
    auth: requireAdmin,
    response: EmailLogPage,
    query: LogListQuerySchema,
    run: ({ query }) => listEmailLogs(query),
  }),
});
export const action = loader;
