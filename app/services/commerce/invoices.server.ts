import { prisma } from "~/lib/db.server.ts";
import { notFound } from "~/lib/errors.server.ts";
import { Prisma } from "~/generated/prisma/client.ts";
import type { ProviderTax } from "~/lib/payments/provider.server.ts";
import { UUID_RE } from "~/validation/account.ts";
import { type BillingDetailsInput, INVOICE_NOT_FOUND, isEuCountry, looksLikeEuVatId, parseTaxRates } from "~/validation/invoicing.ts";
import { type Actor, recordAudit } from "../admin/audit.server.ts";
import { readSettings } from "../site/settings.server.ts";
import { canManage, getMembership, mayHaveRecord } from "../practices/practices.server.ts";

// Tax invoices and credit notes (decision 029). Each completed payment gets an invoice and each
// refund a credit note, issued in the transaction that records the payment or the refund. A
// number comes from its series' counter row, taken under the row's lock: a transaction that rolls
// back gives its number back, so numbers have no gaps and never repeat, whatever runs at once.
// Prices are what the buyer pays, tax included: the invoice splits them into net and tax.

type Tx = Prisma.TransactionClient;

const SERIES = { invoice: "INV", credit_note: "CN" } as const;

/** The number people read: the series and six digits, e.g. INV-000042. */
export function invoiceCode(invoice: { series: string; number: number }) {
  return `${invoice.series}-${String(invoice.number).padStart(6, "0")}`;
}

export const REVERSE_CHARGE_NOTE = "Reverse charge: VAT to be accounted for by the recipient (Article 196, Council Directive 2006/112/EC).";

type TaxBuyer = { country: string | null; taxId: string | null };
type TaxRule = { sellerCountry: string; rates: Map<string, number> };

/**
 * The rate (percent) and note for a buyer. A business in another EU state with an EU VAT number
 * of the right shape: reverse charge, 0 %. Otherwise the rate table's rate for the buyer's country
 * (the seller's when the buyer gave none); a country the table does not list is charged no tax.
 */
export function taxFor(rule: TaxRule, buyer: TaxBuyer): { rate: number; note: string | null } {
  const buyerCountry = buyer.country ?? rule.sellerCountry;
  if (
    buyer.taxId &&
    buyer.country &&
    isEuCountry(buyer.country) &&
    isEuCountry(rule.sellerCountry) &&
    buyer.country !== rule.sellerCountry &&
    looksLikeEuVatId(buyer.taxId, buyer.country)
  ) {
    return { rate: 0, note: REVERSE_CHARGE_NOTE };
  }
  return { rate: rule.rates.get(buyerCountry) ?? 0, note: null };
}

/** A total with tax included, split at `rate` percent: the tax is what remains after the rounded net. */
export function splitTotal(total: Prisma.Decimal, rate: number) {
  const net = total.div(new Prisma.Decimal(rate).div(100).plus(1)).toDecimalPlaces(2, Prisma.Decimal.ROUND_HALF_UP);
  return { net, tax: total.minus(net) };
}

/** A total split as the provider taxed it: its tax, the rest net, the rate as the two make it (percent, 2 decimals). */
export function fromProvider(total: Prisma.Decimal, providerTax: ProviderTax) {
  const taxAmount = new Prisma.Decimal(providerTax.amountCents).div(100);
  const net = total.minus(taxAmount);
  const rate = net.greaterThan(0) ? taxAmount.div(net).times(100).toDecimalPlaces(2, Prisma.Decimal.ROUND_HALF_UP).toNumber() : 0;
  return { tax: { rate, note: providerTax.reverseCharge ? REVERSE_CHARGE_NOTE : null }, net, taxAmount };
}

/** The seller's side of an invoice, read through the issuing transaction (readSettings says why). */
async function seller(tx: Tx) {
  const settings = await readSettings(tx);
  return {
    name: settings.seller_legal_name || settings.platform_name,
    address: settings.seller_address,
    taxId: settings.seller_tax_id,
    rule: { sellerCountry: settings.seller_country, rates: parseTaxRates(settings.tax_rates) ?? new Map<string, number>() },
  };
}

/** The series' next number, taken under its counter row's lock until the transaction ends. */
async function nextNumber(tx: Tx, series: string) {
  await tx.$executeRaw`INSERT INTO "InvoiceCounter" ("series", "next") VALUES (${series}, 1) ON CONFLICT ("series") DO NOTHING`;
  const [row] = await tx.$queryRaw<Array<{ number: number }>>`
    UPDATE "InvoiceCounter" SET "next" = "next" + 1 WHERE "series" = ${series} RETURNING "next" - 1 AS "number"`;
  return Number(row!.number);
}

/**
 * The invoice of a completed payment, made out to the member's billing details as they are now
 * (or the member's name and e-mail). Once per payment. Call it last in the payment's transaction:
 * the series' counter stays locked until the transaction ends.
 */
export async function issueInvoice(tx: Tx, paymentId: string, now = new Date(), providerTax: ProviderTax | null = null) {
  const existing = await tx.invoice.findFirst({ where: { paymentId, kind: "invoice" }, select: { id: true } });
  if (existing) return existing;
  const payment = await tx.payment.findUniqueOrThrow({
    where: { id: paymentId },
    select: {
      id: true,
      userId: true,
      amount: true,
      currency: true,
      description: true,
      stripePaymentIntentId: true,
      stripeInvoiceId: true,
      licenceTermsVersion: true,
      practiceId: true,
      // A practice's purchase is made out to the practice (decision 030), anyone else's to their billing details.
      practice: { select: { legalName: true, address: true, country: true, taxId: true, billingEmail: true } },
      user: { select: { firstName: true, lastName: true, email: true, billingDetails: true } },
    },
  });
  const details = payment.practice ?? payment.user.billingDetails;
  const from = await seller(tx);
  // Stripe Tax's own amounts when it computed them (STRIPE_TAX); otherwise the rate table's.
  const { tax, net, taxAmount } = providerTax
    ? fromProvider(payment.amount, providerTax)
    : (() => {
        const tax = taxFor(from.rule, { country: details?.country ?? null, taxId: details?.taxId ?? null });
        const split = splitTotal(payment.amount, tax.rate);
        return { tax, net: split.net, taxAmount: split.tax };
      })();
  return tx.invoice.create({
    data: {
      kind: "invoice",
      series: SERIES.invoice,
      number: await nextNumber(tx, SERIES.invoice),
      issuedAt: now,
      userId: payment.userId,
      practiceId: payment.practiceId,
      paymentId: payment.id,
      description: payment.description ?? "Payment",
      currency: payment.currency,
      netAmount: net,
      taxRate: tax.rate,
      taxAmount,
      totalAmount: payment.amount,
      taxNote: tax.note,
      sellerName: from.name,
      sellerAddress: from.address,
      sellerTaxId: from.taxId,
      buyerName: details?.legalName ?? `${payment.user.firstName} ${payment.user.lastName}`.trim(),
      buyerEmail: details?.billingEmail ?? payment.user.email,
      buyerAddress: details?.address ?? null,
      buyerCountry: details?.country ?? null,
      buyerTaxId: details?.taxId ?? null,
      paymentReference: payment.stripePaymentIntentId ?? payment.stripeInvoiceId ?? payment.id,
      licenceTermsVersion: payment.licenceTermsVersion,
    },
    select: { id: true },
  });
}

/**
 * The credit note of a refunded payment: its invoice's amounts, negative, to the same buyer with
 * the same tax treatment. A payment from before invoices existed gets its invoice first, so every
 * credit note credits one. Once per payment; last in the refund's transaction, as issueInvoice.
 */
export async function issueCreditNote(tx: Tx, paymentId: string, now = new Date()) {
  const existing = await tx.invoice.findFirst({ where: { paymentId, kind: "credit_note" }, select: { id: true } });
  if (existing) return existing;
  await issueInvoice(tx, paymentId, now);
  const invoice = await tx.invoice.findFirstOrThrow({ where: { paymentId, kind: "invoice" } });
  const { id, number: _number, series: _series, issuedAt: _issuedAt, kind: _kind, ...copied } = invoice;
  return tx.invoice.create({
    data: {
      ...copied,
      kind: "credit_note",
      series: SERIES.credit_note,
      number: await nextNumber(tx, SERIES.credit_note),
      issuedAt: now,
      creditedId: id,
      description: `Refund: ${invoice.description}`,
      netAmount: invoice.netAmount.negated(),
      taxAmount: invoice.taxAmount.negated(),
      totalAmount: invoice.totalAmount.negated(),
    },
    select: { id: true },
  });
}

// ---- reading ----

const listSelect = {
  id: true,
  kind: true,
  series: true,
  number: true,
  issuedAt: true,
  description: true,
  currency: true,
  totalAmount: true,
  paymentId: true,
} satisfies Prisma.InvoiceSelect;

export type InvoiceSummary = ReturnType<typeof toSummary>;

function toSummary(row: Prisma.InvoiceGetPayload<{ select: typeof listSelect }>) {
  return {
    id: row.id,
    kind: row.kind,
    number: invoiceCode(row),
    issuedAt: row.issuedAt,
    description: row.description,
    currency: row.currency.toUpperCase(),
    total: Number(row.totalAmount),
    paymentId: row.paymentId,
  };
}

/**
 * The member's invoices and credit notes, and their practice's when they are its owner or
 * manager (decision 030), newest first (bounded: a year of renewals is one row).
 */
export async function listInvoices(userId: string, take = 100) {
  const membership = await getMembership(userId);
  const practiceId = membership && canManage(membership.role) ? membership.practiceId : null;
  const rows = await prisma.invoice.findMany({
    where: { OR: [{ userId, practiceId: null }, ...(practiceId ? [{ practiceId }] : [])] },
    orderBy: [{ issuedAt: "desc" }, { number: "desc" }],
    take,
    select: listSelect,
  });
  return rows.map(toSummary);
}

export type InvoiceDocument = Omit<NonNullable<Awaited<ReturnType<typeof readInvoice>>>, "userId" | "practiceId">;

type Viewer = { id: string; role: "user" | "admin" };

/** One invoice as issued: the buyer's own, or any for an admin; otherwise "Invoice not found". */
export async function getInvoice(viewer: Viewer, invoiceId: string) {
  const invoice = UUID_RE.test(invoiceId) ? await readInvoice(invoiceId) : null;
  // Someone else's answers exactly like a missing one.
  if (!invoice || !(await mayHaveRecord(viewer, invoice, "billing"))) throw notFound(INVOICE_NOT_FOUND);
  const { userId: _userId, practiceId: _practiceId, ...document } = invoice;
  return document;
}

/** An invoice as issued, for the server's own use (the receipt mail's attachment). */
export async function readInvoice(invoiceId: string) {
  const row = await prisma.invoice.findUnique({ where: { id: invoiceId }, include: { credited: { select: { series: true, number: true } } } });
  if (!row) return null;
  return {
    ...toSummary(row),
    userId: row.userId,
    practiceId: row.practiceId,
    title: row.kind === "invoice" ? "Invoice" : "Credit note",
    credits: row.credited ? invoiceCode(row.credited) : null,
    seller: { name: row.sellerName, address: row.sellerAddress, taxId: row.sellerTaxId },
    buyer: { name: row.buyerName, email: row.buyerEmail, address: row.buyerAddress, country: row.buyerCountry, taxId: row.buyerTaxId },
    net: Number(row.netAmount),
    taxRate: Number(row.taxRate),
    tax: Number(row.taxAmount),
    taxNote: row.taxNote,
    paymentReference: row.paymentReference,
    licenceTermsVersion: row.licenceTermsVersion,
  };
}

// ---- the buyer's details ----

export async function getBillingDetails(userId: string) {
  return prisma.billingDetails.findUnique({
    where: { userId },
    select: { legalName: true, address: true, country: true, taxId: true, billingEmail: true, updatedAt: true },
  });
}

/** Saves who the member's next invoices are made out to (issued invoices keep what they printed). */
export async function saveBillingDetails(user: Actor, input: BillingDetailsInput) {
  const data = {
    legalName: input.legalName,
    address: input.address,
    country: input.country,
    taxId: input.taxId ?? null,
    billingEmail: input.billingEmail ?? null,
  };
  return prisma.$transaction(async (tx) => {
    const saved = await tx.billingDetails.upsert({ where: { userId: user.id }, create: { userId: user.id, ...data }, update: data });
    await recordAudit(tx, user, {
      action: "billing.details_update",
      entityType: "user",
      entityId: user.id,
      summary: `Billing details: ${data.legalName} (${data.country})`,
    });
    return saved;
  });
}
