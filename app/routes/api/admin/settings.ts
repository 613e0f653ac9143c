import { apiRoute, endpoint } from "~/lib/api-route.server.ts";
import { listAdminSettings } from "~/services/settings.server.ts";

// GET /api/admin/settings → [{ key, value, description, updatedAt }] (spec section 7), every
// editable setting with its default filled in. The admin guard is the parent's middleware.
export const loader = apiRoute({ GET: endpoint({ run: () => listAdminSettings() }) });
export const action = loader;
