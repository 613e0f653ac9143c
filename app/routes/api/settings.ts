import { z } from "zod";
import { apiRoute } from "~/lib/api-route.server.ts";
import { publicFor } from "~/lib/http-cache.server.ts";
import { getPublicSettings } from "~/services/content.server.ts";
import { Setting } from "~/validation/api-responses.ts";

// An array of { key, value }, cached 5 minutes. Public keys only.
export const loader = apiRoute({ GET: { summary: "Public settings as key/value pairs", response: z.array(Setting), cache: publicFor(300), run: () => getPublicSettings() } });
export const action = loader;
