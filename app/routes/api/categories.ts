import { apiRoute, endpoint } from "~/lib/api-route.server.ts";
import { publicFor } from "~/lib/http-cache.server.ts";
import { requireAdmin } from "~/services/auth/guards.server.ts";
import { createCategory } from "~/services/catalogue/category-admin.server.ts";
import { listCategories } from "~/services/catalogue/categories.server.ts";
import { CategorySchema } from "~/validation/admin-catalogue.ts";
import { FIVE_MINUTES } from "./catalogue.server.ts";

/**
 * GET /api/categories: every active category, flat, with parentId and animationCount.
 * POST (admins): { name, description, yearlyPrice, parentId } → 201 with the category.
 */
export const loader = apiRoute({
  GET: { cache: publicFor(FIVE_MINUTES), run: () => listCategories() },
  POST: endpoint({
    auth: requireAdmin,
    body: CategorySchema,
    status: 201,
    run: ({ user, body }) => createCategory(user, body),
  }),
});
export const action = loader;
