import PDFDocument from "pdfkit";
import { prisma } from "~/lib/db.server.ts";
import type { Prisma } from "~/generated/prisma/client.ts";
import { notFound } from "~/lib/errors.server.ts";
import { formatDate } from "~/lib/format.ts";
import { appUrl } from "~/lib/mail.server.ts";
import { UUID_RE } from "~/validation/account.ts";
import { getAccess } from "./access.server.ts";
import { getSetting } from "./settings.server.ts";

// Receipts, licence certificates and the public licence check (issue 10, "After the purchase").
// The data functions decide who may see what; the render functions only lay out what they are
// given, as PDF bytes made here with pdfkit's built-in fonts (no files to ship, no browser).

export const PAYMENT_NOT_FOUND = "Payment not found";
export const LICENCE_NOT_FOUND = "Licence not found";

type Viewer = { id: string; role: "user" | "admin" };

// ---------------------------------------------------------------------------------------------
// Receipts

export type Receipt = {
  paymentId: string;
  number: string;
  date: Date;
  platformName: string;
  buyer: { name: string; email: string };
  description: string;
  amount: number;
  currency: string;
  status: "pending" | "completed" | "failed" | "refunded";
  invoiceId: string | null;
  paymentIntentId: string | null;
};

/**
 * A receipt number people can read out: derived from the payment id alone, so it never changes
 * and needs no column. 12 hex digits (48 bits) of a random UUID do not collide in practice; the
 * payment id itself is printed beside it for anything that needs certainty.
 */
export function receiptNumber(paymentId: string) {
  return `MED-${paymentId.replace(/-/g, "").slice(0, 12).toUpperCase()}`;
}

const SUBSCRIPTION_TYPE_LABEL = { global: "Premium Yearly Subscription", individual: "Individual licence", category: "Category licence" } as const;

/** A payment as its receipt: the owner's own, or any for an admin; otherwise "Payment not found". */
export async function getReceipt(user: Viewer, paymentId: string): Promise<Receipt> {
  if (!UUID_RE.test(paymentId)) throw notFound(PAYMENT_NOT_FOUND);
  const payment = await prisma.payment.findUnique({
    where: { id: paymentId },
    select: {
      id: true,
      userId: true,
      amount: true,
      currency: true,
      status: true,
      description: true,
      subscriptionType: true,
      stripeInvoiceId: true,
      stripePaymentIntentId: true,
      createdAt: true,
      user: { select: { firstName: true, lastName: true, email: true } },
    },
  });
  // Someone else's payment answers exactly like a missing one: ids are not confirmed to strangers.
  if (!payment || (payment.userId !== user.id && user.role !== "admin")) throw notFound(PAYMENT_NOT_FOUND);
  return {
    paymentId: payment.id,
    number: receiptNumber(payment.id),
    date: payment.createdAt,
    platformName: await getSetting("platform_name"),
    buyer: { name: `${payment.user.firstName} ${payment.user.lastName}`.trim(), email: payment.user.email },
    description: payment.description ?? (payment.subscriptionType ? SUBSCRIPTION_TYPE_LABEL[payment.subscriptionType] : "Payment"),
    amount: Number(payment.amount),
    currency: payment.currency.toUpperCase(),
    status: payment.status,
    invoiceId: payment.stripeInvoiceId,
    paymentIntentId: payment.stripePaymentIntentId,
  };
}

/** "$299.00" for USD; any other currency in its own symbol or code. */
export function formatAmount(amount: number, currency: string) {
  try {
    return amount.toLocaleString("en-US", { style: "currency", currency });
  } catch {
    return `${amount.toFixed(2)} ${currency}`;
  }
}

export const RECEIPT_STATUS_LABEL: Record<Receipt["status"], string> = {
  completed: "Paid",
  refunded: "Refunded",
  pending: "Pending",
  failed: "Failed",
};

// ---------------------------------------------------------------------------------------------
// Licences

/**
 * Spec: licences "carry commercial usage rights and download rights and include premium access".
 * The same three lines on the certificate and on the public verification page.
 */
export const LICENCE_RIGHTS = [
  "Commercial use of the licensed animations",
  "Download of the licensed animation files",
  "Premium access: streaming of every animation in the library",
] as const;

const LICENCE_TYPE_LABEL = { individual: "Individual licence", category: "Category licence" } as const;

export type LicenceState = "valid" | "expired" | "canceled" | "refunded" | "pending";

export type Licence = {
  id: string;
  type: "individual" | "category";
  typeLabel: string;
  licensee: { firstName: string; lastName: string };
  item: string;
  startDate: Date | null;
  endDate: Date | null;
  rights: readonly string[];
  state: LicenceState;
  verifyUrl: string;
};

export type Certificate = Licence & { platformName: string };

const licenceSelect = {
  id: true,
  userId: true,
  type: true,
  status: true,
  startDate: true,
  endDate: true,
  user: { select: { id: true, role: true, accountType: true, firstName: true, lastName: true } },
  animation: { select: { title: true } },
  category: { select: { name: true } },
  payments: { where: { status: "refunded" }, select: { id: true }, take: 1 },
} satisfies Prisma.SubscriptionSelect;

export function verifyUrl(licenceId: string) {
  return `${appUrl()}/licences/${licenceId}/verify`;
}

async function findLicence(id: string) {
  if (!UUID_RE.test(id)) return null;
  const row = await prisma.subscription.findUnique({ where: { id }, select: licenceSelect });
  // Premium (global) is access, not a licence: it has no certificate and nothing to verify.
  if (!row || (row.type !== "individual" && row.type !== "category")) return null;
  return row;
}

type LicenceRow = NonNullable<Awaited<ReturnType<typeof findLicence>>>;

/**
 * Valid means what the access rules mean by it (a subscription that counts: active, endDate in
 * the future), asked of access.server.ts rather than decided twice. When it is not valid, the
 * reason: refunded (its payment was refunded, which also cancels it), canceled, pending, or
 * expired (marked so, or past its end date before the daily job has marked it).
 */
async function licenceState(row: LicenceRow, now: Date): Promise<LicenceState> {
  const access = await getAccess(row.user, now);
  if (access.subscriptions.some((s) => s.id === row.id)) return "valid";
  if (row.payments.length > 0) return "refunded";
  if (row.status === "canceled") return "canceled";
  if (row.status === "pending") return "pending";
  return "expired";
}

async function toLicence(row: LicenceRow, now: Date): Promise<Licence> {
  const type = row.type as "individual" | "category";
  return {
    id: row.id,
    type,
    typeLabel: LICENCE_TYPE_LABEL[type],
    licensee: { firstName: row.user.firstName, lastName: row.user.lastName },
    item:
      type === "individual"
        ? (row.animation?.title ?? "Animation no longer in the library")
        : `${row.category?.name ?? "Category no longer in the library"} (category)`,
    startDate: row.startDate,
    endDate: row.endDate,
    rights: LICENCE_RIGHTS,
    state: await licenceState(row, now),
    verifyUrl: verifyUrl(row.id),
  };
}

/** The certificate of the user's own individual or category licence (admins: any licence). */
export async function getCertificate(user: Viewer, subscriptionId: string, now = new Date()): Promise<Certificate> {
  const row = await findLicence(subscriptionId);
  if (!row || (row.userId !== user.id && user.role !== "admin")) throw notFound(LICENCE_NOT_FOUND);
  const [licence, platformName] = await Promise.all([toLicence(row, now), getSetting("platform_name")]);
  return { ...licence, platformName };
}

/**
 * The public check behind /licences/{id}/verify: anyone holding the link may ask. It tells only
 * what the certificate already shows to whoever it is handed to: the licensee's name (no e-mail
 * or anything else about them), the item, the type, the term, the rights and today's validity.
 */
export async function verifyLicence(id: string, now = new Date()): Promise<Licence> {
  const row = await findLicence(id);
  if (!row) throw notFound(LICENCE_NOT_FOUND);
  return toLicence(row, now);
}

export const LICENCE_STATE_REASON: Record<Exclude<LicenceState, "valid">, string> = {
  expired: "The licence term has ended.",
  canceled: "The licence was canceled.",
  refunded: "The licence was refunded and canceled.",
  pending: "The licence has not been paid for.",
};

// ---------------------------------------------------------------------------------------------
// PDF

/** The file name's id: the first block of the UUID is enough to tell a user's files apart. */
export function shortId(id: string) {
  return id.split("-")[0]!;
}

export function receiptFilename(receipt: Receipt) {
  return `medanim-receipt-${shortId(receipt.paymentId)}.pdf`;
}

export function certificateFilename(certificate: { id: string }) {
  return `medanim-licence-${shortId(certificate.id)}.pdf`;
}

/** Headers of a private document download: never stored by a shared cache or the browser. */
export function pdfHeaders(filename: string, length: number) {
  return {
    "Content-Type": "application/pdf",
    "Content-Disposition": `attachment; filename="${filename}"`,
    "Content-Length": String(length),
    "Cache-Control": "private, no-store",
  };
}

type PdfOptions = {
  /** Streams are deflated unless told otherwise (tests read the text with compress: false). */
  compress?: boolean;
};

type Doc = InstanceType<typeof PDFDocument>;

function collect(doc: Doc): Promise<Uint8Array<ArrayBuffer>> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    doc.on("data", (chunk: Buffer) => chunks.push(chunk));
    doc.on("end", () => resolve(new Uint8Array(Buffer.concat(chunks))));
    doc.on("error", reject);
  });
}

const INK = "#0f172a";
const MUTED = "#475569";
const BRAND = "#1d4ed8";
const RULE = "#cbd5e1";

/** Two columns of label and value, each value wrapping within its column. */
function fieldRows(doc: Doc, rows: [string, string][], x: number, width: number, labelWidth = 140) {
  for (const [label, value] of rows) {
    const y = doc.y;
    doc.font("Helvetica").fontSize(10).fillColor(MUTED).text(label, x, y, { width: labelWidth });
    doc.font("Helvetica").fontSize(11).fillColor(INK).text(value, x + labelWidth, y, { width: width - labelWidth });
    doc.moveDown(0.5);
  }
}

function rule(doc: Doc, x: number, width: number) {
  doc.moveDown(0.5);
  doc.moveTo(x, doc.y).lineTo(x + width, doc.y).lineWidth(0.75).strokeColor(RULE).stroke();
  doc.moveDown(0.8);
}

/** The receipt as an A4 PDF: heading, seller, buyer, the line item, the total and the status. */
export async function renderReceiptPdf(receipt: Receipt, options: PdfOptions = {}): Promise<Uint8Array<ArrayBuffer>> {
  const doc = new PDFDocument({
    size: "A4",
    margin: 56,
    compress: options.compress ?? true,
    info: {
      Title: `Receipt ${receipt.number} - ${receipt.description}`,
      Author: receipt.platformName,
      Subject: "Payment receipt",
    },
  });
  const done = collect(doc);
  const x = doc.page.margins.left;
  const width = doc.page.width - doc.page.margins.left - doc.page.margins.right;
  const amount = formatAmount(receipt.amount, receipt.currency);

  doc.font("Helvetica-Bold").fontSize(22).fillColor(INK).text(receipt.platformName, x, doc.y);
  doc.font("Helvetica").fontSize(10).fillColor(MUTED).text(appUrl());
  doc.moveDown(1);
  doc.font("Helvetica-Bold").fontSize(18).fillColor(INK).text("Receipt");
  doc.font("Helvetica").fontSize(10).fillColor(MUTED).text(`Receipt number ${receipt.number}`);
  rule(doc, x, width);

  fieldRows(
    doc,
    [
      ["Date", formatDate(receipt.date)],
      ["Seller", receipt.platformName],
      ["Billed to", `${receipt.buyer.name}\n${receipt.buyer.email}`],
      ["Status", RECEIPT_STATUS_LABEL[receipt.status]],
      ...(receipt.invoiceId ? ([["Invoice", receipt.invoiceId]] as [string, string][]) : []),
      ...(receipt.paymentIntentId ? ([["Payment reference", receipt.paymentIntentId]] as [string, string][]) : []),
      ["Payment id", receipt.paymentId],
    ],
    x,
    width,
  );
  rule(doc, x, width);

  // The line item and the total, the amount aligned right.
  const amountWidth = 120;
  let y = doc.y;
  doc.font("Helvetica-Bold").fontSize(10).fillColor(MUTED).text("Item", x, y, { width: width - amountWidth });
  doc.text("Amount", x + width - amountWidth, y, { width: amountWidth, align: "right" });
  doc.moveDown(0.6);
  y = doc.y;
  doc.font("Helvetica").fontSize(11).fillColor(INK).text(receipt.description, x, y, { width: width - amountWidth - 12 });
  const afterItem = doc.y;
  doc.text(amount, x + width - amountWidth, y, { width: amountWidth, align: "right" });
  doc.y = Math.max(afterItem, doc.y);
  rule(doc, x, width);
  y = doc.y;
  doc.font("Helvetica-Bold").fontSize(13).fillColor(INK).text("Total", x, y, { width: width - amountWidth });
  doc.text(`${amount} ${receipt.currency}`, x + width - amountWidth, y, { width: amountWidth, align: "right" });
  doc.moveDown(1.5);

  if (receipt.status === "refunded") {
    doc.font("Helvetica-Bold").fontSize(12).fillColor("#b91c1c").text(`This payment was refunded: ${amount} returned to the buyer.`, x, doc.y, { width });
    doc.moveDown(1);
  }
  doc
    .font("Helvetica")
    .fontSize(9)
    .fillColor(MUTED)
    .text(`Keep this receipt for your records. Questions about a payment: ${appUrl()}/contact`, x, doc.y, { width });

  doc.end();
  return done;
}

/** The certificate as a landscape A4 PDF: framed, titled "Licence Certificate", with a verify link. */
export async function renderCertificatePdf(certificate: Certificate, options: PdfOptions = {}): Promise<Uint8Array<ArrayBuffer>> {
  const doc = new PDFDocument({
    size: "A4",
    layout: "landscape",
    margin: 60,
    compress: options.compress ?? true,
    info: {
      Title: `Licence Certificate - ${certificate.item}`,
      Author: certificate.platformName,
      Subject: `${certificate.typeLabel} ${certificate.id}`,
    },
  });
  const done = collect(doc);
  const { width: pageWidth, height: pageHeight } = doc.page;
  doc.rect(24, 24, pageWidth - 48, pageHeight - 48).lineWidth(3).strokeColor(BRAND).stroke();
  doc.rect(32, 32, pageWidth - 64, pageHeight - 64).lineWidth(0.75).strokeColor(RULE).stroke();

  const x = 80;
  const width = pageWidth - 160;
  const name = `${certificate.licensee.firstName} ${certificate.licensee.lastName}`.trim();

  doc.font("Helvetica-Bold").fontSize(12).fillColor(BRAND).text(certificate.platformName.toUpperCase(), x, 64, { width, align: "center", characterSpacing: 2 });
  doc.moveDown(0.6);
  doc.font("Helvetica-Bold").fontSize(30).fillColor(INK).text("Licence Certificate", { width, align: "center" });
  doc.moveDown(0.6);
  doc.font("Helvetica").fontSize(12).fillColor(MUTED).text("This certifies that", { width, align: "center" });
  doc.moveDown(0.3);
  doc.font("Helvetica-Bold").fontSize(22).fillColor(INK).text(name, { width, align: "center" });
  doc.moveDown(0.3);
  doc.font("Helvetica").fontSize(12).fillColor(MUTED).text(`holds a ${certificate.typeLabel.toLowerCase()} for`, { width, align: "center" });
  doc.moveDown(0.3);
  doc.font("Helvetica-Bold").fontSize(16).fillColor(INK).text(certificate.item, { width, align: "center" });
  doc.moveDown(1.2);

  const columnX = x + 60;
  const columnWidth = width - 120;
  fieldRows(
    doc,
    [
      ["Licensee", name],
      ["Licence type", certificate.typeLabel],
      ["Term", `${formatDate(certificate.startDate)} to ${formatDate(certificate.endDate)}`],
      ["Licence id", certificate.id],
      ["Rights", certificate.rights.join("\n")],
      ["Status on issue", certificate.state === "valid" ? "Valid" : `Not valid (${certificate.state})`],
    ],
    columnX,
    columnWidth,
  );
  doc.moveDown(0.8);
  doc.font("Helvetica").fontSize(10).fillColor(MUTED).text("Check that this licence is valid today at", columnX, doc.y, { width: columnWidth, align: "center" });
  doc.font("Helvetica").fontSize(10).fillColor(BRAND).text(certificate.verifyUrl, columnX, doc.y, {
    width: columnWidth,
    align: "center",
    link: certificate.verifyUrl,
    underline: true,
  });

  doc.end();
  return done;
}
