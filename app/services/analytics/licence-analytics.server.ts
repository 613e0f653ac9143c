import { Prisma } from "~/generated/prisma/client.ts";
import { prisma } from "~/lib/db.server.ts";
import { notFound } from "~/lib/errors.server.ts";
import type { AnalyticsCountsData, AnalyticsSourceRow, LicenceAnalyticsData } from "~/validation/playback-analytics.ts";
import { LICENCE_NOT_FOUND } from "../licensing/embeds.server.ts";
import { mayHaveRecord } from "../practices/practices.server.ts";
import { dailyRowsSql, lastRollupAt, type PlaybackDailyRow } from "./playback-rollup.server.ts";
import { utcDay } from "./playback-events.server.ts";

// What the clinic learns (issue 46): a licence's plays per day and per source (its sites and
// patient links), for the licence page, its CSV and GET /api/licences/{id}/analytics, which all
// show these numbers and no others. Days before today come from the rollup; today is counted
// from its events as the page asks (one licence's day, on its index), so a play shows at once.

export type AnalyticsViewer = { id: string; role: "user" | "admin" };

/** The most sources a licence's table lists: its sites (at most 5) and its busiest patient links. */
const MAX_SOURCES = 500;
const DAY_MS = 24 * 60 * 60 * 1000;

type Sums = Omit<PlaybackDailyRow, "day" | "animationId" | "sourceKind" | "source">;

const zero = (): Sums => ({ plays: 0, viewers: 0, watchedSum: 0, reached25: 0, reached50: 0, reached75: 0, reached100: 0 });

function add(into: Sums, row: Sums) {
  into.plays += row.plays;
  into.viewers += row.viewers;
  into.watchedSum += row.watchedSum;
  into.reached25 += row.reached25;
  into.reached50 += row.reached50;
  into.reached75 += row.reached75;
  into.reached100 += row.reached100;
}

function counts(sums: Sums): AnalyticsCountsData {
  const { watchedSum, ...rest } = sums;
  return { ...rest, averageWatched: sums.plays ? Math.round((watchedSum / sums.plays) * 10_000) / 10_000 : 0 };
}

const sumColumns = Prisma.sql`sum("plays")::int AS "plays", sum("viewers")::int AS "viewers", sum("watchedSum")::float8 AS "watchedSum",
  sum("reached25")::int AS "reached25", sum("reached50")::int AS "reached50", sum("reached75")::int AS "reached75", sum("reached100")::int AS "reached100"`;

/**
 * A licence's analytics over the last `days` UTC days, today included. For its holder, a member
 * of the practice that holds it, or an admin; anyone else (and an unknown id) gets "License not
 * found", so ids cannot be probed.
 */
export async function loadLicenceAnalytics(
  viewer: AnalyticsViewer,
  licenceId: string,
  { days = 30 }: { days?: number } = {},
  now = new Date(),
): Promise<LicenceAnalyticsData> {
  const licence = /^[0-9a-f-]{36}$/i.test(licenceId)
    ? await prisma.subscription.findUnique({ where: { id: licenceId }, select: { id: true, type: true, userId: true, practiceId: true } })
    : null;
  if (!licence || (licence.type !== "individual" && licence.type !== "category") || !(await mayHaveRecord(viewer, licence, "use"))) {
    throw notFound(LICENCE_NOT_FOUND);
  }
  const span = Math.min(365, Math.max(1, Math.floor(days)));
  const todayStart = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
  const from = new Date(todayStart.getTime() - (span - 1) * DAY_MS);
  const today = utcDay(todayStart);

  const [pastDays, pastSources, todayRows, updatedAt] = await Promise.all([
    prisma.$queryRaw<(Sums & { day: string })[]>`
      SELECT to_char("day", 'YYYY-MM-DD') AS "day", ${sumColumns} FROM "PlaybackDaily"
      WHERE "subscriptionId" = ${licence.id}::uuid AND "day" >= ${utcDay(from)}::date AND "day" < ${today}::date GROUP BY "day"`,
    prisma.$queryRaw<(Sums & { sourceKind: "site" | "link"; source: string })[]>`
      SELECT "sourceKind", "source", ${sumColumns} FROM "PlaybackDaily"
      WHERE "subscriptionId" = ${licence.id}::uuid AND "day" >= ${utcDay(from)}::date AND "day" < ${today}::date
      GROUP BY "sourceKind", "source" ORDER BY sum("plays") DESC LIMIT ${MAX_SOURCES}`,
    prisma.$queryRaw<PlaybackDailyRow[]>(dailyRowsSql(Prisma.sql`e."subscriptionId" = ${licence.id}::uuid AND e."at" >= ${todayStart}`)),
    lastRollupAt(),
  ]);

  const byDay = new Map<string, Sums>(pastDays.map(({ day, ...sums }) => [day, sums]));
  const bySource = new Map<string, Sums & { sourceKind: "site" | "link"; source: string }>();
  for (const row of pastSources) bySource.set(`${row.sourceKind}|${row.source}`, { ...row });
  const todaySums = zero();
  for (const row of todayRows) {
    add(todaySums, row);
    const key = `${row.sourceKind}|${row.source}`;
    const kept = bySource.get(key) ?? { ...zero(), sourceKind: row.sourceKind, source: row.source };
    add(kept, row);
    bySource.set(key, kept);
  }
  byDay.set(today, todaySums);

  const series: LicenceAnalyticsData["series"] = [];
  const totals = zero();
  for (let t = from.getTime(); t <= todayStart.getTime(); t += DAY_MS) {
    const day = utcDay(new Date(t));
    const sums = byDay.get(day) ?? zero();
    add(totals, sums);
    series.push({ day, plays: sums.plays, viewers: sums.viewers });
  }

  // Patient links show even before they are played: opened or not is the point.
  const playedLinkIds = [...bySource.values()].filter((s) => s.sourceKind === "link").map((s) => s.source);
  const links = await prisma.patientLink.findMany({
    where: { subscriptionId: licence.id, OR: [{ id: { in: playedLinkIds } }, { createdAt: { gte: from } }] },
    select: { id: true, label: true, expiresAt: true, revokedAt: true, firstOpenedAt: true, completedAt: true },
    orderBy: { createdAt: "desc" },
    take: MAX_SOURCES,
  });
  for (const link of links) {
    const key = `link|${link.id}`;
    if (!bySource.has(key)) bySource.set(key, { ...zero(), sourceKind: "link", source: link.id });
  }
  const linkById = new Map(links.map((link) => [link.id, link]));

  const sources: AnalyticsSourceRow[] = [...bySource.values()]
    .sort((a, b) => b.plays - a.plays || a.source.localeCompare(b.source))
    .slice(0, MAX_SOURCES)
    .map(({ sourceKind, source, ...sums }): AnalyticsSourceRow => {
      if (sourceKind === "site") return { kind: "site", host: source, ...counts(sums) };
      const link = linkById.get(source);
      return {
        kind: "link",
        linkId: source,
        label: link?.label || "Patient link",
        expiresAt: link?.expiresAt.toISOString() ?? null,
        revoked: Boolean(link?.revokedAt),
        openedAt: link?.firstOpenedAt?.toISOString() ?? null,
        completedAt: link?.completedAt?.toISOString() ?? null,
        ...counts(sums),
      };
    });

  return {
    licenceId: licence.id,
    days: span,
    from: utcDay(from),
    to: today,
    updatedAt: updatedAt?.toISOString() ?? null,
    series,
    sources,
    totals: counts(totals),
  };
}

// ---- CSV ----

/** A cell as spreadsheets read it safely: quoted, and a leading = + - @ defused (a label is the clinic's own text). */
function cell(value: string | number | null) {
  if (value === null) return "";
  let text = String(value);
  if (typeof value === "string" && /^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\n\r]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

const percent = (part: number, whole: number) => (whole ? Math.round((part / whole) * 1000) / 10 : 0);

/** The CSV of the licence page: the chart's days, then the table's sources, then the totals. */
export function formatAnalyticsCsv(data: LicenceAnalyticsData) {
  const header = [
    "row",
    "day",
    "source_kind",
    "source",
    "label",
    "plays",
    "unique_viewers",
    "average_watched_percent",
    "reached_25_percent",
    "reached_50_percent",
    "reached_75_percent",
    "reached_100_percent",
    "opened_at",
    "completed_at",
  ];
  const measures = (c: AnalyticsCountsData) => [
    c.plays,
    c.viewers,
    Math.round(c.averageWatched * 1000) / 10,
    percent(c.reached25, c.plays),
    percent(c.reached50, c.plays),
    percent(c.reached75, c.plays),
    percent(c.reached100, c.plays),
  ];
  const lines: (string | number | null)[][] = [header];
  for (const day of data.series) lines.push(["day", day.day, null, null, null, day.plays, day.viewers, null, null, null, null, null, null, null]);
  for (const source of data.sources) {
    if (source.kind === "site") lines.push(["source", null, "site", source.host, null, ...measures(source), null, null]);
    else lines.push(["source", null, "patient_link", source.linkId, source.label, ...measures(source), source.openedAt, source.completedAt]);
  }
  lines.push(["total", `${data.from}..${data.to}`, null, null, null, ...measures(data.totals), null, null]);
  return `${lines.map((line) => line.map(cell).join(",")).join("\r\n")}\r\n`;
}

export function analyticsCsvFilename(data: LicenceAnalyticsData) {
  return `licence-${data.licenceId.slice(0, 8)}-analytics-${data.from}-to-${data.to}.csv`;
}
