import { z } from "zod";
import { apiRoute, endpoint } from "~/lib/api-route.server.ts";
import { publicFor } from "~/lib/http-cache.server.ts";
import { anyone, requireAdmin } from "~/services/auth/guards.server.ts";
import { stepUpInRun } from "~/services/auth/step-up.server.ts";
import { createCategory } from "~/services/catalogue/category-admin.server.ts";
import { listCategories } from "~/services/catalogue/categories.server.ts";
import { CategorySchema } from "~/validation/admin-catalogue.ts";
import { FIVE_MINUTES } from "./catalogue.server.ts";
import { Category } from "~/validation/api-responses.ts";
import { AdminCategory } from "~/validation/api-responses-admin.ts";

/**
 * GET /api/categories: every active category, flat, with parentId and animationCount.
 * POST (admins): { name, description, yearlyPrice, parentId } → 201 with the category.
 */
export const loader = apiRoute({
  GET: {
    summary: "Every active category, flat",
    description:
      "Every active category, main and sub alike, flat, with its parent's id and its number of animations. The same for every caller (cached 5 minutes). Changes nothing.",
    auth: anyone,
    response: z.array(Category),
    cache: publicFor(FIVE_MINUTES),
    run: () => listCategories(),
  },
  POST: endpoint({
    summary: "Create a category (admins)",
    description:
      "Creates a main category or, with a parentId, a subcategory (a subcategory's yearly price is what a category license costs), and records it in the audit log. 409 when the name or slug is taken.",
    response: AdminCategory,
    errors: { 409: "The name or slug is already in use" },
    auth: requireAdmin,
    stepUp: stepUpInRun("when a subcategory is given a yearly price"),
    body: CategorySchema,
    status: 201,
    run: ({ stepUp, user, body }) => createCategory(user, body, stepUp),
  }),
});
export const action = loader;
