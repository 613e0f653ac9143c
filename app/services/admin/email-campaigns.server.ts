import { setTimeout as sleep } from "node:timers/promises";
import { signatureMatches, signValue } from "~/lib/crypto.server.ts";
import { prisma } from "~/lib/db.server.ts";
import { getEnv } from "~/lib/env.server.ts";
import { notFound, ServiceError } from "~/lib/errors.server.ts";
import { logger } from "~/lib/logger.server.ts";
import { appUrl, deliver, type MailMessage, openMailBurst, renderTemplate, unsubscribeFooter, unsubscribeHeaders } from "~/lib/mail.server.ts";
import { sanitizeHtml } from "~/lib/sanitize.server.ts";
import type { Prisma } from "~/generated/prisma/client.ts";
import { UUID_RE } from "~/validation/account.ts";
import {
  type BulkEmailInput,
  type CampaignKind,
  plainTextFromHtml,
  UNSUBSCRIBE_KIND_LABELS,
  UNSUBSCRIBE_KINDS,
  type UnsubscribeKind,
} from "~/validation/admin-email.ts";
import { type Actor, recordAudit } from "./audit.server.ts";
import { audienceOf, audienceRowsSql, NO_RECIPIENTS, PREFERENCE, reachableSql, resolveFilters } from "./campaign-audience.server.ts";

// Bulk e-mail campaigns. Starting one resolves its recipients once (the audience rule of
// campaign-audience.server.ts, which the form's count reads too), in the same
// transaction as the campaign row, into one EmailLog row each ('pending'); blocked accounts,
// blocked addresses and users who turned that kind of mail off are left out and counted as
// skipped. The campaign job (jobs.server.ts, queue "email-campaign") then sends the pending
// rows in batches at MAIL_RATE_PER_SECOND. A row is claimed ('sending') before its message goes
// out and marked 'sent' or 'failed' after; a run that dies leaves its claimed rows, which the
// next run marks failed instead of sending again: nobody gets a campaign twice.

export const CAMPAIGN_NOT_FOUND = "Campaign not found";
export const INTERRUPTED = "Interrupted while sending; not sent again so that nobody gets it twice";
export const UNSUBSCRIBED_MEANWHILE = "Unsubscribed or blocked before the campaign reached them";
export const BULK_SEND_FAILED = "Failed to send bulk emails";
export const CANCELED_BEFORE_SENDING = "Campaign canceled before this message was sent";
export const CAMPAIGN_OVER = "This campaign has already ended";
export const recipientsChanged = (now: number) => `The recipients changed since they were counted: ${now} now. Check the count and confirm again.`;

// ---- unsubscribe links ----

function unsubscribeSignature(userId: string, kind: UnsubscribeKind) {
  return signValue(`unsubscribe:${userId}:${kind}`, getEnv().SESSION_SECRET);
}

/** The one-click link of a campaign's or reminder's mail: it works without signing in, for this user and kind only. */
export function unsubscribeUrl(userId: string, kind: UnsubscribeKind) {
  const params = new URLSearchParams({ u: userId, k: kind, t: unsubscribeSignature(userId, kind) });
  return `${appUrl()}/unsubscribe?${params}`;
}

export type UnsubscribeLink = { userId: string; kind: UnsubscribeKind };

/** The user and kind a link names, or null when it was not made by us (or was altered). */
export function readUnsubscribeLink(params: URLSearchParams): UnsubscribeLink | null {
  const userId = params.get("u") ?? "";
  const kind = params.get("k") ?? "";
  const signature = params.get("t") ?? "";
  if (!UUID_RE.test(userId) || !(UNSUBSCRIBE_KINDS as readonly string[]).includes(kind)) return null;
  if (!signatureMatches(`unsubscribe:${userId}:${kind}`, signature, getEnv().SESSION_SECRET)) return null;
  return { userId, kind: kind as UnsubscribeKind };
}

/** Turns the matching preference off (RFC 8058 one-click, or the page's button). Idempotent. */
export async function unsubscribe({ userId, kind }: UnsubscribeLink) {
  const column = PREFERENCE[kind].column;
  const user = await prisma.user.findUnique({ where: { id: userId }, select: { email: true } });
  if (!user) return null;
  await prisma.notificationPreferences.upsert({
    where: { userId },
    create: { userId, [column]: false },
    update: { [column]: false },
  });
  return { email: user.email, label: UNSUBSCRIBE_KIND_LABELS[kind] };
}

// ---- composing ----

function campaignHtml(html: string, link: string | null) {
  return link ? `${html}${unsubscribeFooter(link)}` : html;
}

function recipientVariables(recipient: { email: string; firstName?: string | null; lastName?: string | null }) {
  return { firstName: recipient.firstName ?? "", lastName: recipient.lastName ?? "", email: recipient.email, platformName: "Medanim", appUrl: appUrl() };
}

/** Sends the campaign once to a test address, its subject prefixed with [TEST]; logged. */
export async function sendTestEmail(actor: Actor, input: BulkEmailInput & { testEmail: string }) {
  const html = sanitizeHtml(input.html);
  const subject = `[TEST] ${input.subject}`;
  const variables = recipientVariables({ email: input.testEmail, firstName: "Test", lastName: "Recipient" });
  let status: "sent" | "failed" = "sent";
  let errorMessage: string | null = null;
  try {
    const body = renderTemplate(html, variables, true);
    await deliver({ to: input.testEmail, subject: renderTemplate(subject, variables, false), html: campaignHtml(body, null), text: plainTextFromHtml(body) });
  } catch (error) {
    status = "failed";
    errorMessage = error instanceof Error ? error.message : String(error);
    logger.error({ err: error }, "test e-mail failed");
  }
  await prisma.$transaction(async (tx) => {
    await tx.emailLog.create({ data: { toEmail: input.testEmail, subject, status, errorMessage } });
    await recordAudit(tx, actor, {
      action: "email.test",
      entityType: "email_campaign",
      entityId: input.testEmail,
      summary: `Sent a test of “${input.subject}” to ${input.testEmail}${status === "failed" ? " (failed)" : ""}`,
    });
  });
  return { sent: status === "sent" ? 1 : 0, failed: status === "failed" ? 1 : 0, errorMessage };
}

// ---- starting ----

/**
 * Creates the campaign and its recipients' log rows in one transaction, then hands it to the
 * job queue (the caller's `enqueue`, after the commit). Returns the campaign as queued.
 */
export async function startCampaign(actor: Actor, input: BulkEmailInput, enqueue: (campaignId: string) => Promise<unknown>) {
  if (!input.userIds && !input.targetGroup) throw new ServiceError(NO_RECIPIENTS, 400, "targetGroup");
  const rule = audienceOf(input);
  const filters = await resolveFilters(input.filters);
  const html = sanitizeHtml(input.html);
  const campaign = await prisma.$transaction(async (tx) => {
    const row = await tx.emailCampaign.create({
      data: {
        subject: input.subject,
        htmlContent: html,
        textContent: plainTextFromHtml(html),
        audience: rule.group,
        audienceFilters: filters ?? undefined,
        kind: input.kind,
        createdById: actor.id,
        createdByEmail: actor.email,
      },
    });
    const [counts] = await tx.$queryRaw<{ queued: bigint; audience: bigint }[]>`
      WITH audience AS (${audienceRowsSql(rule, input.kind)}), queued AS (
        INSERT INTO "EmailLog" ("id", "userId", "toEmail", "subject", "status", "sentAt", "campaignId")
        SELECT gen_random_uuid(), id, email, ${input.subject}, 'pending', now(), ${row.id}::uuid FROM audience WHERE ok
        RETURNING 1
      )
      SELECT (SELECT count(*) FROM queued) AS queued, (SELECT count(*) FROM audience) AS audience`;
    const queued = Number(counts?.queued ?? 0);
    const skipped = Number(counts?.audience ?? 0) - queued;
    // The admin confirmed a count: a different one (people joined, left or opted out since) is
    // shown again rather than sent, and this transaction's rows are rolled back.
    if (input.expectedRecipients !== undefined && input.expectedRecipients !== queued)
      throw new ServiceError(recipientsChanged(queued), 409, "expectedRecipients");
    if (!queued)
      throw new ServiceError(
        skipped ? `No recipients: all ${skipped} of them are blocked or opted out of this kind of mail` : NO_RECIPIENTS,
        400,
        input.userIds ? "recipients" : "targetGroup",
      );
    const updated = await tx.emailCampaign.update({ where: { id: row.id }, data: { total: queued, skipped } });
    await recordAudit(tx, actor, {
      action: "email_campaign.start",
      entityType: "email_campaign",
      entityId: row.id,
      summary: `Started campaign “${input.subject}” to ${queued} recipients (${skipped} skipped)`,
      after: { audience: rule.group, ...(filters ? { filters } : {}), kind: input.kind, total: queued, skipped },
    });
    return updated;
  });
  await enqueue(campaign.id);
  return campaign;
}

// ---- sending (the job) ----

type Claimed = { id: string; userId: string | null; toEmail: string; firstName: string | null; lastName: string | null; ok: boolean };

type RunOptions = { rate?: number; signal?: AbortSignal; maxMs?: number };

/** Messages in flight at once, each on one of as many pooled SMTP connections. */
const SEND_CONCURRENCY = 5;

/**
 * Sends a campaign's pending rows. Runs as the campaign's job: one run at a time per campaign
 * (the queue's singleton policy, keyed by campaign), resumed by the queue after a restart.
 * `rate` is messages per second; `signal` (shutdown) or `maxMs` (the job's slice) end a run
 * between batches, leaving the rest pending. Returns whether rows are left to send.
 */
export async function runCampaign(campaignId: string, { rate = getEnv().MAIL_RATE_PER_SECOND, signal, maxMs = Infinity }: RunOptions = {}) {
  const campaign = await prisma.emailCampaign.findUnique({ where: { id: campaignId } });
  if (!campaign || campaign.status === "finished" || campaign.status === "canceled") return false;
  const kind = campaign.kind as CampaignKind;

  // Rows a dead run had claimed: their message may or may not have gone out.
  const interrupted = await prisma.$transaction(async (tx) => {
    const count = await tx.emailLog.updateMany({ where: { campaignId, status: "sending" }, data: { status: "failed", errorMessage: INTERRUPTED } });
    await tx.emailCampaign.update({
      where: { id: campaignId },
      data: { status: "sending", startedAt: campaign.startedAt ?? new Date(), failed: { increment: count.count } },
    });
    return count.count;
  });
  if (interrupted) logger.warn({ campaignId, interrupted }, "campaign resumed after an interruption");

  const batchSize = Math.max(1, Math.min(50, Math.ceil(rate)));
  const started = Date.now();
  let handled = 0;
  const mailer = openMailBurst(SEND_CONCURRENCY);
  try {
    while (!signal?.aborted && Date.now() - started < maxMs) {
      const batch = await prisma.$queryRaw<Claimed[]>`
        WITH claimed AS (
          UPDATE "EmailLog" SET "status" = 'sending', "sentAt" = now()
          WHERE id IN (SELECT id FROM "EmailLog" WHERE "campaignId" = ${campaignId}::uuid AND "status" = 'pending' ORDER BY id LIMIT ${batchSize} FOR UPDATE SKIP LOCKED)
          RETURNING id, "userId", "toEmail"
        )
        SELECT c.id, c."userId", c."toEmail", u."firstName", u."lastName", (u.id IS NOT NULL AND ${reachableSql(kind)}) AS ok
        FROM claimed c LEFT JOIN "User" u ON u.id = c."userId" LEFT JOIN "NotificationPreferences" p ON p."userId" = u.id`;
      if (!batch.length) {
        await prisma.emailCampaign.updateMany({ where: { id: campaignId, status: "sending" }, data: { status: "finished", finishedAt: new Date() } });
        return false;
      }
      const results: Outcome[] = [];
      // A few messages at a time: an SMTP server refuses a flood of parallel connections.
      for (let i = 0; i < batch.length; i += SEND_CONCURRENCY) {
        results.push(...(await Promise.all(batch.slice(i, i + SEND_CONCURRENCY).map((recipient) => sendOne(campaign, kind, recipient, mailer.deliver)))));
      }
      await recordBatch(campaignId, batch, results);
      handled += batch.length;
      // Pace to the rate: the next batch waits until the sent ones fit in the elapsed time.
      const ahead = (handled / rate) * 1000 - (Date.now() - started);
      if (ahead > 0) await sleep(ahead, undefined, { signal }).catch(() => undefined);
    }
    return true;
  } finally {
    mailer.close();
  }
}

type Outcome = { status: "sent" } | { status: "failed"; error: string } | { status: "skipped" };

async function sendOne(
  campaign: { subject: string; htmlContent: string },
  kind: CampaignKind,
  recipient: Claimed,
  send: (message: MailMessage) => Promise<void>,
): Promise<Outcome> {
  if (!recipient.ok || !recipient.userId) return { status: "skipped" };
  const link = unsubscribeUrl(recipient.userId, kind);
  const variables = { ...recipientVariables({ email: recipient.toEmail, firstName: recipient.firstName, lastName: recipient.lastName }), unsubscribeUrl: link };
  const body = renderTemplate(campaign.htmlContent, variables, true);
  try {
    await send({
      to: recipient.toEmail,
      subject: renderTemplate(campaign.subject, variables, false),
      html: campaignHtml(body, link),
      text: `${plainTextFromHtml(body)}\n\nUnsubscribe: ${link}`,
      headers: unsubscribeHeaders(link),
    });
    return { status: "sent" };
  } catch (error) {
    return { status: "failed", error: error instanceof Error ? error.message : String(error) };
  }
}

async function recordBatch(campaignId: string, batch: Claimed[], results: Outcome[]) {
  const ids = (status: Outcome["status"]) => batch.filter((_, i) => results[i]!.status === status).map((r) => r.id);
  const failed = batch.flatMap((r, i) => {
    const result = results[i]!;
    return result.status === "failed" ? [{ id: r.id, error: result.error.slice(0, 500) }] : [];
  });
  const [sent, skipped] = [ids("sent"), ids("skipped")];
  await prisma.$transaction(async (tx) => {
    if (sent.length) await tx.emailLog.updateMany({ where: { id: { in: sent } }, data: { status: "sent", sentAt: new Date() } });
    if (skipped.length) await tx.emailLog.updateMany({ where: { id: { in: skipped } }, data: { status: "failed", errorMessage: UNSUBSCRIBED_MEANWHILE } });
    if (failed.length) {
      await tx.$executeRaw`
        UPDATE "EmailLog" AS l SET "status" = 'failed', "errorMessage" = f.error
        FROM (SELECT unnest(${failed.map((f) => f.id)}::uuid[]) AS id, unnest(${failed.map((f) => f.error)}::text[]) AS error) AS f
        WHERE l.id = f.id`;
    }
    await tx.emailCampaign.update({
      where: { id: campaignId },
      // A recipient who opted out after the start is a failed row of the log, and counted so.
      data: { sent: { increment: sent.length }, failed: { increment: failed.length + skipped.length } },
    });
  });
}

/**
 * Stops a queued or sending campaign: its pending rows fail as canceled, in one transaction with
 * the status, so the job finds nothing left to claim (a batch already claimed still goes out).
 */
export async function cancelCampaign(actor: Actor, id: string) {
  if (!UUID_RE.test(id)) throw notFound(CAMPAIGN_NOT_FOUND);
  return prisma.$transaction(async (tx) => {
    const stopped = await tx.emailCampaign.updateMany({
      where: { id, status: { in: ["queued", "sending"] } },
      data: { status: "canceled", finishedAt: new Date() },
    });
    const campaign = await tx.emailCampaign.findUnique({ where: { id }, select: { subject: true } });
    if (!campaign) throw notFound(CAMPAIGN_NOT_FOUND);
    if (!stopped.count) throw new ServiceError(CAMPAIGN_OVER, 409);
    const dropped = await tx.emailLog.updateMany({
      where: { campaignId: id, status: "pending" },
      data: { status: "failed", errorMessage: CANCELED_BEFORE_SENDING },
    });
    await tx.emailCampaign.update({ where: { id }, data: { failed: { increment: dropped.count } } });
    await recordAudit(tx, actor, {
      action: "email_campaign.cancel",
      entityType: "email_campaign",
      entityId: id,
      summary: `Canceled campaign “${campaign.subject}” with ${dropped.count} messages unsent`,
    });
    return { subject: campaign.subject, unsent: dropped.count };
  });
}

// ---- reading ----

const campaignSelect = {
  id: true,
  subject: true,
  audience: true,
  audienceFilters: true,
  kind: true,
  status: true,
  total: true,
  sent: true,
  failed: true,
  skipped: true,
  createdByEmail: true,
  createdAt: true,
  startedAt: true,
  finishedAt: true,
} satisfies Prisma.EmailCampaignSelect;

function withProgress<T extends { total: number; sent: number; failed: number; skipped: number }>(row: T) {
  // `skipped` were left out at the start and are not in `total`.
  return { ...row, left: Math.max(0, row.total - row.sent - row.failed) };
}

export async function getCampaign(id: string) {
  if (!UUID_RE.test(id)) return null;
  const row = await prisma.emailCampaign.findUnique({ where: { id }, select: campaignSelect });
  return row ? withProgress(row) : null;
}

export async function requireCampaign(id: string) {
  const campaign = await getCampaign(id);
  if (!campaign) throw notFound(CAMPAIGN_NOT_FOUND);
  return campaign;
}

/** The latest campaigns, newest first. */
export async function listCampaigns(limit = 10) {
  const rows = await prisma.emailCampaign.findMany({ select: campaignSelect, orderBy: { createdAt: "desc" }, take: limit });
  return rows.map(withProgress);
}

/** Campaigns a restart must hand back to the queue (queued or sending). */
export function unfinishedCampaignIds() {
  return prisma.emailCampaign
    .findMany({ where: { status: { in: ["queued", "sending"] } }, select: { id: true }, take: 100 })
    .then((rows) => rows.map((r) => r.id));
}
