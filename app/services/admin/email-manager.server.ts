import { prisma, uniqueViolation } from "~/lib/db.server.ts";
import { conflict, notFound } from "~/lib/errors.server.ts";
import { htmlToText, isSystemTemplate, renderTemplate } from "~/lib/mail.server.ts";
import { sanitizeHtml } from "~/lib/sanitize.server.ts";
import type { Prisma } from "~/generated/prisma/client.ts";
import { UUID_RE } from "~/validation/account.ts";
import type { LogListQuery, TemplateInput, TemplateUpdateInput } from "~/validation/admin-email.ts";
import { type Actor, recordAudit } from "./audit.server.ts";

// The e-mail manager's templates, logs and statistics (/admin/email-manager and its /api
// calls). Campaigns live in
// email-campaigns.server.ts.

export const TEMPLATE_NOT_FOUND = "Template not found";
export const TEMPLATE_NAME_TAKEN = "A template with this name already exists";
export const SYSTEM_TEMPLATE_DELETE = "This is a system template: the site sends it by itself, so it cannot be deleted. Edit its text instead.";
export const SYSTEM_TEMPLATE_CAMPAIGN = "This is a system template: the site sends it to one person when needed, so it cannot be sent as a campaign.";

export { isSystemTemplate };

const templateSelect = {
  id: true,
  name: true,
  subject: true,
  htmlContent: true,
  textContent: true,
  variables: true,
  isActive: true,
  version: true,
  createdAt: true,
  updatedAt: true,
} satisfies Prisma.EmailTemplateSelect;

export type AdminTemplate = Prisma.EmailTemplateGetPayload<{ select: typeof templateSelect }>;

/** Templates by name, optionally those whose name or subject contains `search` (the screen's search box). */
export function listTemplates({ search }: { search?: string } = {}) {
  const term = search?.trim();
  const contains = term ? { contains: term, mode: "insensitive" as const } : null;
  return prisma.emailTemplate.findMany({
    where: contains ? { OR: [{ name: contains }, { subject: contains }] } : {},
    select: templateSelect,
    orderBy: { name: "asc" },
    // A product has a few dozen templates; the list is bounded all the same.
    take: 200,
  });
}

export async function getTemplate(id: string) {
  if (!UUID_RE.test(id)) return null;
  return prisma.emailTemplate.findUnique({ where: { id }, select: templateSelect });
}

/** A template's subject and HTML to start a campaign from (none for an unknown id); never a system template's. */
export async function getCampaignTemplate(id: string) {
  const template = await getTemplate(id);
  if (!template) return null;
  if (isSystemTemplate(template.name)) throw conflict(SYSTEM_TEMPLATE_CAMPAIGN);
  return { name: template.name, subject: template.subject, htmlContent: template.htmlContent };
}

/**
 * What a template looks like when sent: subject and HTML with each variable shown as its own
 * name in brackets ([firstName]), and the plain text (its own, or derived from the HTML).
 */
export function previewTemplate(template: Pick<AdminTemplate, "subject" | "htmlContent" | "textContent" | "variables">) {
  const names = new Set([...template.variables, ...[...`${template.subject}${template.htmlContent}`.matchAll(/\{\{\{?\s*([a-zA-Z0-9_]+)/g)].map((m) => m[1]!)]);
  const sample = Object.fromEntries([...names].map((name) => [name, `[${name}]`]));
  const html = sanitizeHtml(renderTemplate(template.htmlContent, sample, true));
  return {
    subject: renderTemplate(template.subject, sample, false),
    variables: [...names],
    html,
    text: template.textContent ? renderTemplate(template.textContent, sample, false) : htmlToText(html),
  };
}

function templateData(input: TemplateInput) {
  return {
    name: input.name,
    subject: input.subject,
    // Admins' HTML is sanitised before it is stored and sent (docs/architecture.md).
    htmlContent: sanitizeHtml(input.htmlContent),
    textContent: input.textContent ?? null,
    variables: input.variables,
    isActive: input.isActive,
  };
}

export async function createTemplate(actor: Actor, input: TemplateInput) {
  const values = templateData(input);
  try {
    return await prisma.$transaction(async (tx) => {
      const row = await tx.emailTemplate.create({ data: values, select: templateSelect });
      await recordAudit(tx, actor, {
        action: "email_template.create",
        entityType: "email_template",
        entityId: row.id,
        summary: `Created template ${row.name}`,
        after: values,
      });
      return row;
    });
  } catch (error) {
    if (uniqueViolation(error)) throw conflict(TEMPLATE_NAME_TAKEN, "name");
    throw error;
  }
}

/** Saves a template's new content; each save counts a version (a new template is version 1). */
export async function updateTemplate(actor: Actor, id: string, input: TemplateUpdateInput) {
  const current = await getTemplate(id);
  if (!current) throw notFound(TEMPLATE_NOT_FOUND);
  const values = {
    ...(input.name !== undefined ? { name: input.name } : {}),
    subject: input.subject,
    htmlContent: sanitizeHtml(input.htmlContent),
    ...(input.textContent !== undefined || input.name !== undefined ? { textContent: input.textContent ?? null } : {}),
    ...(input.variables !== undefined ? { variables: input.variables } : {}),
    ...(input.isActive !== undefined ? { isActive: input.isActive } : {}),
  };
  try {
    return await prisma.$transaction(async (tx) => {
      const row = await tx.emailTemplate.update({ where: { id }, data: { ...values, version: { increment: 1 } }, select: templateSelect });
      const before = Object.fromEntries(Object.keys(values).map((key) => [key, current[key as keyof typeof values]]));
      await recordAudit(tx, actor, {
        action: "email_template.update",
        entityType: "email_template",
        entityId: id,
        summary: `Updated template ${row.name}`,
        before,
        after: values,
      });
      return row;
    });
  } catch (error) {
    if (uniqueViolation(error)) throw conflict(TEMPLATE_NAME_TAKEN, "name");
    throw error;
  }
}

/** Deletes a template; its log rows stay (their template link is cleared). System templates stay. */
export async function deleteTemplate(actor: Actor, id: string) {
  const current = await getTemplate(id);
  if (!current) throw notFound(TEMPLATE_NOT_FOUND);
  if (isSystemTemplate(current.name)) throw conflict(SYSTEM_TEMPLATE_DELETE);
  await prisma.$transaction(async (tx) => {
    await tx.emailTemplate.delete({ where: { id } });
    await recordAudit(tx, actor, {
      action: "email_template.delete",
      entityType: "email_template",
      entityId: id,
      summary: `Deleted template ${current.name}`,
      before: { name: current.name, subject: current.subject },
    });
  });
  return current;
}

const logSelect = {
  id: true,
  userId: true,
  toEmail: true,
  subject: true,
  status: true,
  errorMessage: true,
  sentAt: true,
  campaignId: true,
  template: { select: { name: true } },
} satisfies Prisma.EmailLogSelect;

/** The log, newest first, paged with a has-next look-ahead (the log is never counted). */
export async function listEmailLogs({ search, status, campaign, page, limit }: LogListQuery) {
  const term = search?.trim();
  const contains = term ? { contains: term, mode: "insensitive" as const } : null;
  const rows = await prisma.emailLog.findMany({
    where: {
      ...(status ? { status: status === "pending" ? { notIn: ["sent", "failed"] } : status } : {}),
      ...(campaign ? { campaignId: campaign } : {}),
      ...(contains ? { OR: [{ toEmail: contains }, { subject: contains }] } : {}),
    },
    select: logSelect,
    orderBy: [{ sentAt: "desc" }, { id: "desc" }],
    skip: (page - 1) * limit,
    take: limit + 1,
  });
  return {
    logs: rows.slice(0, limit).map(({ template, ...row }) => ({ ...row, templateName: template?.name ?? null })),
    page,
    limit,
    hasNext: rows.length > limit,
  };
}

/**
 * The stat cards of both layouts: Total Templates, Active Templates, Emails Sent Today (sent
 * log rows dated today, UTC), Total Emails Sent (the log's size) and Success Rate (sent rows
 * of the log, rounded percent, 0 for an empty log). The log totals are counters kept by
 * triggers (migration 20261124050000); today's rows are found through the (status, sentAt) index.
 */
export async function emailStats(now = new Date()) {
  const today = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
  const [templates, counters, sentToday] = await Promise.all([
    prisma.emailTemplate.groupBy({ by: ["isActive"], _count: { _all: true } }),
    prisma.rowCount.findMany({ where: { table: { in: ["EmailLog", "EmailLog:sent"] } } }),
    prisma.emailLog.count({ where: { status: "sent", sentAt: { gte: today } } }),
  ]);
  const counter = (table: string) => Number(counters.find((row) => row.table === table)?.count ?? 0);
  const total = counter("EmailLog");
  return {
    totalTemplates: templates.reduce((sum, group) => sum + group._count._all, 0),
    activeTemplates: templates.find((group) => group.isActive)?._count._all ?? 0,
    emailsSentToday: sentToday,
    totalEmailsSent: total,
    successRate: total ? Math.round((100 * counter("EmailLog:sent")) / total) : 0,
  };
}
