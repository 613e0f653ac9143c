import type { PrismaClient } from "~/generated/prisma/client.ts";

type TemplateSeed = { name: string; subject: string; htmlContent: string; variables: string[] };

const wrap = (body: string) =>
  `<div style="font-family:Arial,sans-serif;max-width:560px;margin:0 auto;color:#0f172a">${body}<p style="color:#64748b;font-size:12px;margin-top:32px">{{platformName}} · Medical animations for patient education</p></div>`;

// The mails the product sends. Templates are rows the admin can edit; the code only names them.
export const EMAIL_TEMPLATES: TemplateSeed[] = [
  {
    name: "email_verification",
    subject: "Verify your email for {{platformName}}",
    htmlContent: wrap(
      `<h1>Welcome, {{firstName}}!</h1><p>Please confirm your email address to finish setting up your account.</p><p><a href="{{verificationUrl}}">Verify my email</a></p><p>Or paste this link into your browser: {{verificationUrl}}</p><p>The link is valid for 24 hours.</p>`,
    ),
    variables: ["firstName", "verificationUrl"],
  },
  {
    name: "password_reset",
    subject: "Reset your {{platformName}} password",
    htmlContent: wrap(
      `<h1>Reset your password</h1><p>Hello {{firstName}}, we received a request to reset your password.</p><p><a href="{{resetUrl}}">Choose a new password</a></p><p>Or paste this link into your browser: {{resetUrl}}</p><p>The link is valid for 1 hour. If you did not ask for it, you can ignore this message.</p>`,
    ),
    variables: ["firstName", "resetUrl"],
  },
  {
    name: "email_change",
    subject: "Confirm your new email address for {{platformName}}",
    htmlContent: wrap(
      `<h1>Confirm your new address</h1><p>Hello {{firstName}}, your account's email address was changed to this one.</p><p><a href="{{verificationUrl}}">Verify this address</a></p><p>Or paste this link into your browser: {{verificationUrl}}</p>`,
    ),
    variables: ["firstName", "verificationUrl"],
  },
  {
    name: "welcome",
    subject: "Welcome to {{platformName}}",
    htmlContent: wrap(
      `<h1>Welcome, {{firstName}}!</h1><p>Your email is verified. Browse the library of medical animations at <a href="{{appUrl}}">{{appUrl}}</a>.</p>`,
    ),
    variables: ["firstName"],
  },
  {
    name: "purchase_receipt",
    subject: "Your {{platformName}} receipt: {{itemName}}",
    htmlContent: wrap(
      `<h1>Thank you for your purchase</h1><p>Hello {{firstName}},</p><p>We received your payment of <strong>{{amount}}</strong> on {{date}} for <strong>{{itemName}}</strong>. Your access starts now and runs for one year.</p><p><a href="{{receiptUrl}}">View or download your receipt</a></p><p>Or paste this link into your browser: {{receiptUrl}}</p><p>Your subscriptions, renewals and payments are on your billing page: <a href="{{appUrl}}/billing">{{appUrl}}/billing</a>. Refunds are available within 30 days of purchase.</p>`,
    ),
    variables: ["firstName", "itemName", "amount", "date", "receiptUrl"],
  },
  {
    name: "payment_failed",
    subject: "Your payment for {{itemName}} did not go through",
    htmlContent: wrap(
      `<h1>Your payment did not go through</h1><p>Hello {{firstName}},</p><p>We could not take the renewal payment of <strong>{{amount}}</strong> for <strong>{{itemName}}</strong>. The payment provider said: {{message}}</p><p>We'll retry on <strong>{{retryDate}}</strong>, and your access continues until then. If the last retry fails too, your access ends.</p><p>Please check your card or replace it on your billing page: <a href="{{billingUrl}}">{{billingUrl}}</a></p>`,
    ),
    variables: ["firstName", "itemName", "amount", "message", "retryDate", "billingUrl"],
  },
  {
    name: "renewal_ended_unpaid",
    subject: "Your {{itemName}} ended after failed payments",
    htmlContent: wrap(
      `<h1>Your access has ended</h1><p>Hello {{firstName}},</p><p>We could not take the renewal payment of <strong>{{amount}}</strong> for <strong>{{itemName}}</strong>, and the last retry failed too. The payment provider said: {{message}}</p><p>Your <strong>{{itemName}}</strong> has ended after failed payments, and nothing more will be charged for it. You keep everything you have downloaded.</p><p>To get access again, buy it anew; your billing page: <a href="{{billingUrl}}">{{billingUrl}}</a></p>`,
    ),
    variables: ["firstName", "itemName", "amount", "message", "billingUrl"],
  },
  {
    name: "renewal_reminder",
    subject: "Your {{itemName}} ends on {{endDate}}",
    htmlContent: wrap(
      `<h1>Your access ends in 7 days</h1><p>Hello {{firstName}},</p><p>Your <strong>{{itemName}}</strong> ends on <strong>{{endDate}}</strong> and will not renew automatically.</p><p>To keep your access, renew from your billing page: <a href="{{renewUrl}}">{{renewUrl}}</a></p><p>If you let it end, you keep everything you have downloaded; premium playback and new downloads stop on that date.</p><p>You receive this reminder because renewal reminders are on in your notification settings.</p>`,
    ),
    variables: ["firstName", "itemName", "endDate", "renewUrl"],
  },
  {
    name: "renewal_upcoming",
    subject: "Your {{itemName}} renews on {{renewalDate}}",
    htmlContent: wrap(
      `<h1>Your subscription renews in {{days}} days</h1><p>Hello {{firstName}},</p><p>Your <strong>{{itemName}}</strong> renews automatically on <strong>{{renewalDate}}</strong>: we will charge <strong>{{amount}}</strong> to your payment method on file for one more year.</p><p>To keep it, there is nothing to do. To stop the renewal, turn it off on your billing page (Billing → Auto-renew) before that date: <a href="{{billingUrl}}">{{billingUrl}}</a>. Your access then continues until {{renewalDate}}.</p><p>You receive this reminder because renewal reminders are on in your notification settings.</p>`,
    ),
    variables: ["firstName", "itemName", "renewalDate", "amount", "days", "billingUrl"],
  },
  {
    name: "renewal_receipt",
    subject: "Your {{platformName}} renewal receipt: {{itemName}}",
    htmlContent: wrap(
      `<h1>Your subscription was renewed</h1><p>Hello {{firstName}},</p><p>Your <strong>{{itemName}}</strong> renewed on {{date}}. We charged <strong>{{amount}}</strong>, and your access now runs until <strong>{{endDate}}</strong>.</p><p><a href="{{receiptUrl}}">View or download your receipt</a></p><p>Or paste this link into your browser: {{receiptUrl}}</p><p>To stop next year's renewal, turn it off on your billing page (Billing → Auto-renew): <a href="{{billingUrl}}">{{billingUrl}}</a>. Refunds are available within 30 days of a payment.</p>`,
    ),
    variables: ["firstName", "itemName", "amount", "date", "endDate", "receiptUrl", "billingUrl"],
  },
  {
    name: "auto_renew_off",
    subject: "Auto-renew is off: {{itemName}} ends on {{endDate}}",
    htmlContent: wrap(
      `<h1>Auto-renew is off</h1><p>Hello {{firstName}},</p><p>Auto-renew is now off for your <strong>{{itemName}}</strong>. It will not renew and nothing more will be charged for it: your access continues until <strong>{{endDate}}</strong>.</p><p>Changed your mind? Turn auto-renew back on on your billing page before that date: <a href="{{billingUrl}}">{{billingUrl}}</a></p>`,
    ),
    variables: ["firstName", "itemName", "endDate", "billingUrl"],
  },
  {
    name: "auto_renew_on",
    subject: "Auto-renew is on: {{itemName}} renews on {{endDate}}",
    htmlContent: wrap(
      `<h1>Auto-renew is on</h1><p>Hello {{firstName}},</p><p>Auto-renew is now on for your <strong>{{itemName}}</strong>. It renews on <strong>{{endDate}}</strong> at <strong>{{amount}}</strong> for one more year, charged to your payment method on file.</p><p>To stop the renewal, turn it off on your billing page (Billing → Auto-renew): <a href="{{billingUrl}}">{{billingUrl}}</a></p>`,
    ),
    variables: ["firstName", "itemName", "endDate", "amount", "billingUrl"],
  },
  {
    name: "practice_invitation",
    subject: "{{inviterName}} invited you to {{practiceName}} on {{platformName}}",
    htmlContent: wrap(
      `<h1>Join {{practiceName}}</h1><p>Hello,</p><p>{{inviterName}} invited you to join <strong>{{practiceName}}</strong> on {{platformName}} as <strong>{{role}}</strong>. Members use the practice's licensed animations: they watch and download them, and see their certificates.</p><p><a href="{{acceptUrl}}">Accept the invitation</a></p><p>Or paste this link into your browser: {{acceptUrl}}</p><p>You need an account with this e-mail address to accept. The invitation works until {{expiresDate}}; if you did not expect it, ignore this e-mail.</p>`,
    ),
    variables: ["practiceName", "inviterName", "role", "acceptUrl", "expiresDate"],
  },
  {
    name: "embed_licence_ended",
    subject: "Your embed of {{animationTitle}} no longer plays",
    htmlContent: wrap(
      `<h1>Your embed no longer plays</h1><p>Hello {{firstName}},</p><p>A visitor of <strong>{{site}}</strong> opened <strong>{{animationTitle}}</strong> on {{date}}, but your <strong>{{itemName}}</strong> ended on {{endDate}}. Your patients now see "This video is no longer available" instead of the animation.</p><p>Renew the license to show it again: <a href="{{renewUrl}}">{{renewUrl}}</a></p><p>We send this once for each time a license ends.</p>`,
    ),
    variables: ["firstName", "site", "animationTitle", "date", "itemName", "endDate", "renewUrl"],
  },
  {
    name: "patient_link",
    subject: "{{clinicName}} sent you a video to watch",
    htmlContent: wrap(
      `<h1>{{clinicName}} sent you a video</h1><p>{{clinicName}} would like you to watch {{videoCount}}:</p><p><strong>{{titles}}</strong></p>{{{noteHtml}}}<p><a href="{{linkUrl}}">Watch it here</a> (no account needed). The link works until {{expiresOn}}.</p><p>If you did not expect this e-mail, you can ignore it.</p>`,
    ),
    variables: ["clinicName", "videoCount", "titles", "noteHtml", "linkUrl", "expiresOn"],
  },
  {
    // An admin's answer to someone who reported misuse (/admin/misuse/{id}): replyHtml is the
    // admin's text, escaped, with its line breaks.
    name: "misuse_reply",
    subject: "About your report on {{animationTitle}}",
    htmlContent: wrap(
      `<h1>About your report</h1><p>Hello,</p><p>Thank you for telling us about the use of <strong>{{animationTitle}}</strong> you reported on {{reportedOn}} ({{reportedLink}}).</p>{{{replyHtml}}}<p>The {{platformName}} team</p>`,
    ),
    variables: ["animationTitle", "reportedOn", "reportedLink", "replyHtml"],
  },
  {
    // The admins' hourly digest of misuse reports no digest has listed yet.
    name: "misuse_digest",
    subject: "{{summary}} on {{platformName}}",
    htmlContent: wrap(`<h1>{{summary}}</h1>{{{reportsHtml}}}<p><a href="{{inboxUrl}}">Open the misuse inbox</a></p>`),
    variables: ["summary", "reportsHtml", "inboxUrl"],
  },
  {
    name: "refund_request_received",
    subject: "We received your refund request",
    htmlContent: wrap(
      `<h1>Refund request received</h1><p>Hello {{firstName}},</p><p>We received your refund request for <strong>{{description}}</strong> ({{amount}}). Our team reviews requests within 3-5 business days; an approved refund reaches your payment method within 7-10 business days.</p>`,
    ),
    variables: ["firstName", "description", "amount"],
  },
  {
    name: "refund_decision",
    subject: "Your refund request was {{decision}}",
    htmlContent: wrap(
      `<h1>Your refund request was {{decision}}</h1><p>Hello {{firstName}},</p><p>We have reviewed your refund request for <strong>{{itemName}}</strong> ({{amount}}). It was <strong>{{decision}}</strong>.</p><p>Notes from our team: {{adminNotes}}</p><p>When a refund is approved, the money reaches your original payment method within 7-10 business days, and the access it paid for ends. You can follow your payments on your billing page: <a href="{{appUrl}}/billing">{{appUrl}}/billing</a>.</p><p>Questions? Reply through our contact page: <a href="{{appUrl}}/contact">{{appUrl}}/contact</a>.</p>`,
    ),
    variables: ["firstName", "amount", "itemName", "decision", "adminNotes"],
  },
  {
    name: "contact_message",
    subject: "[Contact] {{subject}}",
    htmlContent: wrap(
      `<h1>New contact message</h1><p><strong>From:</strong> {{name}} &lt;{{email}}&gt;</p><p><strong>Category:</strong> {{category}}</p><p><strong>Subject:</strong> {{subject}}</p><p>{{message}}</p>`,
    ),
    variables: ["name", "email", "category", "subject", "message"],
  },
  {
    name: "security_alert",
    subject: "Security notice for your {{platformName}} account",
    htmlContent: wrap(
      `<h1>Security notice</h1><p>Hello {{firstName}},</p><p>{{message}}</p><p>If this was not you, reset your password at <a href="{{appUrl}}/forgot-password">{{appUrl}}/forgot-password</a> and contact support.</p>`,
    ),
    variables: ["firstName", "message"],
  },
  {
    name: "bulk_email",
    subject: "{{subject}}",
    htmlContent: wrap(`{{{content}}}`),
    variables: ["subject", "content"],
  },
];

/**
 * Earlier seeded versions, replaced when their variables or their meaning changed (the failed
 * payment now names its retry). A row still holding one of them word for word was never edited
 * by an admin, so it is brought up to date; an edited row is left as the admin wrote it.
 */
const SUPERSEDED: Array<Pick<TemplateSeed, "name" | "subject" | "htmlContent">> = [
  {
    name: "payment_failed",
    subject: "Your payment for {{itemName}} did not go through",
    htmlContent: wrap(
      `<h1>Your payment did not go through</h1><p>Hello {{firstName}},</p><p>We could not take the payment for <strong>{{itemName}}</strong>. The payment provider said: {{message}}</p><p>Nothing was charged for this attempt. If this was a renewal, your current access continues until the end of the period you have already paid for.</p><p>Please check your card or choose another payment method on your billing page: <a href="{{billingUrl}}">{{billingUrl}}</a></p>`,
    ),
  },
  {
    name: "purchase_receipt",
    subject: "Your {{platformName}} receipt: {{description}}",
    htmlContent: wrap(
      `<h1>Thank you for your purchase</h1><p>Hello {{firstName}},</p><p>We received your payment of <strong>{{amount}}</strong> for <strong>{{description}}</strong>.</p><p>Access runs until {{endDate}}. You can see your billing history at <a href="{{appUrl}}/billing">{{appUrl}}/billing</a>.</p><p>Refunds are available within 30 days of purchase.</p>`,
    ),
  },
  {
    name: "refund_decision",
    subject: "Your refund request was {{decision}}",
    htmlContent: wrap(
      `<h1>Refund request {{decision}}</h1><p>Hello {{firstName}},</p><p>Your refund request for <strong>{{description}}</strong> ({{amount}}) was {{decision}}.</p><p>Notes from our team: {{adminNotes}}</p>`,
    ),
  },
];

/** Creates the templates that are missing; an admin's edits to existing ones are kept. */
export async function seedEmailTemplates(prisma: PrismaClient) {
  for (const template of EMAIL_TEMPLATES) {
    await prisma.emailTemplate.upsert({ where: { name: template.name }, update: {}, create: template });
  }
  for (const old of SUPERSEDED) {
    const current = EMAIL_TEMPLATES.find((t) => t.name === old.name)!;
    await prisma.emailTemplate.updateMany({
      where: { name: old.name, subject: old.subject, htmlContent: old.htmlContent },
      data: { subject: current.subject, htmlContent: current.htmlContent, variables: current.variables },
    });
  }
}
