import { cachedJson } from "~/lib/http-cache.server.ts";
import { methodNotAllowed } from "~/lib/api.server.ts";
import { requireUser } from "~/services/auth/guards.server.ts";
import { getLibrary } from "~/services/library.server.ts";
import { LibrarySearchSchema } from "~/validation/account.ts";
import type { Route } from "./+types/dashboard.animations";

const API_PAGE_SIZE = 100;

// The licensed animations (id, title, description, coverImage, duration, licenseType,
// expiryDate), optionally filtered with ?q= and paged with ?page= (100 a page; X-Total-Count).
export async function loader({ request, url }: Route.LoaderArgs) {
  const user = await requireUser(request);
  const { q, page } = LibrarySearchSchema.parse(Object.fromEntries(url.searchParams));
  const library = await getLibrary(user.id, { q, page, pageSize: API_PAGE_SIZE });
  const response = cachedJson(request, library.animations, { scope: "no-store" });
  response.headers.set("X-Total-Count", String(library.total));
  return response;
}

export const action = () => methodNotAllowed(["GET"]);
