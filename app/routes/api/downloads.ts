import { z } from "zod";
import { apiRoute, endpoint } from "~/lib/api-route.server.ts";
import { cachedJson, NO_STORE } from "~/lib/http-cache.server.ts";
import { requireUser } from "~/services/auth/guards.server.ts";
import { getDownloads } from "~/services/licensing/library.server.ts";
import { LibrarySearchSchema } from "~/validation/account.ts";
import { DownloadableAnimation } from "~/validation/api-responses.ts";

const API_PAGE_SIZE = 100;

// The Downloads library (/my-animations) for API clients: each licensed animation with its
// package and single files, the same list and filters as the page.
export const loader = apiRoute({
  GET: endpoint({
    summary: "What the caller may download (100 a page; X-Total-Count)",
    description:
      "Every animation the caller's or their practice's active individual and category licenses cover, by title, with its licence and end date, the package (`packageHref`, a ZIP streamed with ranges) and each single file (`files[].href`: the MP4s by resolution, the WebM, captions as WebVTT and SubRip, transcripts, the license terms), and how often the caller downloaded it. Filter with `q`, `licence` (individual or category) and `category` (a category id); 100 a page, X-Total-Count carries the total. Every download from these links is recorded. Changes nothing.",
    response: z.array(DownloadableAnimation),
    auth: requireUser,
    query: LibrarySearchSchema,
    run: async ({ request, user, query }) => {
      const library = await getDownloads(user.id, { ...query, pageSize: API_PAGE_SIZE });
      return cachedJson(request, library.animations, NO_STORE, 200, { "X-Total-Count": String(library.total) });
    },
  }),
});
export const action = loader;
