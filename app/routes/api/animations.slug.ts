import { apiRoute, endpoint } from "~/lib/api-route.server.ts";
import { viewerPolicy } from "~/lib/http-cache.server.ts";
import { getViewerAccess } from "~/services/licensing/access.server.ts";
import { getUser, requireAdmin } from "~/services/auth/guards.server.ts";
import { STEP_UP, stepUpInRun } from "~/services/auth/step-up.server.ts";
import { deleteAnimation, updateAnimation } from "~/services/catalogue/animation-admin.server.ts";
import { getAnimation } from "~/services/catalogue/animations.server.ts";
import { AnimationSchema } from "~/validation/admin-catalogue.ts";
import { FIVE_MINUTES } from "./catalogue.server.ts";
import { AnimationDetail, MessageResponse } from "~/validation/api-responses.ts";
import { AdminAnimation } from "~/validation/api-responses-admin.ts";

/**
 * GET /api/animations/{slugOrId}: the animation as this caller may see it (no view counted).
 * PUT and DELETE /api/animations/{id} (admins): update with the same fields as the create, or
 * delete (409 while members hold active licences for it).
 */
export const loader = apiRoute({
  GET: {
    summary: "One animation as the caller may see it (full video and download only with the right)",
    description:
      "One active animation by slug or id, with its category, doctors, captions and transcript. fullVideo and downloadFile are filled in only when the caller's license, premium or admin role allows them (hasAccess, canDownload); an anonymous caller gets the preview. Counts no view and changes nothing.",
    auth: getUser,
    response: AnimationDetail,
    cache: (request) => viewerPolicy(request, FIVE_MINUTES),
    run: async ({ request, params }) => getAnimation(params.slugOrId!, await getViewerAccess(request)),
  },
  PUT: endpoint({
    summary: "Update an animation (admins)",
    description:
      "Replaces an animation's fields and doctors with the admin form's values (the same fields as the create) and records the change in the audit log. 409 when the new slug is taken.",
    response: AdminAnimation,
    errors: { 409: "The slug is already in use" },
    auth: requireAdmin,
    stepUp: stepUpInRun("when the price changes"),
    body: AnimationSchema,
    run: ({ stepUp, user, params, body }) => updateAnimation(user, params.slugOrId!, body, stepUp),
  }),
  DELETE: endpoint({
    summary: "Delete an animation (admins; 409 while members hold active licenses for it)",
    description: "Deletes an animation and records it in the audit log. Refused with 409 while members hold active licenses for it.",
    response: MessageResponse,
    errors: { 409: "Members hold active licenses for this animation" },
    auth: requireAdmin,
    stepUp: STEP_UP,
    run: async ({ user, params }) => {
      await deleteAnimation(user, params.slugOrId!);
      return { message: "Animation deleted" };
    },
  }),
});
export const action = loader;
