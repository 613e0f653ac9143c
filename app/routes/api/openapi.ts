import { z } from "zod";
import { apiRoute, endpoint } from "~/lib/api-route.server.ts";
import { anyone } from "~/services/auth/guards.server.ts";
import { publicFor } from "~/lib/http-cache.server.ts";
import { getApiDocument } from "./openapi.server.ts";

// GET /api/openapi.json: the OpenAPI 3.1 document of every /api call, generated from the code
// that answers them (openapi.server.ts). The same for everyone; an hour in any cache.
export const loader = apiRoute({
  GET: endpoint({
    summary: "This reference as an OpenAPI 3.1 document",
    description:
      "This reference as an OpenAPI 3.1 document, generated from the code that answers the calls. The same for everyone (cached an hour). Changes nothing.",
    auth: anyone,
    response: z.looseObject({
      openapi: z.literal("3.1.0"),
      info: z.looseObject({ title: z.string(), version: z.string() }),
      paths: z.record(z.string(), z.unknown()),
    }),
    cache: publicFor(3600),
    run: () => getApiDocument(),
  }),
});
export const action = loader;
