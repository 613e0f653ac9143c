import { prisma } from "~/lib/db.server.ts";
import { getEnv } from "~/lib/env.server.ts";
import { conflict, notFound, ServiceError, tooManyRequests } from "~/lib/errors.server.ts";
import { formatDateTime, pluralize } from "~/lib/format.ts";
import { logger } from "~/lib/logger.server.ts";
import { appUrl, sendTemplatedEmail } from "~/lib/mail.server.ts";
import { consumeRateLimit } from "~/lib/rate-limit.server.ts";
import { escapeHtml } from "~/lib/sanitize.server.ts";
import type { MisuseReportInput } from "~/validation/catalogue.ts";
export { REPORT_FAILED } from "~/validation/catalogue.ts";
import { MISUSE_STATUS_LABELS, MISUSE_STATUSES, type MisuseListQuery, type MisuseStatus, type MisuseStatusChange } from "~/validation/admin-misuse.ts";
import { NOT_FOUND } from "../catalogue/categories.server.ts";
import { type Actor, recordAudit } from "./audit.server.ts";

// Misuse reports (decision 033): the animation page's form and POST /api/report-misuse store
// them; the admins hear of new ones in an hourly digest, triage them in the inbox
// (/admin/misuse, GET/PUT /api/admin/misuse-reports) and reply to the reporter.

/** At most 10 misuse reports per address per hour: enough for people, not for scripts. */
export const MISUSE_REPORT_RULE = { limit: 10, windowMs: 60 * 60 * 1000 };

/** Where visitors write about misuse when the form fails them: ABUSE_EMAIL, else SUPPORT_EMAIL. */
export function abuseMailbox() {
  const env = getEnv();
  return env.ABUSE_EMAIL ?? env.SUPPORT_EMAIL;
}

/**
 * The failure toast's text (spec: 'Please try again or contact abuse@{host} directly.'), naming
 * the real mailbox; past the limit it says when to try again.
 */
export function reportFailedText(retryAfterSeconds?: number) {
  if (!retryAfterSeconds) return `Please try again or contact ${abuseMailbox()} directly.`;
  const minutes = Math.ceil(retryAfterSeconds / 60);
  return `Too many reports from your address. Please try again in ${minutes} minute${minutes === 1 ? "" : "s"} or contact ${abuseMailbox()} directly.`;
}

/**
 * How the inbox tells that two reports name the same page: no scheme, no "www.", no fragment,
 * no trailing slash, lower case. Migration 20261129171000 computes the same for older rows.
 */
export function linkKey(link: string | null | undefined) {
  if (!link) return null;
  const key = link
    .trim()
    .replace(/#.*$/, "")
    .replace(/^[a-zA-Z][a-zA-Z0-9+.-]*:\/\/(www\.)?/, "")
    .replace(/\/+$/, "")
    .toLowerCase();
  return key || null;
}

/**
 * Stores a report about an animation, from the detail page's form and POST /api/report-misuse
 * alike (one limit for both). An unknown animation id is a 404, not a dangling row.
 */
export async function createMisuseReport(input: MisuseReportInput, client: string) {
  const limit = await consumeRateLimit(`misuse-report:${client}`, MISUSE_REPORT_RULE);
  if (!limit.allowed) throw tooManyRequests(reportFailedText(limit.retryAfterSeconds), limit.retryAfterSeconds);
  let animation: { id: string; title: string } | null = null;
  if (input.animationId) {
    animation = await prisma.animation.findUnique({ where: { id: input.animationId }, select: { id: true, title: true } });
    if (!animation) throw notFound(NOT_FOUND.animation);
  }
  return prisma.misuseReport.create({
    data: {
      animationId: animation?.id ?? null,
      animationTitle: animation?.title ?? input.animationTitle ?? null,
      reporterEmail: input.reporterEmail.toLowerCase(),
      message: input.message,
      link: input.link ?? null,
      linkKey: linkKey(input.link),
    },
    select: { id: true },
  });
}

// ---- the inbox ----

const reportSelect = {
  id: true,
  animationId: true,
  animationTitle: true,
  animation: { select: { slug: true, title: true } },
  reporterEmail: true,
  message: true,
  link: true,
  linkKey: true,
  status: true,
  createdAt: true,
  updatedAt: true,
} as const;

type ReportRow = {
  id: string;
  animationId: string | null;
  animationTitle: string | null;
  animation: { slug: string; title: string } | null;
  reporterEmail: string;
  message: string;
  link: string | null;
  linkKey: string | null;
  status: string;
  createdAt: Date;
  updatedAt: Date;
};

const asStatus = (value: string) => ((MISUSE_STATUSES as readonly string[]).includes(value) ? (value as MisuseStatus) : "new");

function toInboxRow(row: ReportRow, similar: Map<string, number>) {
  return {
    id: row.id,
    animationId: row.animationId,
    // The animation's title now; the one it had when reported if it was deleted since.
    animationTitle: row.animation?.title ?? row.animationTitle,
    animationSlug: row.animation?.slug ?? null,
    reporterEmail: row.reporterEmail,
    message: row.message,
    link: row.link,
    linkKey: row.linkKey,
    status: asStatus(row.status),
    // Reports of the same link, this one included (1 when it stands alone or has no link).
    sameLinkCount: row.linkKey ? (similar.get(row.linkKey) ?? 1) : 1,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}

async function countByLink(keys: Array<string | null>) {
  const wanted = [...new Set(keys.filter((k): k is string => Boolean(k)))];
  if (wanted.length === 0) return new Map<string, number>();
  const groups = await prisma.misuseReport.groupBy({ by: ["linkKey"], where: { linkKey: { in: wanted } }, _count: { _all: true } });
  return new Map(groups.map((g) => [g.linkKey!, g._count._all]));
}

/** The inbox, newest first: filtered by state and by one link's group, a page at a time, with the total. */
export async function listMisuseReports(query: MisuseListQuery) {
  const where = { ...(query.status ? { status: query.status } : {}), ...(query.link ? { linkKey: linkKey(query.link) ?? query.link } : {}) };
  const [rows, total] = await Promise.all([
    prisma.misuseReport.findMany({
      where,
      select: reportSelect,
      orderBy: [{ createdAt: "desc" }, { id: "desc" }],
      skip: (query.page - 1) * query.limit,
      take: query.limit,
    }),
    prisma.misuseReport.count({ where }),
  ]);
  const similar = await countByLink(rows.map((r) => r.linkKey));
  return { reports: rows.map((row) => toInboxRow(row, similar)), total, page: query.page, limit: query.limit };
}

/** How many reports wait in a state (the dashboard's "New misuse reports"). */
export function countMisuseReports(status: MisuseStatus) {
  return prisma.misuseReport.count({ where: { status } });
}

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** One report for its page: the report, its history oldest first, and the other reports of its link. */
export async function getMisuseReport(id: string) {
  if (!UUID_RE.test(id)) return null;
  const row = await prisma.misuseReport.findUnique({ where: { id }, select: reportSelect });
  if (!row) return null;
  const [events, sameLink] = await Promise.all([
    prisma.misuseReportEvent.findMany({ where: { reportId: id }, orderBy: [{ createdAt: "asc" }, { id: "asc" }] }),
    row.linkKey
      ? prisma.misuseReport.findMany({
          where: { linkKey: row.linkKey, id: { not: id } },
          select: { id: true, reporterEmail: true, status: true, createdAt: true },
          orderBy: [{ createdAt: "desc" }, { id: "desc" }],
          take: 20,
        })
      : [],
  ]);
  const similar = new Map(row.linkKey ? [[row.linkKey, sameLink.length + 1]] : []);
  return {
    report: toInboxRow(row, similar),
    history: events.map((e) => ({
      id: e.id,
      kind: e.kind === "reply" ? ("reply" as const) : ("status" as const),
      fromStatus: e.fromStatus ? asStatus(e.fromStatus) : null,
      toStatus: e.toStatus ? asStatus(e.toStatus) : null,
      note: e.note,
      actorEmail: e.actorEmail,
      createdAt: e.createdAt,
    })),
    sameLink: sameLink.map((r) => ({ ...r, status: asStatus(r.status) })),
  };
}

const REPORT_NOT_FOUND = "Misuse report not found";

/**
 * Moves a report to another state with the admin's note: the report, its history and the audit
 * log change together. Moving to the state it is in is refused (409), so the history holds changes only.
 */
export async function changeMisuseStatus(actor: Actor, id: string, change: MisuseStatusChange) {
  if (!UUID_RE.test(id)) throw notFound(REPORT_NOT_FOUND);
  await prisma.$transaction(async (tx) => {
    const report = await tx.misuseReport.findUnique({ where: { id }, select: { status: true, animationTitle: true, reporterEmail: true } });
    if (!report) throw notFound(REPORT_NOT_FOUND);
    const from = asStatus(report.status);
    if (from === change.status) throw conflict(`This report is already ${MISUSE_STATUS_LABELS[from]}`, "status");
    // Only from the state read above: two admins changing it at once cannot both write a "from".
    const moved = await tx.misuseReport.updateMany({ where: { id, status: from }, data: { status: change.status } });
    if (moved.count !== 1) throw conflict("This report was changed meanwhile: reload it", "status");
    await tx.misuseReportEvent.create({
      data: { reportId: id, kind: "status", fromStatus: from, toStatus: change.status, note: change.note, actorId: actor.id, actorEmail: actor.email },
    });
    await recordAudit(tx, actor, {
      action: "misuse_report.status",
      entityType: "misuse_report",
      entityId: id,
      summary: `Marked the misuse report by ${report.reporterEmail}${report.animationTitle ? ` on “${report.animationTitle}”` : ""} ${MISUSE_STATUS_LABELS[change.status]}: ${change.note}`,
      before: { status: from },
      after: { status: change.status, note: change.note },
    });
  });
  // Read after the commit: on the embedded database a read outside the transaction would wait for it.
  const row = await prisma.misuseReport.findUniqueOrThrow({ where: { id }, select: reportSelect });
  return toInboxRow(row, await countByLink([row.linkKey]));
}

/**
 * Replies to the reporter in the misuse_reply template. The mail goes first: a reply that could
 * not be sent is not recorded as sent (502, the admin tries again); a sent one enters the
 * history and the audit log together.
 */
export async function replyToReporter(actor: Actor, id: string, reply: string) {
  if (!UUID_RE.test(id)) throw notFound(REPORT_NOT_FOUND);
  const report = await prisma.misuseReport.findUnique({ where: { id }, select: reportSelect });
  if (!report) throw notFound(REPORT_NOT_FOUND);
  const title = report.animation?.title ?? report.animationTitle ?? "an animation";
  const sent = await sendTemplatedEmail({
    template: "misuse_reply",
    to: report.reporterEmail,
    variables: {
      animationTitle: title,
      reportedOn: formatDateTime(report.createdAt),
      reportedLink: report.link ?? "(no link given)",
      replyHtml: `<p>${escapeHtml(reply).replace(/\n/g, "<br>")}</p>`,
    },
  });
  if (!sent) throw new ServiceError("The reply could not be sent. Please try again.", 502);
  await prisma.$transaction(async (tx) => {
    await tx.misuseReportEvent.create({ data: { reportId: id, kind: "reply", note: reply, actorId: actor.id, actorEmail: actor.email } });
    await recordAudit(tx, actor, {
      action: "misuse_report.reply",
      entityType: "misuse_report",
      entityId: id,
      summary: `Replied to ${report.reporterEmail} about their misuse report on “${title}”`,
      after: { reply },
    });
  });
}

// ---- the admins' digest ----

/** Reports one digest lists at most; the rest wait for the next hour. */
export const DIGEST_LIMIT = 200;

/** Who hears of new reports: every active admin account, and ABUSE_EMAIL when it is set. */
async function digestRecipients() {
  const admins = await prisma.user.findMany({ where: { role: "admin", isActive: true }, select: { email: true } });
  const extra = getEnv().ABUSE_EMAIL;
  return [...new Set([...admins.map((a) => a.email.toLowerCase()), ...(extra ? [extra.toLowerCase()] : [])])];
}

/**
 * The hourly digest of reports no digest has listed yet. The reports are claimed first, in one
 * statement (`digestedAt` set where it was null): a second run, on another instance or retried,
 * finds none and sends nothing. If no recipient could be mailed, the claim is given back and the
 * job fails, so pg-boss retries it; once one mail has gone, the claim stands.
 */
export async function sendMisuseDigest(now = new Date()) {
  const claimed = await prisma.$queryRaw<Array<{ id: string }>>`
    UPDATE "MisuseReport" SET "digestedAt" = ${now}
    WHERE "id" IN (
      SELECT "id" FROM "MisuseReport" WHERE "digestedAt" IS NULL
      ORDER BY "createdAt" LIMIT ${DIGEST_LIMIT} FOR UPDATE SKIP LOCKED
    ) AND "digestedAt" IS NULL
    RETURNING "id"`;
  if (claimed.length === 0) return { reports: 0, sent: 0 };
  const ids = claimed.map((row) => row.id);
  const rows = await prisma.misuseReport.findMany({ where: { id: { in: ids } }, select: reportSelect, orderBy: [{ createdAt: "asc" }, { id: "asc" }] });
  const recipients = await digestRecipients();
  const inbox = `${appUrl()}/admin/misuse`;
  const items = rows
    .map((row) => {
      const title = row.animation?.title ?? row.animationTitle ?? "(no animation)";
      const link = row.link ? ` · <a href="${escapeHtml(row.link)}">${escapeHtml(row.link)}</a>` : "";
      return `<li><a href="${inbox}/${row.id}">${escapeHtml(title)}</a> (${MISUSE_STATUS_LABELS[asStatus(row.status)]}) · ${escapeHtml(row.reporterEmail)} · ${formatDateTime(row.createdAt)}${link}<br>${escapeHtml(row.message.slice(0, 300))}</li>`;
    })
    .join("");
  const summary = pluralize(rows.length, "new misuse report");
  let sent = 0;
  for (const to of recipients) {
    if (await sendTemplatedEmail({ template: "misuse_digest", to, variables: { summary, reportsHtml: `<ul>${items}</ul>`, inboxUrl: `${inbox}?status=new` } }))
      sent++;
  }
  if (sent === 0 && recipients.length > 0) {
    await prisma.misuseReport.updateMany({ where: { id: { in: ids }, digestedAt: now }, data: { digestedAt: null } });
    throw new Error(`The misuse digest could not be sent to any of ${recipients.length} recipients`);
  }
  if (recipients.length === 0) logger.warn({ reports: rows.length }, "misuse digest: no admin account and no ABUSE_EMAIL to send it to");
  return { reports: rows.length, sent };
}
