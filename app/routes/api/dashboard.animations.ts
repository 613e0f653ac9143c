import { z } from "zod";
import { apiRoute, endpoint } from "~/lib/api-route.server.ts";
import { cachedJson, NO_STORE } from "~/lib/http-cache.server.ts";
import { requireUser } from "~/services/auth/guards.server.ts";
import { getLibrary } from "~/services/licensing/library.server.ts";
import { LibrarySearchSchema } from "~/validation/account.ts";
import { LibraryAnimation } from "~/validation/api-responses.ts";

const API_PAGE_SIZE = 100;

// The licensed animations (id, title, description, coverImage, duration, licenseType,
// expiryDate), optionally filtered with ?q= and paged with ?page= (100 a page; X-Total-Count).
export const loader = apiRoute({
  GET: endpoint({
    summary: "The caller's licensed animations (100 a page; X-Total-Count)",
    description:
      "The animations the caller's active licenses cover (an animation's, a category's, or premium's), with the license type and expiry, by title, searchable with q, 100 a page; X-Total-Count carries the total. Changes nothing.",
    response: z.array(LibraryAnimation),
    auth: requireUser,
    query: LibrarySearchSchema,
    run: async ({ request, user, query: { q, page } }) => {
      const library = await getLibrary(user.id, { q, page, pageSize: API_PAGE_SIZE });
      return cachedJson(request, library.animations, NO_STORE, 200, { "X-Total-Count": String(library.total) });
    },
  }),
});
export const action = loader;
