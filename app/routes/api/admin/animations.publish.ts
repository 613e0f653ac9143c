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
      "Publishes an animation (it joins the public catalogue) or unpublishes it, the last path segment says which, and records it in the audit log. Unpublished, it leaves the catalogue, search and the sitemaps; individual licences for it keep working (the licensee's player, downloads, embeds and patient links), category and premium access no longer cover it. Publishing answers 409 until the animation is ready, with a message naming what is missing: no full video, the video still processing or not processed, or (while the require_medical_review setting is on, the default) no current medical review. Publishing or unpublishing clears its publishWhenReady.",
    response: AdminAnimation,
    errors: { 409: "Not ready to publish: the message names what is missing (no full video, still processing, no current medical review)" },
    auth: requireAdmin,
    run: ({ user, params, url }) => setAnimationPublished(user, params.id!, url.pathname.endsWith("/publish")),
  }),
});
export const action = loader;
