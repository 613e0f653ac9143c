import { Prisma } from "~/generated/prisma/client.ts";
import { prisma } from "~/lib/db.server.ts";
import { getSetting, settingNumber } from "../site/settings.server.ts";

// The playback rollup job (queue playback-rollup, every ten minutes): PlaybackEvent becomes one
// PlaybackDaily row per UTC day, licence, animation and source; then events older than the
// retention setting and day salts older than yesterday are deleted. Idempotent: each (day,
// licence) the new events touch is recomputed whole from its events, never incremented, so a
// run repeated, retried after a crash or racing a late commit gives the same numbers.

/** Days of raw events kept when the admin set none (setting analytics_retention_days). */
export const DEFAULT_RETENTION_DAYS = 90;

/**
 * Events committed after the run that read past their id (ids are taken at insert, committed a
 * moment later) are picked up by the next run through their time instead: everything this
 * recent is looked at again.
 */
const LATE_COMMIT_MS = 5 * 60 * 1000;

const DAY_MS = 24 * 60 * 60 * 1000;

export type PlaybackDailyRow = {
  day: string;
  animationId: string;
  sourceKind: "site" | "link";
  source: string;
  plays: number;
  viewers: number;
  watchedSum: number;
  reached25: number;
  reached50: number;
  reached75: number;
  reached100: number;
};

/**
 * How events become a day's numbers, in one place for the job and for the live numbers of today
 * (licence-analytics.server.ts). A play is one play id: its furthest fraction is what it watched,
 * and its highest quartile event what it reached (a repeated beacon changes neither). Its
 * viewer is the hash of its events (one per play: the hash is per day, address and browser).
 */
export function dailyRowsSql(events: Prisma.Sql) {
  return Prisma.sql`
    SELECT to_char(p."day", 'YYYY-MM-DD') AS "day", p."subscriptionId"::text AS "subscriptionId", p."animationId"::text AS "animationId",
      p."sourceKind", p."source",
      count(*)::int AS "plays",
      count(DISTINCT p."viewer")::int AS "viewers",
      coalesce(sum(p."watched"), 0)::float8 AS "watchedSum",
      (count(*) FILTER (WHERE p."reached" >= 1))::int AS "reached25",
      (count(*) FILTER (WHERE p."reached" >= 2))::int AS "reached50",
      (count(*) FILTER (WHERE p."reached" >= 3))::int AS "reached75",
      (count(*) FILTER (WHERE p."reached" >= 4))::int AS "reached100"
    FROM (
      SELECT e."at"::date AS "day", e."subscriptionId", e."animationId", e."sourceKind", e."source", e."playId",
        min(e."viewerHash") AS "viewer",
        max(e."fraction")::float8 AS "watched",
        max(CASE e."kind" WHEN 'q25' THEN 1 WHEN 'q50' THEN 2 WHEN 'q75' THEN 3 WHEN 'q100' THEN 4 ELSE 0 END) AS "reached"
      FROM "PlaybackEvent" e
      WHERE ${events}
      GROUP BY 1, 2, 3, 4, 5, 6
    ) p
    GROUP BY p."day", p."subscriptionId", p."animationId", p."sourceKind", p."source"`;
}

export async function getRetentionDays() {
  return Math.floor(settingNumber(await getSetting("analytics_retention_days"), DEFAULT_RETENTION_DAYS));
}

/** One run of the job; returns what it did, for the log. */
export async function rollUpPlaybackEvents(now = new Date()) {
  const aggregated = await prisma.$transaction(
    async (tx) => {
      await tx.$executeRaw`INSERT INTO "PlaybackRollupMark" ("id", "lastEventId", "updatedAt") VALUES (1, 0, TIMESTAMP 'epoch') ON CONFLICT ("id") DO NOTHING`;
      // Locked: two runs (a retry beside a late one) take turns instead of racing on the rows.
      const [mark] = await tx.$queryRaw<{ lastEventId: bigint; updatedAt: Date }[]>`
        SELECT "lastEventId", "updatedAt" FROM "PlaybackRollupMark" WHERE "id" = 1 FOR UPDATE`;
      const [{ maxId }] = (await tx.$queryRaw<{ maxId: bigint }[]>`SELECT coalesce(max("id"), 0)::bigint AS "maxId" FROM "PlaybackEvent"`) as [
        { maxId: bigint },
      ];
      const since = new Date(new Date(mark!.updatedAt).getTime() - LATE_COMMIT_MS);
      const touched = await tx.$queryRaw<{ day: string; subscriptionId: string }[]>`
        SELECT DISTINCT to_char("at"::date, 'YYYY-MM-DD') AS "day", "subscriptionId"::text AS "subscriptionId" FROM "PlaybackEvent"
        WHERE "id" <= ${maxId} AND ("id" > ${mark!.lastEventId} OR "at" >= ${since})`;
      for (const { day, subscriptionId } of touched) {
        const start = new Date(`${day}T00:00:00Z`);
        const end = new Date(start.getTime() + DAY_MS);
        await tx.$executeRaw`DELETE FROM "PlaybackDaily" WHERE "day" = ${day}::date AND "subscriptionId" = ${subscriptionId}::uuid`;
        await tx.$executeRaw`
          INSERT INTO "PlaybackDaily" ("day", "subscriptionId", "animationId", "sourceKind", "source", "plays", "viewers", "watchedSum",
            "reached25", "reached50", "reached75", "reached100")
          SELECT r."day"::date, r."subscriptionId"::uuid, r."animationId"::uuid, r."sourceKind", r."source", r."plays", r."viewers", r."watchedSum",
            r."reached25", r."reached50", r."reached75", r."reached100"
          FROM (${dailyRowsSql(Prisma.sql`e."subscriptionId" = ${subscriptionId}::uuid AND e."at" >= ${start} AND e."at" < ${end}`)}) r`;
      }
      await tx.$executeRaw`UPDATE "PlaybackRollupMark" SET "lastEventId" = ${maxId}, "updatedAt" = ${now} WHERE "id" = 1`;
      return touched.length;
    },
    { timeout: 5 * 60 * 1000, maxWait: 30 * 1000 },
  );

  // Retention: whole UTC days, so a day being recomputed never loses part of its events.
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  const cutoff = new Date(today - (await getRetentionDays()) * DAY_MS);
  const deletedEvents = await prisma.$executeRaw`DELETE FROM "PlaybackEvent" WHERE "at" < ${cutoff}`;
  // Yesterday's salt stays for the plays that cross midnight; older ones go, and with them any
  // way to link a hash to an address.
  const deletedSalts = await prisma.$executeRaw`DELETE FROM "PlaybackDaySalt" WHERE "day" < ${new Date(today - DAY_MS).toISOString().slice(0, 10)}::date`;
  // No foreign key (the events' writer must not wait on the licence's row): a deleted licence's
  // numbers go here.
  const orphans = await prisma.$executeRaw`
    DELETE FROM "PlaybackDaily" d WHERE NOT EXISTS (SELECT 1 FROM "Subscription" s WHERE s."id" = d."subscriptionId")`;
  return { aggregatedDays: aggregated, deletedEvents, deletedSalts, deletedOrphans: orphans };
}

/** When the rollup last ran (null: never). */
export async function lastRollupAt(): Promise<Date | null> {
  const mark = await prisma.playbackRollupMark.findUnique({ where: { id: 1 }, select: { updatedAt: true } });
  return mark && mark.updatedAt.getTime() > 0 ? mark.updatedAt : null;
}
