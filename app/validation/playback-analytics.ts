import { z } from "zod";
import { named } from "./api-responses.ts";

// Playback analytics (issue 46, "What the clinic learns"): the player's batch of events
// (POST /api/playback-events) and what a licence's analytics answer (the licence page, its CSV,
// GET /api/licences/{id}/analytics).

export const PLAYBACK_EVENT_KINDS = ["play", "q25", "q50", "q75", "q100", "progress"] as const;
export type PlaybackEventKind = (typeof PLAYBACK_EVENT_KINDS)[number];

/** A page sends one batch per quartile and one when it is left: a few events each. */
export const MAX_EVENTS_PER_BATCH = 20;

export const PLAYBACK_MESSAGES = {
  token: "The playback token is not valid or has expired",
  events: `Send 1 to ${MAX_EVENTS_PER_BATCH} events`,
  play: "Each event needs its playback's id (a UUID)",
  kind: `kind must be one of ${PLAYBACK_EVENT_KINDS.join(", ")}`,
  fraction: "fraction must be a number from 0 to 1",
  body: "Request body must be JSON: { token, events }",
} as const;

export const PlaybackEventSchema = z.object({
  play: z.uuid({ error: PLAYBACK_MESSAGES.play }),
  kind: z.enum(PLAYBACK_EVENT_KINDS, { error: PLAYBACK_MESSAGES.kind }),
  fraction: z.number({ error: PLAYBACK_MESSAGES.fraction }).min(0, PLAYBACK_MESSAGES.fraction).max(1, PLAYBACK_MESSAGES.fraction),
});

export const PlaybackEventsSchema = named(
  "PlaybackEvents",
  z.object({
    token: z.string({ error: PLAYBACK_MESSAGES.token }).min(1, PLAYBACK_MESSAGES.token).max(600, PLAYBACK_MESSAGES.token),
    events: z
      .array(PlaybackEventSchema, { error: PLAYBACK_MESSAGES.events })
      .min(1, PLAYBACK_MESSAGES.events)
      .max(MAX_EVENTS_PER_BATCH, PLAYBACK_MESSAGES.events),
  }),
);
export type PlaybackEvents = z.infer<typeof PlaybackEventsSchema>;

export const AnalyticsQuerySchema = z.object({
  days: z.coerce
    .number({ error: "days must be a whole number from 1 to 365" })
    .int("days must be a whole number from 1 to 365")
    .min(1, "days must be a whole number from 1 to 365")
    .max(365, "days must be a whole number from 1 to 365")
    .optional(),
});

const day = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/)
  .describe("A UTC day, YYYY-MM-DD");
const counts = {
  plays: z.number().int().describe("Playbacks started"),
  viewers: z.number().int().describe("Distinct viewers, counted per UTC day (the anonymous hash changes daily): the sum of each day's"),
  averageWatched: z.number().describe("The average over plays of the furthest fraction watched, 0 to 1"),
  reached25: z.number().int().describe("Plays that reached 25 % of the video"),
  reached50: z.number().int(),
  reached75: z.number().int(),
  reached100: z.number().int().describe("Plays watched to the end"),
};

export const AnalyticsCounts = named("AnalyticsCounts", z.object(counts));

export const AnalyticsSource = named(
  "AnalyticsSource",
  z.discriminatedUnion("kind", [
    z.object({ kind: z.literal("site"), host: z.string().describe("The embedding site (direct: none recognised)"), ...counts }),
    z.object({
      kind: z.literal("link"),
      linkId: z.string(),
      label: z.string().describe("What the clinic called the patient link"),
      expiresAt: z.iso.datetime({ offset: true }).nullable(),
      revoked: z.boolean(),
      openedAt: z.iso.datetime({ offset: true }).nullable().describe("When the patient first opened it"),
      completedAt: z.iso.datetime({ offset: true }).nullable().describe("When a video of it was first watched to the end"),
      ...counts,
    }),
  ]),
);

export const LicenceAnalyticsResponse = named(
  "LicenceAnalytics",
  z.object({
    licenceId: z.string(),
    days: z.number().int(),
    from: day,
    to: day,
    updatedAt: z.iso.datetime({ offset: true }).nullable().describe("When the daily rollup last ran; today's numbers are counted live"),
    series: z.array(z.object({ day, plays: z.number().int(), viewers: z.number().int() })).describe("Every day of the period, oldest first"),
    sources: z.array(AnalyticsSource),
    totals: AnalyticsCounts,
  }),
);

export type LicenceAnalyticsData = z.infer<typeof LicenceAnalyticsResponse>;
export type AnalyticsSourceRow = z.infer<typeof AnalyticsSource>;
export type AnalyticsCountsData = z.infer<typeof AnalyticsCounts>;

/** The licence page's CSV link, for the period the page shows. */
export function analyticsCsvHref(licenceId: string, days?: number) {
  return `/licences/${licenceId}/analytics.csv${days ? `?days=${days}` : ""}`;
}
