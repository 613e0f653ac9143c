import type PDFKitDocument from "pdfkit";

// What every PDF of the app shares (receipts, certificates, invoices): pdfkit's built-in fonts (no
// files to ship, no browser), the palette, and the blocks the documents are made of.

export type Doc = InstanceType<typeof PDFKitDocument>;
type DocOptions = NonNullable<ConstructorParameters<typeof PDFKitDocument>[0]>;

export const INK = "#0f172a";
export const MUTED = "#475569";
export const BRAND = "#1d4ed8";
export const RULE = "#cbd5e1";

/** Width of the right-aligned amount column of an item table. */
const AMOUNT_WIDTH = 130;

/**
 * A new document and the promise of its bytes (resolved at `doc.end()`). pdfkit is loaded on the
 * first PDF: importing it cost about 0.4 s at every start.
 */
export async function openPdf(options: DocOptions) {
  const PDFDocument = (await import("pdfkit")).default;
  const doc: Doc = new PDFDocument(options);
  const bytes = new Promise<Uint8Array<ArrayBuffer>>((resolve, reject) => {
    const chunks: Buffer[] = [];
    doc.on("data", (chunk: Buffer) => chunks.push(chunk));
    doc.on("end", () => resolve(new Uint8Array(Buffer.concat(chunks))));
    doc.on("error", reject);
  });
  return { doc, bytes, x: doc.page.margins.left, width: doc.page.width - doc.page.margins.left - doc.page.margins.right };
}

/** Two columns of label and value, each value wrapping within its column. */
export function fieldRows(doc: Doc, rows: [string, string][], x: number, width: number, labelWidth = 140) {
  for (const [label, value] of rows) {
    const y = doc.y;
    doc.font("Helvetica").fontSize(10).fillColor(MUTED).text(label, x, y, { width: labelWidth });
    doc
      .font("Helvetica")
      .fontSize(11)
      .fillColor(INK)
      .text(value, x + labelWidth, y, { width: width - labelWidth });
    doc.moveDown(0.5);
  }
}

export function rule(doc: Doc, x: number, width: number) {
  doc.moveDown(0.5);
  doc
    .moveTo(x, doc.y)
    .lineTo(x + width, doc.y)
    .lineWidth(0.75)
    .strokeColor(RULE)
    .stroke();
  doc.moveDown(0.8);
}

/** One line item under a heading row ("Item" and the amount's label), the amount aligned right, and a rule. */
export function itemTable(doc: Doc, x: number, width: number, amountLabel: string, item: string, amount: string) {
  let y = doc.y;
  doc
    .font("Helvetica-Bold")
    .fontSize(10)
    .fillColor(MUTED)
    .text("Item", x, y, { width: width - AMOUNT_WIDTH });
  doc.text(amountLabel, x + width - AMOUNT_WIDTH, y, { width: AMOUNT_WIDTH, align: "right" });
  doc.moveDown(0.6);
  y = doc.y;
  doc
    .font("Helvetica")
    .fontSize(11)
    .fillColor(INK)
    .text(item, x, y, { width: width - AMOUNT_WIDTH - 12 });
  const afterItem = doc.y;
  doc.text(amount, x + width - AMOUNT_WIDTH, y, { width: AMOUNT_WIDTH, align: "right" });
  doc.y = Math.max(afterItem, doc.y);
  rule(doc, x, width);
}

/** A label and an amount on one line, the amount aligned right (a total: bold and larger). */
export function amountRow(doc: Doc, x: number, width: number, label: string, amount: string, { total = false } = {}) {
  const y = doc.y;
  doc
    .font(total ? "Helvetica-Bold" : "Helvetica")
    .fontSize(total ? 13 : 11)
    .fillColor(INK)
    .text(label, x, y, { width: width - AMOUNT_WIDTH });
  doc.text(amount, x + width - AMOUNT_WIDTH, y, { width: AMOUNT_WIDTH, align: "right" });
}
