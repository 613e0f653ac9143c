import { apiRoute, endpoint } from "~/lib/api-route.server.ts";
import { requireAdmin } from "~/services/auth/guards.server.ts";
import { STEP_UP } from "~/services/auth/step-up.server.ts";
import { saveSettings } from "~/services/site/settings.server.ts";
import { SettingUpdateSchema } from "~/validation/admin-settings.ts";
import { AdminSetting } from "~/validation/api-responses-admin.ts";

// PUT /api/settings/{key} { value, description } (Save All sends one per
// setting). Admins only; an unknown key is a 404, a value its rule refuses a 400.
export const loader = apiRoute({
  PUT: endpoint({
    summary: "Save one setting (admins)",
    description:
      "Saves one editable setting after checking its value against the setting's own rule (400 with the rule's message), and records the change in the audit log. 404 for a key that is not an editable setting.",
    response: AdminSetting,
    auth: requireAdmin,
    stepUp: STEP_UP,
    body: SettingUpdateSchema,
    run: async ({ user, params, body }) => {
      const [saved] = await saveSettings(user, [{ key: params.key!, ...body }]);
      return saved;
    },
  }),
});
export const action = loader;
