import { apiRoute, endpoint } from "~/lib/api-route.server.ts";
import { ServiceError } from "~/lib/errors.server.ts";
import { clientAddress } from "~/lib/rate-limit.server.ts";
import { toWellFormedInput } from "~/lib/well-formed.server.ts";
import { anyone } from "~/services/auth/guards.server.ts";
import { PLAYBACK_REFUSED, recordPlaybackEvents } from "~/services/analytics/playback-events.server.ts";
import { PLAYBACK_MESSAGES, PlaybackEventsSchema } from "~/validation/playback-analytics.ts";

/** A batch is a few small events; anything longer is not a player's. */
const MAX_BODY = 8 * 1024;

// POST /api/playback-events: the player's beacons (app/lib/dom/playback-beacons.ts). Read by
// hand because navigator.sendBeacon posts its JSON as text/plain (a type that needs no CORS
// preflight), which the /api helper's JSON reader would refuse with 415.
export const loader = apiRoute({
  POST: endpoint({
    summary: "Record a player's analytics events (a batch)",
    description:
      "What a licensed player reports at 25, 50, 75 and 100 % of its video and when the viewer leaves: `{ token, events: [{ play, kind, fraction }] }`, 1 to 20 events. `token` is the page's signed playback token (the player's `data-analytics` attribute), naming the licence, the animation and the site or patient link; `play` a random id per playback; `kind` play, q25, q50, q75, q100 or progress; `fraction` the furthest fraction of the video reached, 0 to 1. No sign-in: the token authorises. Stored only while the licence is active and covers the animation, and a patient link is neither expired nor revoked (410 otherwise). The viewer is kept as a hash salted per UTC day (no address, browser or account). Limited per page and per address (429). Answers 204.",
    auth: anyone,
    status: 204,
    rawBody: {
      mediaType: "application/json",
      description: "The batch as JSON; navigator.sendBeacon sends it as text/plain, which is read the same way. At most 8 KiB.",
      schema: PlaybackEventsSchema,
    },
    errors: {
      400: `A body that is not a batch, or a bad or expired token ("${PLAYBACK_MESSAGES.token}")`,
      410: `The licence ended ("${PLAYBACK_REFUSED.licence}"), no longer covers the animation, or the patient link expired or was revoked ("${PLAYBACK_REFUSED.link}")`,
      413: "Body too large",
      429: "Too many batches from this page or address: wait for the Retry-After seconds",
    },
    run: async ({ request, context }) => {
      const batch = PlaybackEventsSchema.safeParse(await readBatch(request));
      if (!batch.success) {
        const issue = batch.error.issues[0];
        throw new ServiceError(issue?.message ?? PLAYBACK_MESSAGES.body, 400, typeof issue?.path[0] === "string" ? issue.path[0] : undefined);
      }
      await recordPlaybackEvents(batch.data, { address: clientAddress(context), userAgent: request.headers.get("User-Agent") ?? "" });
      return new Response(null, { status: 204 });
    },
  }),
});
export const action = loader;

/** The body as JSON, whether it is declared application/json or text/plain. */
async function readBatch(request: Request): Promise<unknown> {
  const mediaType = (request.headers.get("content-type") ?? "").split(";")[0]!.trim().toLowerCase();
  if (mediaType && mediaType !== "application/json" && mediaType !== "text/plain") throw new ServiceError(PLAYBACK_MESSAGES.body, 415);
  const text = await request.text();
  if (text.length > MAX_BODY) throw new ServiceError("Body too large", 413);
  try {
    return toWellFormedInput(JSON.parse(text));
  } catch {
    throw new ServiceError(PLAYBACK_MESSAGES.body, 400);
  }
}
