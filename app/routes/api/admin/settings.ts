import { z } from "zod";
import { apiRoute, endpoint } from "~/lib/api-route.server.ts";
import { listAdminSettings } from "~/services/settings.server.ts";
import { AdminSetting } from "~/validation/api-responses-admin.ts";

// GET /api/admin/settings → [{ key, value, description, updatedAt }], every
// editable setting with its default filled in. The admin guard is the parent's middleware.
export const loader = apiRoute({ GET: endpoint({ summary: "Every editable setting with its default", response: z.array(AdminSetting), run: () => listAdminSettings() }) });
export const action = loader;
