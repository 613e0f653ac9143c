import { z } from "zod";
import { apiRoute, endpoint } from "~/lib/api-route.server.ts";
import { requireAdmin } from "~/services/auth/guards.server.ts";
import { createPage, listAdminPages } from "~/services/admin/content-admin.server.ts";
import { PageListQuerySchema, PageSchema } from "~/validation/admin-content.ts";
import { AdminPage, AdminPageRow } from "~/validation/api-responses-admin.ts";

// GET /api/pages (admins: the list, drafts included; optional search, type, page) and
// POST /api/pages (admins: title, slug, content, metaDescription, metaKeywords, type,
// isPublished → 201 with the page).
export const loader = apiRoute({
  GET: endpoint({
    summary: "Every page, drafts included (admins)",
    description: "Every content page, drafts included, by search and type, for the back office's list. Changes nothing.",
    response: z.array(AdminPageRow),
    auth: requireAdmin,
    query: PageListQuerySchema,
    run: async ({ query }) => (await listAdminPages(query)).pages,
  }),
  POST: endpoint({
    summary: "Create a page (admins)",
    description:
      "Creates a content page (title, slug, HTML content, meta fields, type, published or draft); the HTML is sanitised when it is shown. Records it in the audit log. 409 when the slug is taken.",
    response: AdminPage,
    errors: [409],
    auth: requireAdmin,
    body: PageSchema,
    status: 201,
    run: ({ user, body }) => createPage(user, body),
  }),
});
export const action = loader;
