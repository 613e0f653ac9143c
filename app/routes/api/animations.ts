import { apiRoute, endpoint } from "~/lib/api-route.server.ts";
import { publicFor, viewerPolicy } from "~/lib/http-cache.server.ts";
import { getViewerAccess } from "~/services/licensing/access.server.ts";
import { getUser, requireAdmin } from "~/services/auth/guards.server.ts";
import { stepUpInRun } from "~/services/auth/step-up.server.ts";
import { createAnimation } from "~/services/catalogue/animation-admin.server.ts";
import { getHomePageSize, listAnimationCards, listAnimations } from "~/services/catalogue/animations.server.ts";
import { AnimationSchema } from "~/validation/admin-catalogue.ts";
import { AnimationListQuerySchema } from "~/validation/catalogue.ts";
import { FIVE_MINUTES } from "./catalogue.server.ts";
import { AnimationList } from "~/validation/api-responses.ts";
import { AdminAnimation } from "~/validation/api-responses-admin.ts";

const isLight = (url: URL) => ["true", "1"].includes(url.searchParams.get("light") ?? "");

/**
 * GET /api/animations?category=&search=&page=&limit=&light= → `{ animations, hasMore, total }`,
 * with `suggestion` when a misspelt search term was corrected (services/catalogue/search.server.ts).
 * `light=true` (the home page) carries cards without any access-dependent field, so it is
 * public; the full list is shaped for the caller.
 * POST (admins): the animation's fields with doctorIds → 201 with the animation (admin shape).
 */
export const loader = apiRoute({
  GET: endpoint({
    summary: "List animations: by category, search, page; light=true for public home cards",
    description:
      "Lists active animations, filtered by category (id or slug) and search words, a page at a time, with whether more follow and the total. A search term matches titles and descriptions as typed; when that finds nothing, its words are matched one by one (also against category and doctor names), misspelt words are corrected from the catalogue's vocabulary and the corrected term is returned as suggestion. The access fields of each card (hasAccess, canDownload) are those of the caller: a member's licenses and premium, an admin's everything, nothing for an anonymous caller. With light=true the cards carry no access field and may be cached by anyone. Changes nothing.",
    auth: getUser,
    response: AnimationList,
    query: AnimationListQuerySchema,
    cache: (request) => (isLight(new URL(request.url)) ? publicFor(FIVE_MINUTES) : viewerPolicy(request, FIVE_MINUTES)),
    run: async ({ request, url, query: { category, search, page = 1, limit } }) => {
      // Without a limit, the home page size (setting homepage_animations_per_page, default 6).
      const query = { category, search, page, limit: limit ?? (await getHomePageSize()) };
      return isLight(url) ? listAnimationCards(query) : listAnimations(query, await getViewerAccess(request));
    },
  }),
  POST: endpoint({
    summary: "Create an animation (admins)",
    description:
      "Creates an animation from the admin form's fields, with the doctors who verified it, and records the change in the audit log. 409 when the slug is taken.",
    response: AdminAnimation,
    errors: { 409: "The slug is already in use" },
    auth: requireAdmin,
    stepUp: stepUpInRun(),
    body: AnimationSchema,
    status: 201,
    run: ({ stepUp, user, body }) => createAnimation(user, body, stepUp),
  }),
});
export const action = loader;
