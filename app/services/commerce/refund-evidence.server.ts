import { prisma } from "~/lib/db.server.ts";
import { getRefundRequest } from "./refund-admin.server.ts";
import { REFUND_WINDOW_DAYS, refundWindowEnd } from "./refunds.server.ts";
import { describeSubscription } from "./subscriptions.server.ts";
import { utcDay } from "../analytics/playback-events.server.ts";
import { downloadedFileCount } from "../media/package-delivery.server.ts";

// What a refund would take back, beside the request (/admin/refunds/{id} and
// GET /api/admin/refund-requests/{id}): the licence the payment bought, what was downloaded under
// it since the payment (files are the buyer's to keep), its plays on the clinic's sites and
// patient links, its embeds and links, and whether the request came inside the refund window.
// A handful of aggregate queries, whatever the licence's history: nothing here is per row.

/** The most downloaded files listed by name; the count covers them all. */
const MAX_FILES_LISTED = 50;

type DownloadedFile = { animationTitle: string; file: string; times: number; bytes: number; complete: boolean; firstAt: Date; lastAt: Date };

/** The request with what its refund would take back; null for an unknown id. */
export async function getRefundCase(id: string, now = new Date()) {
  const request = await getRefundRequest(id);
  if (!request) return null;
  const payment = await prisma.payment.findUniqueOrThrow({
    where: { id: request.paymentId },
    select: {
      createdAt: true,
      subscription: {
        select: {
          id: true,
          type: true,
          status: true,
          startDate: true,
          endDate: true,
          seats: true,
          category: { select: { name: true } },
          animation: { select: { title: true } },
          practice: { select: { legalName: true } },
          embedDomains: { select: { host: true }, orderBy: { host: "asc" } },
        },
      },
    },
  });
  const paidAt = payment.createdAt;
  const windowEndsAt = refundWindowEnd(paidAt);
  const window = {
    days: REFUND_WINDOW_DAYS,
    paidAt,
    endsAt: windowEndsAt,
    requestedAt: request.createdAt,
    requestedWithin: request.createdAt.getTime() <= windowEndsAt.getTime(),
    openNow: now.getTime() <= windowEndsAt.getTime(),
  };
  const licence = payment.subscription;
  if (!licence) return { request, evidence: { window, licence: null } };

  const [downloads, plays, embedPlays, links] = await Promise.all([
    downloadsSince(licence.id, paidAt),
    playsSince(licence.id, paidAt, now),
    prisma.embedPlay.groupBy({ by: ["host"], where: { subscriptionId: licence.id }, _sum: { plays: true } }),
    prisma.$queryRaw<{ created: number; sent: number; opened: number; completed: number }[]>`
      SELECT count(*)::int AS "created", (count(*) FILTER (WHERE "sentAt" IS NOT NULL))::int AS "sent",
        (count(*) FILTER (WHERE "firstOpenedAt" IS NOT NULL))::int AS "opened", (count(*) FILTER (WHERE "completedAt" IS NOT NULL))::int AS "completed"
      FROM "PatientLink" WHERE "subscriptionId" = ${licence.id}::uuid AND "createdAt" >= ${paidAt}`,
  ]);

  // The sites it may be embedded on, each with its plays, then hosts that played it without being listed now.
  const playsByHost = new Map(embedPlays.map((row) => [row.host, row._sum.plays ?? 0]));
  const embeds = licence.embedDomains.map(({ host }) => ({ host, allowed: true, plays: playsByHost.get(host) ?? 0 }));
  for (const [host, count] of playsByHost) if (!licence.embedDomains.some((d) => d.host === host)) embeds.push({ host, allowed: false, plays: count });

  return {
    request,
    evidence: {
      window,
      licence: {
        id: licence.id,
        label: describeSubscription(licence),
        type: licence.type,
        status: licence.status,
        startDate: licence.startDate,
        endDate: licence.endDate,
        practiceName: licence.practice?.legalName ?? null,
        seats: licence.seats,
      },
      downloads,
      plays,
      embeds: { sites: embeds, plays: embeds.reduce((sum, e) => sum + e.plays, 0) },
      patientLinks: links[0] ?? { created: 0, sent: 0, opened: 0, completed: 0 },
    },
  };
}

export type RefundCase = NonNullable<Awaited<ReturnType<typeof getRefundCase>>>;

/** Each file downloaded under the licence since `since` (a package counts as one file), newest first: one grouped query. */
async function downloadsSince(licenceId: string, since: Date) {
  // The count is the one the approval is confirmed against (downloadedFileCount), not a second copy of it.
  const [files, rows] = await Promise.all([
    downloadedFileCount(licenceId, since),
    prisma.$queryRaw<(DownloadedFile & { bytes: bigint; downloads: number })[]>`
    SELECT coalesce(a."title", '(deleted animation)') AS "animationTitle", d."file", count(*)::int AS "times", sum(d."bytes")::bigint AS "bytes",
      bool_or(d."complete") AS "complete", min(d."createdAt") AS "firstAt", max(d."createdAt") AS "lastAt",
      (sum(count(*)) OVER ())::int AS "downloads"
    FROM "Download" d LEFT JOIN "Animation" a ON a."id" = d."animationId"
    WHERE d."subscriptionId" = ${licenceId}::uuid AND d."createdAt" >= ${since}
    GROUP BY d."animationId", a."title", d."file"
    ORDER BY max(d."createdAt") DESC
    LIMIT ${MAX_FILES_LISTED}`,
  ]);
  return {
    since,
    files,
    downloads: rows[0]?.downloads ?? 0,
    listed: rows.map(({ downloads: _downloads, bytes, ...row }) => ({ ...row, bytes: Number(bytes) })),
  };
}

/**
 * The licence's plays on its embeds ("site") and patient links ("link") since the payment's UTC
 * day: days before today from the rollup, today from its events (as the licence's analytics do).
 * A member's own viewing on /watch is not recorded per licence, so it is not among them.
 */
async function playsSince(licenceId: string, since: Date, now: Date) {
  const todayStart = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
  const fromDay = utcDay(since);
  const [past, today] = await Promise.all([
    prisma.$queryRaw<{ sourceKind: string; plays: number }[]>`
      SELECT "sourceKind", sum("plays")::int AS "plays" FROM "PlaybackDaily"
      WHERE "subscriptionId" = ${licenceId}::uuid AND "day" >= ${fromDay}::date AND "day" < ${utcDay(todayStart)}::date
      GROUP BY "sourceKind"`,
    prisma.$queryRaw<{ sourceKind: string; plays: number }[]>`
      SELECT "sourceKind", count(DISTINCT "playId")::int AS "plays" FROM "PlaybackEvent"
      WHERE "subscriptionId" = ${licenceId}::uuid AND "at" >= ${todayStart}
      GROUP BY "sourceKind"`,
  ]);
  const sum = (kind: string) => [...past, ...today].filter((row) => row.sourceKind === kind).reduce((total, row) => total + row.plays, 0);
  return { fromDay, site: sum("site"), link: sum("link"), total: sum("site") + sum("link") };
}
