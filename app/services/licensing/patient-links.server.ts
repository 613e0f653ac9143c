import crypto from "node:crypto";
import QRCode from "qrcode";
import { prisma } from "~/lib/db.server.ts";
import { forbidden, notFound, ServiceError, tooManyRequests } from "~/lib/errors.server.ts";
import { formatLongDate } from "~/lib/format.ts";
import { appUrl, sendTemplatedEmail } from "~/lib/mail.server.ts";
import { consumeRateLimit, tooManyAttemptsMessage } from "~/lib/rate-limit.server.ts";
import { escapeHtml } from "~/lib/sanitize.server.ts";
import { currentMedicalReview, medicalReviewSelect } from "~/services/catalogue/medical-review.server.ts";
import { mayHaveRecord } from "~/services/practices/practices.server.ts";
import {
  DEFAULT_LINK_DAYS,
  EXPIRY_IN_PAST,
  EXPIRY_PAST_LICENCE,
  LICENCE_NOT_ACTIVE,
  LICENCE_NOT_FOUND,
  LINK_EMAILS_PER_HOUR,
  LINK_NOT_FOUND,
  MANAGERS_ONLY,
  NOT_COVERED,
  type PatientLinkInput,
} from "~/validation/patient-links.ts";
import { coveredByCategoryWhere, isActive } from "./access.server.ts";

// Patient links (issue 46): a licensee sends a patient its licensed animations, full, with no
// account, until the link expires or is revoked. The token is the link's only secret: 32 random
// bytes (256 bits), never derived from anything. Pages: /licences/{id} (the clinic), /p/{token}
// (the patient). Media: the link's own signed grant (media-urls.server.ts, embed-media.server.ts),
// re-checked against the link and its licence on every request (patient-link-access.server.ts).

type Viewer = { id: string; role?: "user" | "admin" };

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const DAY_MS = 24 * 60 * 60 * 1000;
/** How many animations of a category licence the link form offers to choose from. */
const CHOICES = 300;

const licenceRowSelect = {
  id: true,
  userId: true,
  practiceId: true,
  type: true,
  status: true,
  startDate: true,
  endDate: true,
  animationId: true,
  categoryId: true,
  animation: { select: { id: true, title: true, slug: true } },
  category: { select: { id: true, name: true } },
  practice: { select: { legalName: true, logo: true } },
  user: { select: { firstName: true, lastName: true } },
} as const;

/**
 * The licence as its page shows it, for anyone who may use it (a practice's members see it; its
 * owners and managers share it). A licence the viewer may not have answers like a missing one.
 */
export async function getLicenceForPage(viewer: Viewer, licenceId: string, now = new Date()) {
  const licence = await licenceToUse(viewer, licenceId);
  const [mayShare, animations] = await Promise.all([
    mayHaveRecord(viewer, licence, "billing"),
    prisma.animation.findMany({
      where: licence.categoryId ? { isActive: true, ...coveredByCategoryWhere(licence.categoryId) } : { id: licence.animationId ?? "", isActive: true },
      orderBy: [{ title: "asc" }, { id: "asc" }],
      take: CHOICES,
      select: { id: true, title: true, slug: true },
    }),
  ]);
  return {
    id: licence.id,
    type: licence.type,
    title: licence.animation?.title ?? licence.category?.name ?? "License",
    practice: licence.practice?.legalName ?? null,
    startDate: licence.startDate,
    endDate: licence.endDate,
    active: isActive(licence, now),
    /** Whether this viewer may create, send and revoke its patient links. */
    mayShare,
    animations,
  };
}

export type LicencePage = Awaited<ReturnType<typeof getLicenceForPage>>;

/** An individual or category licence the viewer may use; any other answers like a missing one. */
async function licenceToUse(viewer: Viewer, licenceId: string) {
  const licence = UUID.test(licenceId) ? await prisma.subscription.findUnique({ where: { id: licenceId.toLowerCase() }, select: licenceRowSelect }) : null;
  if (!licence || (licence.type !== "individual" && licence.type !== "category") || !(await mayHaveRecord(viewer, licence, "use"))) {
    throw notFound(LICENCE_NOT_FOUND);
  }
  return licence;
}

/** The licence, for someone who may share it (its holder, a practice's owner or manager, an admin). */
async function licenceToShare(viewer: Viewer, licenceId: string) {
  const licence = await licenceToUse(viewer, licenceId);
  if (!(await mayHaveRecord(viewer, licence, "billing"))) throw forbidden(MANAGERS_ONLY);
  return licence;
}

/** Who the patient is told the link is from: the practice, else the licensee's own name. */
function clinicNameOf(licence: { practice: { legalName: string } | null; user: { firstName: string; lastName: string } }) {
  return licence.practice?.legalName ?? (`${licence.user.firstName} ${licence.user.lastName}`.trim() || "Your clinic");
}

function newToken() {
  return crypto.randomBytes(32).toString("base64url");
}

export function patientLinkUrl(token: string) {
  return `${appUrl()}/p/${token}`;
}

/**
 * A new link for the licence's animations, in the order chosen. The expiry defaults to
 * DEFAULT_LINK_DAYS, cut to the licence's end; a date after the licence's end is refused. With
 * `recipientEmail` the link is also e-mailed (sendPatientLink).
 */
export async function createPatientLink(viewer: Viewer, licenceId: string, input: PatientLinkInput, now = new Date()) {
  const licence = await licenceToShare(viewer, licenceId);
  if (!isActive(licence, now)) throw new ServiceError(LICENCE_NOT_ACTIVE, 409);
  const ids = [...new Set(input.animationIds.map((id) => id.toLowerCase()))];
  const covered = await prisma.animation.findMany({
    where: {
      id: { in: ids },
      isActive: true,
      ...(licence.categoryId ? coveredByCategoryWhere(licence.categoryId) : { id: licence.animationId ?? "" }),
    },
    select: { id: true },
  });
  if (covered.length !== ids.length) throw new ServiceError(NOT_COVERED, 400, "animationIds");
  const expiresAt = linkExpiry(input.expiresOn, licence.endDate, now);
  const link = await prisma.patientLink.create({
    data: {
      token: newToken(),
      subscriptionId: licence.id,
      createdById: viewer.id,
      label: input.label,
      note: input.note,
      language: input.language,
      expiresAt,
      animations: { create: ids.map((animationId, position) => ({ animationId, position })) },
    },
    select: { id: true, token: true },
  });
  if (input.recipientEmail) await sendPatientLink(viewer, licence.id, link.id, input.recipientEmail, now);
  return link;
}

/** The end of the day chosen (UTC), or DEFAULT_LINK_DAYS from now; never past the licence's end. */
function linkExpiry(expiresOn: string | undefined, licenceEnd: Date | null, now: Date) {
  const cap = licenceEnd ?? new Date(now.getTime() + 365 * DAY_MS);
  if (!expiresOn) {
    const byDefault = new Date(now.getTime() + DEFAULT_LINK_DAYS * DAY_MS);
    return byDefault < cap ? byDefault : cap;
  }
  const day = new Date(`${expiresOn}T23:59:59.999Z`);
  if (Number.isNaN(day.getTime())) throw new ServiceError("Enter a date", 400, "expiresOn");
  if (day <= now) throw new ServiceError(EXPIRY_IN_PAST, 400, "expiresOn");
  // The licence's last day itself is allowed: the link stops with the licence at its end.
  if (licenceEnd && day.getTime() - licenceEnd.getTime() >= DAY_MS) throw new ServiceError(EXPIRY_PAST_LICENCE(formatLongDate(licenceEnd)), 400, "expiresOn");
  return day < cap ? day : cap;
}

/** One of the licence's links, with what its e-mail and its card show; "Patient link not found" otherwise. */
async function linkOfLicence(licenceId: string, linkId: string) {
  const link = UUID.test(linkId)
    ? await prisma.patientLink.findFirst({
        where: { id: linkId.toLowerCase(), subscriptionId: licenceId },
        select: {
          id: true,
          token: true,
          note: true,
          expiresAt: true,
          revokedAt: true,
          animations: { orderBy: { position: "asc" }, select: { animation: { select: { title: true } } } },
        },
      })
    : null;
  if (!link) throw notFound(LINK_NOT_FOUND);
  return link;
}

/**
 * E-mails the link to a patient: from the clinic's name at our address, with the note and the
 * titles, no tracking pixel (the mail has no image at all). At most LINK_EMAILS_PER_HOUR per
 * licence. The address is kept on the link (the clinic's own record of whom it sent it to).
 */
export async function sendPatientLink(viewer: Viewer, licenceId: string, linkId: string, email: string, now = new Date()) {
  const licence = await licenceToShare(viewer, licenceId);
  const link = await linkOfLicence(licence.id, linkId);
  if (link.revokedAt || link.expiresAt <= now) throw new ServiceError("This link has ended: create a new one", 409);
  const limit = await consumeRateLimit(`patient-link-mail:${licence.id}`, { limit: LINK_EMAILS_PER_HOUR, windowMs: 60 * 60 * 1000 }, now);
  if (!limit.allowed) throw tooManyRequests(tooManyAttemptsMessage(limit.retryAfterSeconds), limit.retryAfterSeconds);
  const clinicName = clinicNameOf(licence);
  const titles = link.animations.map((a) => a.animation.title);
  const sent = await sendTemplatedEmail({
    template: "patient_link",
    to: email,
    senderName: clinicName,
    variables: {
      clinicName,
      videoCount: titles.length === 1 ? "a short video" : `${titles.length} short videos`,
      titles: titles.join(", "),
      noteHtml: link.note ? `<p>${escapeHtml(link.note).replace(/\n/g, "<br>")}</p>` : "",
      linkUrl: patientLinkUrl(link.token),
      expiresOn: formatLongDate(link.expiresAt),
    },
  });
  if (!sent) throw new ServiceError("The e-mail could not be sent. Try again, or copy the link.", 502);
  await prisma.patientLink.update({ where: { id: link.id }, data: { recipientEmail: email, sentAt: now } });
}

/** Stops a link at once: its page shows the neutral message, its media URLs stop at their next request. */
export async function revokePatientLink(viewer: Viewer, licenceId: string, linkId: string, now = new Date()) {
  const licence = await licenceToShare(viewer, licenceId);
  const revoked = UUID.test(linkId)
    ? await prisma.patientLink.updateMany({ where: { id: linkId.toLowerCase(), subscriptionId: licence.id, revokedAt: null }, data: { revokedAt: now } })
    : { count: 0 };
  if (revoked.count === 0) {
    const exists = UUID.test(linkId) && (await prisma.patientLink.count({ where: { id: linkId.toLowerCase(), subscriptionId: licence.id } })) > 0;
    if (!exists) throw notFound(LINK_NOT_FOUND);
  }
}

/** A licence's links, newest first, with their state and what the patient did (bounded). */
export async function listPatientLinks(viewer: Viewer, licenceId: string, now = new Date()) {
  const licence = await licenceToShare(viewer, licenceId).catch(() => null);
  if (!licence) return [];
  const links = await prisma.patientLink.findMany({
    where: { subscriptionId: licence.id },
    orderBy: { createdAt: "desc" },
    take: 100,
    select: {
      id: true,
      token: true,
      label: true,
      note: true,
      language: true,
      expiresAt: true,
      recipientEmail: true,
      sentAt: true,
      revokedAt: true,
      firstOpenedAt: true,
      completedAt: true,
      createdAt: true,
      animations: { orderBy: { position: "asc" }, select: { animation: { select: { id: true, title: true } } } },
    },
  });
  return links.map(({ animations, token, ...link }) => ({
    ...link,
    url: patientLinkUrl(token),
    state: link.revokedAt ? ("revoked" as const) : link.expiresAt <= now ? ("expired" as const) : ("live" as const),
    animations: animations.map((a) => a.animation),
  }));
}

export type PatientLinkRow = Awaited<ReturnType<typeof listPatientLinks>>[number];

/** The link's QR code as SVG markup (inline on the clinic's page and its printable card). */
export function patientLinkQrSvg(url: string) {
  return QRCode.toString(url, { type: "svg", errorCorrectionLevel: "M", margin: 2 });
}

/** A link the clinic may print: its QR code and what the patient needs to know. */
export async function getPrintablePatientLink(viewer: Viewer, licenceId: string, linkId: string) {
  const licence = await licenceToShare(viewer, licenceId);
  const link = await linkOfLicence(licence.id, linkId);
  const url = patientLinkUrl(link.token);
  return {
    clinicName: clinicNameOf(licence),
    logo: licence.practice?.logo ?? null,
    url,
    qr: await patientLinkQrSvg(url),
    note: link.note,
    expiresAt: link.expiresAt,
    revoked: link.revokedAt !== null,
    titles: link.animations.map((a) => a.animation.title),
  };
}

// ---- the patient's page ----

const linkAnimationSelect = {
  id: true,
  slug: true,
  title: true,
  duration: true,
  coverImage: true,
  mediaSetId: true,
  fullVideo: true,
  ...medicalReviewSelect,
  captions: { orderBy: { language: "asc" as const }, select: { language: true, label: true, path: true, transcript: true } },
} as const;

/**
 * What a patient's link shows: "live" with the clinic's name, the note, the language and the
 * animations that still play (an animation withdrawn from the catalogue or no longer covered
 * drops out), or "ended" (expired, revoked, or its licence ended): the patient reads the neutral
 * message, never why. An unknown token is "not-found". The first opening is recorded once.
 */
export async function openPatientLink(token: string, now = new Date()) {
  if (!/^[A-Za-z0-9_-]{43}$/.test(token)) return { state: "not-found" as const };
  const link = await prisma.patientLink.findUnique({
    where: { token },
    select: {
      id: true,
      note: true,
      language: true,
      expiresAt: true,
      revokedAt: true,
      firstOpenedAt: true,
      subscription: { select: { ...licenceRowSelect, category: { select: { id: true, name: true } } } },
      animations: {
        orderBy: { position: "asc" },
        select: { animation: { select: { ...linkAnimationSelect, isActive: true, categoryId: true, category: { select: { parentId: true } } } } },
      },
    },
  });
  if (!link) return { state: "not-found" as const };
  const licence = link.subscription;
  const clinicName = clinicNameOf(licence);
  if (link.revokedAt || link.expiresAt <= now || !isActive(licence, now)) return { state: "ended" as const, clinicName, language: link.language };
  if (!link.firstOpenedAt) {
    await prisma.patientLink.updateMany({ where: { id: link.id, firstOpenedAt: null }, data: { firstOpenedAt: now } });
  }
  const playable = link.animations
    .map((a) => a.animation)
    .filter((a) =>
      // Unpublished, only an individual licence keeps it (decision 032).
      licence.type === "individual"
        ? a.id === licence.animationId
        : a.isActive && (a.categoryId === licence.categoryId || a.category?.parentId === licence.categoryId),
    );
  return {
    state: "live" as const,
    linkId: link.id,
    licenceId: licence.id,
    clinicName,
    /** The practice's logo, if it uploaded one (a public object). */
    logo: licence.practice?.logo ?? null,
    note: link.note,
    language: link.language,
    expiresAt: link.expiresAt,
    animations: playable.map((a) => ({
      id: a.id,
      title: a.title,
      duration: a.duration,
      coverImage: a.coverImage,
      mediaSetId: a.mediaSetId,
      hasVideo: Boolean(a.fullVideo),
      /** The current medical review (the page prints it in the link's language), or null. */
      review: currentMedicalReview(a, now),
      captions: a.captions,
    })),
  };
}
