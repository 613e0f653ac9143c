import { z } from "zod";
import { apiRoute, endpoint } from "~/lib/api-route.server.ts";
import { anyone } from "~/services/auth/guards.server.ts";
import { getOEmbed, OEMBED_NOT_FOUND } from "~/services/licensing/embeds.server.ts";
import { OEmbed } from "~/validation/api-responses.ts";

// GET /api/oembed?url={embed or animation page URL}&licence={id}[&maxwidth=N]: the licensed
// embed as oEmbed JSON (https://oembed.com, type "video"), for CMSs that take oEmbed. Public:
// it says no more than the embed itself, and only while the licence is active.
const OEmbedQuerySchema = z.object({
  url: z.string({ error: OEMBED_NOT_FOUND }).min(1, OEMBED_NOT_FOUND).max(2000, OEMBED_NOT_FOUND),
  licence: z.string().max(100).optional(),
  maxwidth: z.coerce.number().int().positive().max(10_000).optional(),
  format: z.literal("json", { error: "Only the json format is offered" }).optional(),
});

export const loader = apiRoute({
  GET: endpoint({
    summary: "A licensed embed as oEmbed JSON (type video), while its license is active",
    description:
      "Describes a licensed embed as oEmbed JSON (type video: the player's iframe HTML, size, title, thumbnail) for sites and CMSs that take oEmbed. Answers only while the license is active and covers the animation (404 otherwise); it tells no more than the embed itself. Changes nothing.",
    auth: anyone,
    response: OEmbed,
    query: OEmbedQuerySchema,
    run: ({ query }) => getOEmbed({ url: query.url, licenceId: query.licence, maxwidth: query.maxwidth }),
  }),
});
export const action = loader;
