import { apiRoute } from "~/lib/api-route.server.ts";
import { anyone } from "~/services/auth/guards.server.ts";
import { notFound } from "~/lib/errors.server.ts";
import { logger } from "~/lib/logger.server.ts";
import { toWellFormedInput } from "~/lib/well-formed.server.ts";
import { clientAddress, consumeRateLimit } from "~/lib/rate-limit.server.ts";
import { PERFORMANCE_RULE, recordPerformance, type PerformanceKind } from "~/services/site/content.server.ts";

const KINDS: PerformanceKind[] = ["log", "page-load", "video-load"];
const MAX_BODY = 16 * 1024;

// POST /api/performance/{log,page-load,video-load}: fire-and-forget reports from the browser
// (failures are ignored on both sides). The caller gets 204 whatever it sent and whatever
// happens here; only a well-formed report within the rate limit is stored.
export const loader = apiRoute({
  POST: {
    summary: "Report a slow operation, page load or video load (always 204)",
    description:
      "Stores a browser's report of a slow operation, page load or video load for the admins' performance screen. Always answers 204, whatever was sent: a malformed report, or one beyond the per-address limit, is dropped without a word. 404 for an unknown kind.",
    auth: anyone,
    status: 204,
    rawBody: {
      mediaType: "application/json",
      description: "The report as JSON; navigator.sendBeacon sends it as text/plain, which is read the same way. At most 16 KiB.",
    },
    run: async ({ request, params, context }) => {
      const kind = KINDS.find((k) => k === params.kind);
      if (!kind) throw notFound("Not found");
      try {
        const body = await readJson(request);
        const limit = await consumeRateLimit(`performance:${clientAddress(context)}`, PERFORMANCE_RULE);
        if (body !== undefined && limit.allowed) await recordPerformance(kind, body, request.headers.get("User-Agent"));
      } catch (error) {
        logger.warn({ err: error, kind }, "performance report ignored");
      }
      return new Response(null, { status: 204 });
    },
  },
});
export const action = loader;

/** The body as JSON whatever its declared type (navigator.sendBeacon posts text/plain). */
async function readJson(request: Request): Promise<unknown> {
  const text = await request.text();
  if (!text || text.length > MAX_BODY) return undefined;
  try {
    return toWellFormedInput(JSON.parse(text));
  } catch {
    return undefined;
  }
}
