import { z } from "zod";
import { apiRoute, endpoint } from "~/lib/api-route.server.ts";
import { requireAdmin } from "~/services/auth/guards.server.ts";
import { listAdminSettings } from "~/services/site/settings.server.ts";
import { AdminSetting } from "~/validation/api-responses-admin.ts";

// GET /api/admin/settings → [{ key, value, description, updatedAt }], every
// editable setting with its default filled in. The admin guard is the parent's middleware.
export const loader = apiRoute({
  GET: endpoint({
    summary: "Every editable setting with its default",
    description: "Every editable setting with its description and current value (the default when never saved). Changes nothing.",
    auth: requireAdmin,
    response: z.array(AdminSetting),
    run: () => listAdminSettings(),
  }),
});
export const action = loader;
