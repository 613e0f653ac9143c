import { formatDate, formatMoney, pluralize } from "~/lib/format.ts";
import { appUrl } from "~/lib/mail.server.ts";
import { amountRow, BRAND, fieldRows, INK, itemTable, MUTED, openPdf, RULE, rule } from "~/lib/pdf.server.ts";
import { formatMedicalReview } from "../catalogue/medical-review-claim.ts";
import { type Certificate, licenceFacts, RECEIPT_STATUS_LABEL, type Receipt } from "./documents.server.ts";
// The PDF layouts of receipts and licence certificates: they lay out only what documents.server.ts
// decided the viewer may see, as bytes made with pdfkit's built-in fonts (no files to ship, no browser).

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

/** The receipt as an A4 PDF: heading, seller, buyer, the line item, the total and the status. */
export async function renderReceiptPdf(receipt: Receipt, options: PdfOptions = {}): Promise<Uint8Array<ArrayBuffer>> {
  const { doc, bytes, x, width } = await openPdf({
    size: "A4",
    margin: 56,
    compress: options.compress ?? true,
    info: {
      Title: `Receipt ${receipt.number} - ${receipt.description}`,
      Author: receipt.platformName,
      Subject: "Payment receipt",
    },
  });
  const amount = formatMoney(receipt.amount);

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
      ...(receipt.licenceTerms ? ([["Accepted", receipt.licenceTerms]] as [string, string][]) : []),
    ],
    x,
    width,
  );
  rule(doc, x, width);

  itemTable(doc, x, width, "Amount", receipt.description, amount);
  amountRow(doc, x, width, "Total", `${amount} ${receipt.currency}`, { total: true });
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
  return bytes;
}

/** The certificate as a landscape A4 PDF: framed, titled "Licence Certificate", with a verify link. */
export async function renderCertificatePdf(certificate: Certificate, options: PdfOptions = {}): Promise<Uint8Array<ArrayBuffer>> {
  const { doc, bytes } = await openPdf({
    size: "A4",
    layout: "landscape",
    margin: 60,
    compress: options.compress ?? true,
    info: {
      Title: `License Certificate - ${certificate.focus ?? certificate.item}`,
      Author: certificate.platformName,
      Subject: `${certificate.typeLabel} ${certificate.id}`,
    },
  });
  const { width: pageWidth, height: pageHeight } = doc.page;
  doc
    .rect(24, 24, pageWidth - 48, pageHeight - 48)
    .lineWidth(3)
    .strokeColor(BRAND)
    .stroke();
  doc
    .rect(32, 32, pageWidth - 64, pageHeight - 64)
    .lineWidth(0.75)
    .strokeColor(RULE)
    .stroke();

  const x = 80;
  const width = pageWidth - 160;
  const name = certificate.licensee;

  doc.font("Helvetica-Bold").fontSize(12).fillColor(BRAND).text(certificate.platformName.toUpperCase(), x, 64, { width, align: "center", characterSpacing: 2 });
  doc.moveDown(0.6);
  doc.font("Helvetica-Bold").fontSize(30).fillColor(INK).text("License Certificate", { width, align: "center" });
  doc.moveDown(0.6);
  doc.font("Helvetica").fontSize(12).fillColor(MUTED).text("This certifies that", { width, align: "center" });
  doc.moveDown(0.3);
  doc.font("Helvetica-Bold").fontSize(22).fillColor(INK).text(name, { width, align: "center" });
  doc.moveDown(0.3);
  doc.font("Helvetica").fontSize(12).fillColor(MUTED).text(certificate.holds, { width, align: "center" });
  doc.moveDown(0.3);
  // A certificate asked for one animation of a category names it first, then the licence it is part of.
  doc
    .font("Helvetica-Bold")
    .fontSize(16)
    .fillColor(INK)
    .text(certificate.focus ?? certificate.item, { width, align: "center" });
  if (certificate.focus && certificate.type === "category") {
    doc.font("Helvetica").fontSize(11).fillColor(MUTED).text(`as part of the license for ${certificate.item}`, { width, align: "center" });
  }
  // Only a current review is printed (judged on the day the certificate is made).
  if (certificate.medicalReview) {
    doc.moveDown(0.2);
    doc.font("Helvetica").fontSize(10).fillColor(MUTED).text(formatMedicalReview(certificate.medicalReview), { width, align: "center" });
  }
  doc.moveDown(1.2);

  const columnX = x + 60;
  const columnWidth = width - 120;
  const facts = licenceFacts(certificate);
  fieldRows(
    doc,
    [
      ...facts.slice(0, -2),
      ["License fee", `${formatMoney(certificate.price)} per year`],
      ...facts.slice(-2),
      ["Status on issue", certificate.state === "valid" ? "Valid" : `Not valid (${certificate.state})`],
    ],
    columnX,
    columnWidth,
  );
  if (certificate.type === "category") {
    const { titles, total } = certificate.animations;
    const more = total - titles.length;
    fieldRows(
      doc,
      [
        [
          "Animations covered",
          [...titles, ...(more > 0 ? [`and ${pluralize(more, "more animation")}: every one is listed at the address below`] : [])].join("\n") || "None today",
        ],
      ],
      columnX,
      columnWidth,
    );
  }
  doc.moveDown(0.8);
  doc
    .font("Helvetica")
    .fontSize(10)
    .fillColor(MUTED)
    .text("Check that this license is valid today at", columnX, doc.y, { width: columnWidth, align: "center" });
  doc.font("Helvetica").fontSize(10).fillColor(BRAND).text(certificate.verifyUrl, columnX, doc.y, {
    width: columnWidth,
    align: "center",
    link: certificate.verifyUrl,
    underline: true,
  });

  doc.end();
  return bytes;
}
