import { apiRoute, endpoint } from "~/lib/api-route.server.ts";
import { publicFor } from "~/lib/http-cache.server.ts";
import { anyone, requireAdmin } from "~/services/auth/guards.server.ts";
import { stepUpInRun } from "~/services/auth/step-up.server.ts";
import { deleteCategory, updateCategory } from "~/services/catalogue/category-admin.server.ts";
import { getCategory } from "~/services/catalogue/categories.server.ts";
import { CategorySchema } from "~/validation/admin-catalogue.ts";
import { FIVE_MINUTES } from "./catalogue.server.ts";
import { CategoryDetail, MessageResponse } from "~/validation/api-responses.ts";
import { AdminCategory } from "~/validation/api-responses-admin.ts";

/**
 * GET /api/categories/{slugOrId}: the category with its parent and subcategories.
 * PUT and DELETE /api/categories/{id} (admins): update with the same fields, or delete (409 while
 * it has sub-categories or active licences).
 */
export const loader = apiRoute({
  GET: {
    summary: "One category with its parent and subcategories",
    description: "One active category by slug or id, with its parent and subcategories. The same for every caller (cached 5 minutes). Changes nothing.",
    auth: anyone,
    response: CategoryDetail,
    cache: publicFor(FIVE_MINUTES),
    run: ({ params }) => getCategory(params.slugOrId!),
  },
  PUT: endpoint({
    summary: "Update a category (admins)",
    description:
      "Replaces a category's name, description, yearly price and parent, and records the change in the audit log. A main category with subcategories cannot become one itself (400). 409 when the name or slug is taken.",
    response: AdminCategory,
    errors: { 409: "The name or slug is already in use" },
    auth: requireAdmin,
    stepUp: stepUpInRun("when the yearly price changes"),
    body: CategorySchema,
    run: ({ stepUp, user, params, body }) => updateCategory(user, params.slugOrId!, body, stepUp),
  }),
  DELETE: endpoint({
    summary: "Delete a category (admins; 409 while it has subcategories or active licenses)",
    description: "Deletes a category and records it in the audit log. Refused with 409 while it has subcategories or members hold active licenses for it.",
    response: MessageResponse,
    errors: [409],
    auth: requireAdmin,
    run: async ({ user, params }) => {
      await deleteCategory(user, params.slugOrId!);
      return { message: "Category deleted" };
    },
  }),
});
export const action = loader;
