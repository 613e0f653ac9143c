import { prisma } from "~/lib/db.server.ts";
import { formatLongDate, formatMoney } from "~/lib/format.ts";
import { logger } from "~/lib/logger.server.ts";
import { appUrl, sendTemplatedEmail, type TemplatedEmail } from "~/lib/mail.server.ts";
import { invoiceFilename, renderInvoicePdf } from "./invoice-pdf.server.ts";
import { readInvoice } from "./invoices.server.ts";

// The mails about one member's subscription (receipts, renewal switch, failed payments): each
// sent after the change it reports has committed, and only when the member still wants
// subscription updates (NotificationPreferences.emailSubscriptionUpdates, on when unset).

/** `invoiceId`: the invoice's PDF goes with it (a receipt). */
export type SubscriptionMail = TemplatedEmail & { userId: string; invoiceId?: string };

type Recipient = { id: string; email: string; firstName: string };

/**
 * The confirmation of a change of the renewal switch, wherever it was made (/billing, or the
 * provider's own page through its webhook): off says until when access lasts, on when and at
 * what price the term renews.
 */
export function autoRenewChangedMail(
  user: Recipient,
  term: { itemName: string; endDate: Date; price: { toString(): string } | number },
  autoRenew: boolean,
): SubscriptionMail {
  const variables = { firstName: user.firstName, itemName: term.itemName, endDate: formatLongDate(term.endDate), billingUrl: `${appUrl()}/billing` };
  return autoRenew
    ? { template: "auto_renew_on", to: user.email, userId: user.id, variables: { ...variables, amount: formatMoney(term.price) } }
    : { template: "auto_renew_off", to: user.email, userId: user.id, variables };
}

/** Sends it if the member wants subscription updates; a failure is logged, never thrown (the change is committed). */
export async function sendSubscriptionMail(mail: SubscriptionMail) {
  try {
    const preferences = await prisma.notificationPreferences.findUnique({ where: { userId: mail.userId }, select: { emailSubscriptionUpdates: true } });
    if (preferences && !preferences.emailSubscriptionUpdates) return;
    const { invoiceId, ...message } = mail;
    await sendTemplatedEmail({ ...message, attachments: invoiceId ? [await invoiceAttachment(invoiceId)] : undefined });
  } catch (error) {
    logger.error({ err: error, template: mail.template }, "subscription mail failed after commit");
  }
}

async function invoiceAttachment(invoiceId: string) {
  const invoice = (await readInvoice(invoiceId))!;
  return { filename: invoiceFilename(invoice), content: Buffer.from(await renderInvoicePdf(invoice)), contentType: "application/pdf" };
}
