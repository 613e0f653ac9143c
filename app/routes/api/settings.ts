import { z } from "zod";
import { apiRoute } from "~/lib/api-route.server.ts";
import { anyone } from "~/services/auth/guards.server.ts";
import { publicFor } from "~/lib/http-cache.server.ts";
import { getPublicSettings } from "~/services/site/content.server.ts";
import { Setting } from "~/validation/api-responses.ts";

// An array of { key, value }, cached 5 minutes. Public keys only.
export const loader = apiRoute({
  GET: {
    summary: "Public settings as key/value pairs",
    description:
      "The public settings (platform name, premium's yearly price, home page size, support e-mail, phone and address) as key/value pairs, defaults filled in; no other setting is ever listed here. The same for every caller (cached 5 minutes). Changes nothing.",
    auth: anyone,
    response: z.array(Setting),
    cache: publicFor(300),
    run: () => getPublicSettings(),
  },
});
export const action = loader;
