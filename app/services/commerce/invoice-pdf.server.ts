import { formatDate } from "~/lib/format.ts";
import { amountRow, INK, itemTable, MUTED, openPdf, rule } from "~/lib/pdf.server.ts";
import type { InvoiceDocument } from "./invoices.server.ts";

// The invoice or credit note as an A4 PDF, from what the Invoice row holds (nothing is looked up
// again: an invoice prints what it was issued with), in the blocks of lib/pdf.server.ts.

export function invoiceFilename(invoice: Pick<InvoiceDocument, "number">) {
  return `medanim-${invoice.number.toLowerCase()}.pdf`;
}

/** An amount in the invoice's currency, e.g. "USD 83.19" (a credit note's are negative). */
export function invoiceMoney(amount: number, currency: string) {
  return `${currency} ${amount.toLocaleString("en-US", { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;
}

/** The lines of a party's block: name, address lines, country, tax id, e-mail; empty ones left out. */
export function partyLines(party: { name: string; address?: string | null; country?: string | null; taxId?: string | null; email?: string | null }) {
  return [party.name, ...(party.address ?? "").split("\n"), party.country ?? "", party.taxId ? `VAT / Tax ID: ${party.taxId}` : "", party.email ?? ""]
    .map((line) => line.trim())
    .filter(Boolean);
}

/** The licence terms the purchase accepted, as page and PDF print it. */
export function invoiceTermsLine(version: number) {
  return `License terms accepted: version ${version}`;
}

/** The rows of the totals block, as the HTML page shows them too. */
export function invoiceTotals(invoice: InvoiceDocument): [string, string][] {
  return [
    ["Net", invoiceMoney(invoice.net, invoice.currency)],
    [`Tax (${invoice.taxRate}%)`, invoiceMoney(invoice.tax, invoice.currency)],
    ["Total", invoiceMoney(invoice.total, invoice.currency)],
  ];
}

export async function renderInvoicePdf(invoice: InvoiceDocument, { compress = true }: { compress?: boolean } = {}): Promise<Uint8Array<ArrayBuffer>> {
  const { doc, bytes, x, width } = await openPdf({
    size: "A4",
    margin: 56,
    compress,
    info: { Title: `${invoice.title} ${invoice.number}`, Author: invoice.seller.name, Subject: invoice.description },
  });
  const half = (width - 24) / 2;

  doc.font("Helvetica-Bold").fontSize(20).fillColor(INK).text(invoice.title, x, doc.y);
  doc.font("Helvetica").fontSize(11).fillColor(INK).text(`Number ${invoice.number}`);
  doc.text(`Issued ${formatDate(invoice.issuedAt)}`);
  if (invoice.credits) doc.text(`Credits invoice ${invoice.credits}`);
  rule(doc, x, width);

  // Seller and buyer side by side.
  const top = doc.y;
  const party = (heading: string, lines: string[], left: number) => {
    doc.font("Helvetica-Bold").fontSize(10).fillColor(MUTED).text(heading, left, top, { width: half });
    doc.font("Helvetica").fontSize(11).fillColor(INK);
    for (const line of lines) doc.text(line, left, doc.y, { width: half });
    return doc.y;
  };
  const sellerEnd = party("Seller", partyLines(invoice.seller), x);
  const buyerEnd = party("Billed to", partyLines(invoice.buyer), x + half + 24);
  doc.y = Math.max(sellerEnd, buyerEnd);
  rule(doc, x, width);

  itemTable(doc, x, width, "Net", invoice.description, invoiceMoney(invoice.net, invoice.currency));
  for (const [label, value] of invoiceTotals(invoice)) {
    amountRow(doc, x, width, label, value, { total: label === "Total" });
    doc.moveDown(0.3);
  }
  doc.moveDown(1);
  doc.font("Helvetica").fontSize(10).fillColor(INK);
  if (invoice.taxNote) doc.text(invoice.taxNote, x, doc.y, { width });
  if (invoice.paymentReference) doc.text(`Payment reference: ${invoice.paymentReference}`, x, doc.y, { width });
  if (invoice.licenceTermsVersion) doc.text(invoiceTermsLine(invoice.licenceTermsVersion), x, doc.y, { width });
  doc.end();
  return bytes;
}
