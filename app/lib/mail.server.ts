import fs from "node:fs";
import path from "node:path";
import nodemailer from "nodemailer";
import type { Transporter } from "nodemailer";
import { prisma } from "./db.server.ts";
import { getEnv } from "./env.server.ts";
import { logger } from "./logger.server.ts";
import { metrics } from "./metrics.server.ts";
import { linksAsText } from "./html-text.ts";
import { escapeHtml } from "./sanitize.server.ts";

export type MailAttachment = { filename: string; content: Buffer; contentType: string };
export type MailMessage = {
  to: string;
  subject: string;
  html: string;
  text: string;
  from?: string | { name: string; address: string };
  headers?: Record<string, string>;
  attachments?: MailAttachment[];
};

let current: Transporter | undefined;

function transport(): Transporter {
  if (!current) {
    const env = getEnv();
    current = env.SMTP_URL ? nodemailer.createTransport(env.SMTP_URL) : nodemailer.createTransport({ streamTransport: true, buffer: true, newline: "unix" });
  }
  return current;
}

/** For tests that point the app at another SMTP server. */
export function resetMailTransport() {
  current = undefined;
}

export function outboxDir() {
  return path.join(getEnv().DATA_DIR, "outbox");
}

/**
 * Delivers one message: over SMTP when SMTP_URL is set, otherwise as an .eml file in
 * DATA_DIR/outbox (the embedded default, readable by a developer and by the e2e tests).
 */
export async function deliver(message: MailMessage, via: Transporter = transport()): Promise<void> {
  const env = getEnv();
  try {
    const info = await via.sendMail({ from: message.from ?? env.MAIL_FROM, ...message });
    if (!env.SMTP_URL) {
      const dir = outboxDir();
      await fs.promises.mkdir(dir, { recursive: true });
      const safeTo = message.to.replace(/[^a-z0-9@._-]/gi, "_");
      const file = path.join(dir, `${Date.now()}-${safeTo}-${info.messageId.replace(/[^a-z0-9]/gi, "")}.eml`);
      await fs.promises.writeFile(file, info.message as Buffer);
      logger.info({ to: message.to, subject: message.subject, file }, "mail written to outbox");
    }
  } catch (error) {
    metrics().mail.inc({ outcome: "failed" });
    throw error;
  }
  metrics().mail.inc({ outcome: "sent" });
}

/**
 * For a burst of mail (a campaign's slice): over SMTP, a pool of `connections` reused from one
 * message to the next instead of a connection per message; close() when the burst is over.
 * Without SMTP_URL, the outbox as usual.
 */
export function openMailBurst(connections: number) {
  const env = getEnv();
  if (!env.SMTP_URL) return { deliver: (message: MailMessage) => deliver(message), close: () => undefined };
  const url = new URL(env.SMTP_URL);
  url.searchParams.set("pool", "true");
  url.searchParams.set("maxConnections", String(connections));
  const pooled = nodemailer.createTransport(url.toString());
  return { deliver: (message: MailMessage) => deliver(message, pooled), close: () => pooled.close() };
}

// {{name}} is escaped in HTML; {{{name}}} inserts trusted, already-sanitised HTML as is.
const VARIABLE = /\{\{(\{?)\s*([a-zA-Z0-9_]+)\s*\}?\}\}/g;

/** `{{name}}` substitution; values are escaped in HTML, missing ones become empty. */
export function renderTemplate(source: string, variables: Record<string, string>, html: boolean) {
  return source.replace(VARIABLE, (_, raw: string, key: string) => {
    const value = variables[key] ?? "";
    return html && !raw ? escapeHtml(value) : value;
  });
}

/** Plain text from HTML: script and style dropped, links as "text (URL)", tags removed, whitespace collapsed. */
export function htmlToText(html: string) {
  return linksAsText(html.replace(/<(script|style)[\s\S]*?<\/\1>/gi, ""))
    .replace(/<br\s*\/?>/gi, "\n")
    .replace(/<\/(p|div|h[1-6]|li|tr)>/gi, "\n")
    .replace(/<[^>]+>/g, "")
    .replace(/&nbsp;/g, " ")
    .replace(/&amp;/g, "&")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/[ \t]+/g, " ")
    .replace(/\n\s*\n+/g, "\n\n")
    .trim();
}

/**
 * The templates the site sends by itself, each when something happens to one person (a sign-up,
 * a reset, a payment). sendTemplatedEmail takes only these names, so the compiler keeps the list
 * whole. The e-mail manager may edit their text but neither deletes them nor sends them as a
 * campaign: a reset link mailed to everyone is not a newsletter.
 */
export const SYSTEM_TEMPLATES = [
  "email_verification",
  "password_reset",
  "email_change",
  "welcome",
  "purchase_receipt",
  "payment_failed",
  "renewal_reminder",
  "renewal_upcoming",
  "renewal_receipt",
  "renewal_ended_unpaid",
  "auto_renew_off",
  "auto_renew_on",
  "refund_request_received",
  "refund_decision",
  "contact_message",
  "security_alert",
  "practice_invitation",
  "embed_licence_ended",
  "patient_link",
  "misuse_reply",
  "misuse_digest",
] as const;
export type SystemTemplate = (typeof SYSTEM_TEMPLATES)[number];

export function isSystemTemplate(name: string): name is SystemTemplate {
  return (SYSTEM_TEMPLATES as readonly string[]).includes(name);
}

export type TemplatedEmail = {
  template: SystemTemplate;
  to: string;
  variables: Record<string, string>;
  userId?: string | null;
  /** Files sent with it (a receipt's invoice PDF). */
  attachments?: MailAttachment[];
  /** A mail the recipient may turn off: its one-click link, added below the template's text. */
  unsubscribeUrl?: string;
  /** Whose mail it is to the reader (a clinic's patient link): the sender's name, at our address. */
  senderName?: string;
};

/** The address of a From value, "Medanim <no-reply@medanim.example>" or a bare address. */
function addressOf(from: string) {
  return /<([^>]+)>/.exec(from)?.[1] ?? from.trim();
}

/** The footer of every mail a recipient may turn off (campaigns, reminders): an admin's template edit cannot drop it. */
export function unsubscribeFooter(link: string) {
  return `<hr><p style="font-size:12px;color:#64748b">You receive this because of your e-mail preferences. <a href="${escapeHtml(link)}">Unsubscribe</a> from this kind of mail.</p>`;
}

/** RFC 8058: mail clients offer their own unsubscribe button and POST to the link. */
export function unsubscribeHeaders(link: string) {
  return { "List-Unsubscribe": `<${link}>`, "List-Unsubscribe-Post": "List-Unsubscribe=One-Click" };
}

/**
 * Renders a database template and sends it, recording an EmailLog row either way. Returns
 * whether it was sent; a failure is logged, never thrown, so a mail outage cannot undo the
 * action that triggered it.
 */
export async function sendTemplatedEmail({ template, to, variables, userId, attachments, unsubscribeUrl, senderName }: TemplatedEmail) {
  const row = await prisma.emailTemplate.findUnique({
    where: { name: template },
    include: { senderAddress: true },
  });
  const platformName = await prisma.appSetting.findUnique({ where: { key: "platform_name" } }).then((s) => s?.value ?? "Medanim");
  const vars = { platformName, appUrl: appUrl(), ...variables };
  if (!row || !row.isActive) {
    const errorMessage = `Email template "${template}" is missing or inactive`;
    await prisma.emailLog.create({
      data: { toEmail: to, subject: template, status: "failed", errorMessage, userId: userId ?? null },
    });
    logger.error({ template, to }, errorMessage);
    metrics().mail.inc({ outcome: "failed" });
    return false;
  }
  const subject = renderTemplate(row.subject, vars, false);
  const body = renderTemplate(row.htmlContent, vars, true);
  const bodyText = row.textContent ? renderTemplate(row.textContent, vars, false) : htmlToText(body);
  const html = unsubscribeUrl ? `${body}${unsubscribeFooter(unsubscribeUrl)}` : body;
  const text = unsubscribeUrl ? `${bodyText}\n\nUnsubscribe: ${unsubscribeUrl}` : bodyText;
  const address = row.senderAddress?.isActive ? row.senderAddress.address : addressOf(getEnv().MAIL_FROM);
  const name = senderName ?? (row.senderAddress?.isActive ? (row.senderAddress.name ?? platformName) : undefined);
  // An object, not a string: nodemailer quotes a name with commas or quotes ("Smith, Jones & Co").
  const from = name ? { name, address } : undefined;
  try {
    await deliver({ to, subject, html, text, from, attachments, ...(unsubscribeUrl ? { headers: unsubscribeHeaders(unsubscribeUrl) } : {}) });
    await prisma.emailLog.create({
      data: { toEmail: to, subject, status: "sent", templateId: row.id, userId: userId ?? null },
    });
    return true;
  } catch (error) {
    const errorMessage = error instanceof Error ? error.message : String(error);
    await prisma.emailLog.create({
      data: { toEmail: to, subject, status: "failed", errorMessage, templateId: row.id, userId: userId ?? null },
    });
    logger.error({ err: error, template, to }, "mail failed");
    return false;
  }
}

export function appUrl() {
  return (getEnv().APP_URL ?? `http://localhost:${getEnv().PORT}`).replace(/\/$/, "");
}
