import { apiRoute, endpoint } from "~/lib/api-route.server.ts";
import { requireAdmin } from "~/services/auth/guards.server.ts";
import { setAnimationPublished } from "~/services/catalogue/animation-admin.server.ts";
import { AdminAnimation } from "~/validation/api-responses-admin.ts";

// POST /api/admin/animations/{id}/publish and POST /api/admin/animations/{id}/unpublish: the
// admin list's Publish and Unpublish buttons; one module for both, the last segment says which.
export const loader = apiRoute({
  POST: endpoint({
    summary: "Publish an animation, or unpublish it",
    description:
      "Publishes an animation (it joins the public catalogue) or unpublishes it (hidden; licenses keep working), the last path segment says which, and records it in the audit log. 409 when publishing an animation without a current medical review while the require_medical_review setting is on.",
    response: AdminAnimation,
    errors: [409],
    auth: requireAdmin,
    run: ({ user, params, url }) => setAnimationPublished(user, params.id!, url.pathname.endsWith("/publish")),
  }),
});
export const action = loader;
