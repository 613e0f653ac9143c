import { prisma } from "~/lib/db.server.ts";
import type { Prisma } from "~/generated/prisma/client.ts";
import { notFound } from "~/lib/errors.server.ts";
import { appUrl } from "~/lib/mail.server.ts";
import { UUID_RE } from "~/validation/account.ts";
import { formatDate, pluralize, withArticle } from "~/lib/format.ts";
import { coveredByCategoryWhere, isActive } from "./access.server.ts";
import { mayHaveRecord } from "../practices/practices.server.ts";
import { formatLicenceTermsTitle } from "./licence-terms-text.ts";
import type { MedicalReviewClaim } from "../catalogue/medical-review-claim.ts";
import { currentMedicalReview, medicalReviewSelect } from "../catalogue/medical-review.server.ts";
import { getSetting } from "../site/settings.server.ts";

// Receipts, licence certificates and the public licence check (what a buyer gets after the purchase):
// who may see what. Their PDF layouts are in documents-pdf.server.ts.

export const PAYMENT_NOT_FOUND = "Payment not found";
export const LICENCE_NOT_FOUND = "License not found";

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
  /** The licence terms accepted with this payment, as "License terms, version N (in effect from …)". */
  licenceTerms: string | null;
};

/**
 * A receipt number people can read out: derived from the payment id alone, so it never changes
 * and needs no column. 12 hex digits (48 bits) of a random UUID do not collide in practice; the
 * payment id itself is printed beside it for anything that needs certainty.
 */
export function receiptNumber(paymentId: string) {
  return `MED-${paymentId.replace(/-/g, "").slice(0, 12).toUpperCase()}`;
}

const SUBSCRIPTION_TYPE_LABEL = { global: "Premium Yearly Subscription", individual: "Individual license", category: "Category license" } as const;

/** A payment as its receipt: the owner's own, or any for an admin; otherwise "Payment not found". */
export async function getReceipt(user: Viewer, paymentId: string): Promise<Receipt> {
  if (!UUID_RE.test(paymentId)) throw notFound(PAYMENT_NOT_FOUND);
  const payment = await prisma.payment.findUnique({
    where: { id: paymentId },
    select: {
      id: true,
      userId: true,
      practiceId: true,
      amount: true,
      currency: true,
      status: true,
      description: true,
      subscriptionType: true,
      stripeInvoiceId: true,
      stripePaymentIntentId: true,
      createdAt: true,
      licenceTerms: { select: { version: true, effectiveFrom: true } },
      user: { select: { firstName: true, lastName: true, email: true } },
      practice: { select: { legalName: true, billingEmail: true } },
    },
  });
  // Someone else's payment answers exactly like a missing one: ids are not confirmed to strangers.
  if (!payment || !(await mayHaveRecord(user, payment, "billing"))) throw notFound(PAYMENT_NOT_FOUND);
  return {
    paymentId: payment.id,
    number: receiptNumber(payment.id),
    date: payment.createdAt,
    platformName: await getSetting("platform_name"),
    buyer: payment.practice
      ? { name: payment.practice.legalName, email: payment.practice.billingEmail ?? payment.user.email }
      : { name: `${payment.user.firstName} ${payment.user.lastName}`.trim(), email: payment.user.email },
    description: payment.description ?? (payment.subscriptionType ? SUBSCRIPTION_TYPE_LABEL[payment.subscriptionType] : "Payment"),
    amount: Number(payment.amount),
    currency: payment.currency.toUpperCase(),
    status: payment.status,
    invoiceId: payment.stripeInvoiceId,
    paymentIntentId: payment.stripePaymentIntentId,
    licenceTerms: payment.licenceTerms ? formatLicenceTermsTitle(payment.licenceTerms) : null,
  };
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
 * What a licence gives: commercial usage rights, download rights, and premium access. The same
 * three lines on the certificate and on the public verification page.
 */
const LICENCE_RIGHTS = [
  "Commercial use of the licensed animations",
  "Download of the licensed animation files",
  "Premium access: streaming of every animation in the library",
] as const;

/** A practice's licence gives its members the licensed animations; premium streaming stays personal (decision 030). */
const PRACTICE_LICENCE_RIGHTS = LICENCE_RIGHTS.slice(0, 2);

const LICENCE_TYPE_LABEL = { individual: "Individual license", category: "Category license" } as const;

/** A certificate names at most this many animations; the verify page it links to lists them all. */
export const CERTIFICATE_ANIMATION_LIMIT = 25;
/** The verify page's list is whole up to this: a category holds a few dozen in practice. */
const VERIFY_ANIMATION_LIMIT = 1_000;

export type LicenceState = "valid" | "expired" | "canceled" | "refunded" | "pending";

export type Licence = {
  id: string;
  type: "individual" | "category";
  typeLabel: string;
  /** The practice it was bought for, or the person who bought it. */
  licensee: string;
  /** How many people may use it (1: a person's own). */
  seats: number;
  /** What was licensed: the animation, or the category. */
  item: string;
  /** "holds an individual license for": the sentence a certificate opens with. */
  holds: string;
  /**
   * The animations it covers today, in title order: the one animation of an individual licence,
   * the active animations of a category (up to `limit`); `total` counts them all.
   */
  animations: { titles: string[]; total: number };
  /** The animation a certificate was asked for, when it names one (a category licence's card). */
  focus: string | null;
  /** The sites its embeds are licensed for (LicenceEmbedDomain), as registered. */
  embedSites: string[];
  /** The licence terms its purchase accepted; null for a purchase from before they were versioned. */
  terms: { version: number; effectiveFrom: Date } | null;
  startDate: Date | null;
  endDate: Date | null;
  rights: readonly string[];
  state: LicenceState;
  verifyUrl: string;
  /**
   * An individual licence's animation's current medical review, judged on the day the document
   * is made; null for a category licence and for an animation without a current review.
   */
  medicalReview: MedicalReviewClaim | null;
};

/** `price` is what the licence was bought for (the subscription's price, the amount charged). */
export type Certificate = Licence & { platformName: string; price: number };

const licenceSelect = {
  id: true,
  userId: true,
  type: true,
  status: true,
  startDate: true,
  endDate: true,
  price: true,
  categoryId: true,
  seats: true,
  practiceId: true,
  practice: { select: { legalName: true } },
  user: { select: { id: true, role: true, accountType: true, firstName: true, lastName: true } },
  animation: { select: { id: true, title: true, ...medicalReviewSelect } },
  category: { select: { name: true } },
  embedDomains: { orderBy: { host: "asc" }, select: { host: true } },
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
  // The rule itself, not the payer's access: a practice's licence stays valid when its payer leaves.
  if (isActive(row, now)) return "valid";
  if (row.payments.length > 0) return "refunded";
  if (row.status === "canceled") return "canceled";
  if (row.status === "pending") return "pending";
  return "expired";
}

/** The animations a licence covers today (by the access rules' own definition of a category's). */
async function coveredAnimations(row: LicenceRow, limit: number) {
  if (row.type === "individual") return { titles: row.animation ? [row.animation.title] : [], total: row.animation ? 1 : 0 };
  if (!row.categoryId) return { titles: [], total: 0 };
  const where = { isActive: true, ...coveredByCategoryWhere(row.categoryId) };
  const [animations, total] = await Promise.all([
    prisma.animation.findMany({ where, orderBy: [{ title: "asc" }, { id: "asc" }], take: limit, select: { title: true } }),
    prisma.animation.count({ where }),
  ]);
  return { titles: animations.map((a) => a.title), total };
}

/** The terms of the licence's latest purchase that accepted a version (its first payment; a renewal accepts none yet). */
async function acceptedTerms(subscriptionId: string) {
  const payment = await prisma.payment.findFirst({
    where: { subscriptionId, licenceTermsVersion: { not: null } },
    orderBy: { createdAt: "desc" },
    select: { licenceTerms: { select: { version: true, effectiveFrom: true } } },
  });
  return payment?.licenceTerms ?? null;
}

/** The animation a certificate names, when asked for one: it must be one the licence covers. */
async function focusAnimation(row: LicenceRow, animationId: string | undefined) {
  if (animationId === undefined) return null;
  if (!UUID_RE.test(animationId)) throw notFound(ANIMATION_NOT_COVERED);
  if (row.type === "individual") {
    if (row.animation?.id !== animationId) throw notFound(ANIMATION_NOT_COVERED);
    return row.animation.title;
  }
  const animation = row.categoryId
    ? await prisma.animation.findFirst({ where: { id: animationId, isActive: true, ...coveredByCategoryWhere(row.categoryId) }, select: { title: true } })
    : null;
  if (!animation) throw notFound(ANIMATION_NOT_COVERED);
  return animation.title;
}

export const ANIMATION_NOT_COVERED = "This license does not cover that animation";

async function toLicence(row: LicenceRow, now: Date, { limit, animationId }: { limit: number; animationId?: string }): Promise<Licence> {
  const type = row.type as "individual" | "category";
  const [state, animations, terms, focus] = await Promise.all([
    licenceState(row, now),
    coveredAnimations(row, limit),
    acceptedTerms(row.id),
    focusAnimation(row, animationId),
  ]);
  return {
    id: row.id,
    type,
    typeLabel: LICENCE_TYPE_LABEL[type],
    licensee: row.practice?.legalName ?? `${row.user.firstName} ${row.user.lastName}`.trim(),
    seats: row.seats,
    item:
      type === "individual"
        ? (row.animation?.title ?? "Animation no longer in the library")
        : `${row.category?.name ?? "Category no longer in the library"} (category)`,
    holds: `holds ${withArticle(LICENCE_TYPE_LABEL[type].toLowerCase())} for`,
    animations,
    focus,
    embedSites: row.embedDomains.map((d) => d.host),
    terms,
    startDate: row.startDate,
    endDate: row.endDate,
    rights: row.practiceId ? PRACTICE_LICENCE_RIGHTS : LICENCE_RIGHTS,
    state,
    verifyUrl: verifyUrl(row.id),
    medicalReview: type === "individual" && row.animation ? currentMedicalReview(row.animation, now) : null,
  };
}

/**
 * The facts a certificate states, as label and value, in order: the PDF and the public verify page
 * both print these rows, so they cannot disagree. The covered animations are listed beside them.
 */
export function licenceFacts(licence: Licence): [string, string][] {
  const covers = licence.type === "individual" ? licence.item : `${licence.item}: ${pluralize(licence.animations.total, "animation")} on the day of issue`;
  return [
    ["Licensee", licence.licensee],
    ["License type", licence.typeLabel],
    ["Seats", licence.seats === 1 ? "1 (the licensee alone)" : `${licence.seats} people of the practice`],
    ["Covers", covers],
    ["Valid", `${formatDate(licence.startDate)} to ${formatDate(licence.endDate)}`],
    ["Embed sites", licence.embedSites.length ? licence.embedSites.join(", ") : "None registered"],
    ["License terms", licence.terms ? formatLicenceTermsTitle(licence.terms) : "Not recorded (bought before the terms were versioned)"],
    ["License id", licence.id],
    ["Rights", licence.rights.join("\n")],
  ];
}

/**
 * The certificate of the user's own individual or category licence (admins: any licence). With
 * `animationId` it names that animation first (it must be one the licence covers: else 404).
 */
export async function getCertificate(
  user: Viewer,
  subscriptionId: string,
  { animationId, now = new Date() }: { animationId?: string; now?: Date } = {},
): Promise<Certificate> {
  const row = await findLicence(subscriptionId);
  if (!row || !(await mayHaveRecord(user, row, "use"))) throw notFound(LICENCE_NOT_FOUND);
  const [licence, platformName] = await Promise.all([toLicence(row, now, { limit: CERTIFICATE_ANIMATION_LIMIT, animationId }), getSetting("platform_name")]);
  return { ...licence, platformName, price: Number(row.price) };
}

/**
 * The public check behind /licences/{id}/verify: anyone holding the link may ask. It tells only
 * what the certificate already shows to whoever it is handed to: the licensee's name (no e-mail
 * or anything else about them), the item and every animation it covers, the type, the term, the
 * embed sites, the terms version, the rights and today's validity.
 */
export async function verifyLicence(id: string, now = new Date()): Promise<Licence> {
  const row = await findLicence(id);
  if (!row) throw notFound(LICENCE_NOT_FOUND);
  return toLicence(row, now, { limit: VERIFY_ANIMATION_LIMIT });
}

export const LICENCE_STATE_REASON: Record<Exclude<LicenceState, "valid">, string> = {
  expired: "The license term has ended.",
  canceled: "The license was canceled.",
  refunded: "The license was refunded and canceled.",
  pending: "The license has not been paid for.",
};
