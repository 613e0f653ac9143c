import { prisma } from "~/lib/db.server.ts";
import { conflict, forbidden, notFound, ServiceError } from "~/lib/errors.server.ts";
import { createOpaqueToken, hashToken } from "~/lib/crypto.server.ts";
import { formatLongDate } from "~/lib/format.ts";
import { appUrl, sendTemplatedEmail } from "~/lib/mail.server.ts";
import type { Prisma } from "~/generated/prisma/client.ts";
import { UUID_RE } from "~/validation/account.ts";
import {
  ALREADY_IN_A_PRACTICE,
  INVITATION_DAYS,
  INVITATION_EXPIRED,
  INVITATION_NOT_FOUND,
  INVITATION_OTHER_EMAIL,
  INVITATION_REVOKED,
  INVITATION_USED,
  INVITEE_ALREADY_MEMBER,
  INVITEE_IN_ANOTHER_PRACTICE,
  LAST_OWNER,
  MANAGERS_ONLY,
  MEMBER_NOT_FOUND,
  OWNERS_ONLY,
  PRACTICE_NOT_FOUND,
  type PracticeInput,
  type PracticeRole,
  ROLE_LABEL,
  seatsFull,
} from "~/validation/practices.ts";
import { type Actor, recordAudit } from "../admin/audit.server.ts";

// Practices (decision 030). A member belongs to at most one practice; its licences are held by
// every current member (licensing/access.server.ts `heldWhere`), so joining, leaving and removal
// change what a person may use at their next request. Owners manage the members; owners and
// managers buy, add embed sites and see billing; viewers use what the practice holds. Each change
// runs in one transaction with its audit row, under the practice row's lock so that two
// invitations or acceptances at once cannot overrun the seats or leave the practice ownerless.

type Tx = Prisma.TransactionClient;
type Member = Actor & { firstName: string; lastName: string };

export type Membership = { practiceId: string; role: PracticeRole; practice: { id: string; legalName: string } };

/** The practice a member belongs to and their role in it, or null. */
export async function getMembership(userId: string, db: Pick<Tx, "practiceMember"> = prisma): Promise<Membership | null> {
  return db.practiceMember.findUnique({
    where: { userId },
    select: { practiceId: true, role: true, practice: { select: { id: true, legalName: true } } },
  });
}

/** Whether a role buys for the practice, adds embed sites and sees its billing. */
export function canManage(role: PracticeRole | null | undefined) {
  return role === "owner" || role === "manager";
}

/**
 * Whether `viewer` may have a record that is a person's own or a practice's (a licence, a payment,
 * an invoice): a personal record its owner; a practice's any member for "use" (certificates) and
 * its owners and managers for "billing" (receipts, invoices, renewal switches). An admin reads
 * everything, when `viewer.role` is given; a renewal switch passes none (it is the buyer's).
 */
export async function mayHaveRecord(
  viewer: { id: string; role?: "user" | "admin" },
  row: { userId: string | null; practiceId: string | null },
  need: "use" | "billing",
) {
  if (viewer.role === "admin") return true;
  if (!row.practiceId) return row.userId === viewer.id;
  const membership = await getMembership(viewer.id);
  return membership?.practiceId === row.practiceId && (need === "use" || canManage(membership.role));
}

/** The caller's role in `practiceId` under the practice row's lock; "Practice not found" for an outsider. */
async function lockAs(tx: Tx, user: Actor, practiceId: string, need: "member" | "manager" | "owner") {
  if (!UUID_RE.test(practiceId)) throw notFound(PRACTICE_NOT_FOUND);
  await tx.$queryRaw`SELECT "id" FROM "Practice" WHERE "id" = ${practiceId}::uuid FOR UPDATE`;
  const membership = await tx.practiceMember.findUnique({ where: { userId: user.id }, select: { practiceId: true, role: true } });
  // Someone else's practice answers like a missing one.
  if (!membership || membership.practiceId !== practiceId) throw notFound(PRACTICE_NOT_FOUND);
  if (need === "owner" && membership.role !== "owner") throw forbidden(OWNERS_ONLY);
  if (need === "manager" && !canManage(membership.role)) throw forbidden(MANAGERS_ONLY);
  return membership.role;
}

function practiceData(input: PracticeInput) {
  return {
    legalName: input.legalName,
    address: input.address,
    country: input.country,
    taxId: input.taxId ?? null,
    billingEmail: input.billingEmail ?? null,
  };
}

/** A member founds a practice and becomes its owner. */
export async function createPractice(user: Actor, input: PracticeInput) {
  return prisma.$transaction(async (tx) => {
    if (await tx.practiceMember.findUnique({ where: { userId: user.id }, select: { userId: true } })) throw conflict(ALREADY_IN_A_PRACTICE);
    const practice = await tx.practice.create({ data: practiceData(input), select: { id: true } });
    await tx.practiceMember.create({ data: { userId: user.id, practiceId: practice.id, role: "owner" } });
    await recordAudit(tx, user, {
      action: "practice.create",
      entityType: "practice",
      entityId: practice.id,
      summary: `Created the practice “${input.legalName}” (${input.country})`,
      after: practiceData(input),
    });
    return practice;
  });
}

/** Owners and managers change who the practice's invoices are made out to (issued ones keep theirs). */
export async function updatePractice(user: Actor, practiceId: string, input: PracticeInput) {
  return prisma.$transaction(async (tx) => {
    await lockAs(tx, user, practiceId, "manager");
    const before = await tx.practice.findUniqueOrThrow({
      where: { id: practiceId },
      select: { legalName: true, address: true, country: true, taxId: true, billingEmail: true },
    });
    await tx.practice.update({ where: { id: practiceId }, data: practiceData(input) });
    await recordAudit(tx, user, {
      action: "practice.update",
      entityType: "practice",
      entityId: practiceId,
      summary: `Changed the details of the practice “${input.legalName}”`,
      before,
      after: practiceData(input),
    });
  });
}

/**
 * Sets or clears the practice's logo (a finished image upload's stored path), for its owners and
 * managers. Returns the path it replaced, for the caller to discard once the write is done.
 */
export async function setPracticeLogo(user: Actor, practiceId: string, logo: string | null) {
  return prisma.$transaction(async (tx) => {
    await lockAs(tx, user, practiceId, "manager");
    const before = await tx.practice.findUniqueOrThrow({ where: { id: practiceId }, select: { logo: true, legalName: true } });
    await tx.practice.update({ where: { id: practiceId }, data: { logo } });
    await recordAudit(tx, user, {
      action: "practice.update",
      entityType: "practice",
      entityId: practiceId,
      summary: logo ? `Changed the logo of the practice “${before.legalName}”` : `Removed the logo of the practice “${before.legalName}”`,
      before: { logo: before.logo },
      after: { logo },
    });
    return before.logo !== logo ? before.logo : null;
  });
}

// ---- seats ----

/**
 * How many people the practice's licences cover now: the fewest seats of any active licence
 * (each covers every member), or null while it holds none.
 */
async function seatLimit(tx: Pick<Tx, "subscription">, practiceId: string, now: Date) {
  const licence = await tx.subscription.findFirst({
    where: { practiceId, status: "active", endDate: { gt: now } },
    orderBy: { seats: "asc" },
    select: { seats: true },
  });
  return licence?.seats ?? null;
}

const openInvitationWhere = (practiceId: string, now: Date): Prisma.PracticeInvitationWhereInput => ({
  practiceId,
  acceptedAt: null,
  revokedAt: null,
  expiresAt: { gt: now },
});

/** People counted against the seats: members and open invitations. */
async function seatsTaken(tx: Pick<Tx, "practiceMember" | "practiceInvitation">, practiceId: string, now: Date) {
  const [members, invitations] = await Promise.all([
    tx.practiceMember.count({ where: { practiceId } }),
    tx.practiceInvitation.count({ where: openInvitationWhere(practiceId, now) }),
  ]);
  return members + invitations;
}

/** Seats a practice licence bought now must have: everyone counted, never fewer than included. */
export async function seatsNeeded(practiceId: string, included: number, now = new Date()) {
  return Math.max(included, await seatsTaken(prisma, practiceId, now));
}

// ---- invitations ----

type InvitationMail = { to: string; variables: Record<string, string> };

/**
 * An owner invites someone by e-mail. Refused when they are already a member here or elsewhere,
 * or when the seats are taken; a second invitation to the same address replaces the first.
 */
export async function inviteMember(user: Member, practiceId: string, input: { email: string; role: PracticeRole }, now = new Date()) {
  const { token, tokenHash } = createOpaqueToken();
  const expiresAt = new Date(now.getTime() + INVITATION_DAYS * 24 * 60 * 60 * 1000);
  const { invitation, mail } = await prisma.$transaction(async (tx) => {
    await lockAs(tx, user, practiceId, "owner");
    const invitee = await tx.user.findUnique({ where: { email: input.email }, select: { practiceMembership: { select: { practiceId: true } } } });
    if (invitee?.practiceMembership) {
      throw conflict(invitee.practiceMembership.practiceId === practiceId ? INVITEE_ALREADY_MEMBER : INVITEE_IN_ANOTHER_PRACTICE, "email");
    }
    // A new invitation to the same address replaces the open one (its link stops working).
    const replaced = await tx.practiceInvitation.updateMany({
      where: { ...openInvitationWhere(practiceId, now), email: input.email },
      data: { revokedAt: now },
    });
    const limit = await seatLimit(tx, practiceId, now);
    if (limit !== null && (await seatsTaken(tx, practiceId, now)) + 1 > limit) throw conflict(seatsFull(limit), "email");
    const invitation = await tx.practiceInvitation.create({
      data: { practiceId, email: input.email, role: input.role, tokenHash, invitedById: user.id, expiresAt },
      select: { id: true, email: true, role: true, expiresAt: true, createdAt: true, practice: { select: { legalName: true } } },
    });
    await recordAudit(tx, user, {
      action: "practice.invite",
      entityType: "practice",
      entityId: practiceId,
      summary: `Invited ${input.email} as ${ROLE_LABEL[input.role].toLowerCase()}${replaced.count > 0 ? " (replacing the earlier invitation)" : ""}`,
    });
    const mail: InvitationMail = {
      to: input.email,
      variables: {
        practiceName: invitation.practice.legalName,
        inviterName: `${user.firstName} ${user.lastName}`.trim(),
        role: ROLE_LABEL[input.role],
        acceptUrl: `${appUrl()}/practice/invitations/${token}`,
        expiresDate: formatLongDate(expiresAt),
      },
    };
    return { invitation, mail };
  });
  await sendTemplatedEmail({ template: "practice_invitation", ...mail });
  const { practice: _practice, ...answer } = invitation;
  return answer;
}

/** An owner withdraws an open invitation: its link stops working and its seat is free. */
export async function revokeInvitation(user: Actor, practiceId: string, invitationId: string, now = new Date()) {
  await prisma.$transaction(async (tx) => {
    await lockAs(tx, user, practiceId, "owner");
    const invitation = UUID_RE.test(invitationId)
      ? await tx.practiceInvitation.findFirst({ where: { id: invitationId, practiceId }, select: { email: true, acceptedAt: true, revokedAt: true } })
      : null;
    if (!invitation || invitation.acceptedAt || invitation.revokedAt) throw notFound(INVITATION_NOT_FOUND);
    await tx.practiceInvitation.update({ where: { id: invitationId }, data: { revokedAt: now } });
    await recordAudit(tx, user, {
      action: "practice.invitation_revoke",
      entityType: "practice",
      entityId: practiceId,
      summary: `Withdrew the invitation of ${invitation.email}`,
    });
  });
}

/** Why an invitation cannot be accepted, or null when it can. */
function invitationProblem(invitation: { acceptedAt: Date | null; revokedAt: Date | null; expiresAt: Date }, now: Date) {
  if (invitation.acceptedAt) return INVITATION_USED;
  if (invitation.revokedAt) return INVITATION_REVOKED;
  if (invitation.expiresAt <= now) return INVITATION_EXPIRED;
  return null;
}

function findByToken(db: Pick<Tx, "practiceInvitation">, token: string) {
  return db.practiceInvitation.findUnique({
    where: { tokenHash: hashToken(token) },
    select: {
      id: true,
      practiceId: true,
      email: true,
      role: true,
      expiresAt: true,
      acceptedAt: true,
      revokedAt: true,
      practice: { select: { legalName: true } },
    },
  });
}

/** What the invitation page shows: the practice, the role, and why it cannot be accepted if so. */
export async function describeInvitation(token: string, now = new Date()) {
  const invitation = await findByToken(prisma, token);
  if (!invitation) throw notFound(INVITATION_NOT_FOUND);
  return {
    practiceName: invitation.practice.legalName,
    email: invitation.email,
    role: invitation.role,
    expiresAt: invitation.expiresAt,
    problem: invitationProblem(invitation, now),
  };
}

/**
 * The invited person accepts: signed in with the address it was sent to, in no practice, and
 * while it is open and the seats allow. Once: a used link answers "already been used".
 */
export async function acceptInvitation(user: Actor, token: string, now = new Date()) {
  return prisma.$transaction(async (tx) => {
    const found = await findByToken(tx, token);
    if (!found) throw notFound(INVITATION_NOT_FOUND);
    await tx.$queryRaw`SELECT "id" FROM "Practice" WHERE "id" = ${found.practiceId}::uuid FOR UPDATE`;
    // Read again under the lock: a second acceptance at once sees the first.
    const invitation = (await findByToken(tx, token))!;
    const problem = invitationProblem(invitation, now);
    if (problem) throw new ServiceError(problem, 410);
    if (invitation.email !== user.email.toLowerCase()) throw forbidden(INVITATION_OTHER_EMAIL(invitation.email));
    const current = await tx.practiceMember.findUnique({ where: { userId: user.id }, select: { practiceId: true } });
    if (current) throw conflict(current.practiceId === invitation.practiceId ? INVITEE_ALREADY_MEMBER : ALREADY_IN_A_PRACTICE);
    // The invitation held its seat; this checks the seats a licence bought since allows.
    const limit = await seatLimit(tx, invitation.practiceId, now);
    const taken = await tx.practiceMember.count({ where: { practiceId: invitation.practiceId } });
    if (limit !== null && taken + 1 > limit) throw conflict(seatsFull(limit));
    await tx.practiceMember.create({ data: { userId: user.id, practiceId: invitation.practiceId, role: invitation.role } });
    await tx.practiceInvitation.update({ where: { id: invitation.id }, data: { acceptedAt: now } });
    await recordAudit(tx, user, {
      action: "practice.join",
      entityType: "practice",
      entityId: invitation.practiceId,
      summary: `${user.email} joined “${invitation.practice.legalName}” as ${ROLE_LABEL[invitation.role].toLowerCase()}`,
    });
    return { practiceId: invitation.practiceId, practiceName: invitation.practice.legalName, role: invitation.role };
  });
}

// ---- members ----

async function requireMember(tx: Tx, practiceId: string, userId: string) {
  const member = UUID_RE.test(userId)
    ? await tx.practiceMember.findUnique({ where: { userId }, select: { practiceId: true, role: true, user: { select: { email: true } } } })
    : null;
  if (!member || member.practiceId !== practiceId) throw notFound(MEMBER_NOT_FOUND);
  return member;
}

async function otherOwners(tx: Tx, practiceId: string, userId: string) {
  return tx.practiceMember.count({ where: { practiceId, role: "owner", userId: { not: userId } } });
}

/** An owner changes a member's role (their own too, while another owner remains). */
export async function changeRole(user: Actor, practiceId: string, memberId: string, role: PracticeRole) {
  await prisma.$transaction(async (tx) => {
    await lockAs(tx, user, practiceId, "owner");
    const member = await requireMember(tx, practiceId, memberId);
    if (member.role === "owner" && role !== "owner" && (await otherOwners(tx, practiceId, memberId)) === 0) throw conflict(LAST_OWNER);
    await tx.practiceMember.update({ where: { userId: memberId }, data: { role } });
    await recordAudit(tx, user, {
      action: "practice.role_change",
      entityType: "practice",
      entityId: practiceId,
      summary: `${member.user.email}: ${ROLE_LABEL[member.role].toLowerCase()} → ${ROLE_LABEL[role].toLowerCase()}`,
    });
  });
}

/**
 * An owner removes a member, or a member leaves (memberId is their own). Access to the
 * practice's licences ends with the row: every check reads membership afresh or from a copy a
 * write to it empties (cache-registry.server.ts).
 */
export async function removeMember(user: Actor, practiceId: string, memberId: string) {
  await prisma.$transaction(async (tx) => {
    const leaving = memberId === user.id;
    await lockAs(tx, user, practiceId, leaving ? "member" : "owner");
    const member = await requireMember(tx, practiceId, memberId);
    if (member.role === "owner" && (await otherOwners(tx, practiceId, memberId)) === 0) throw conflict(LAST_OWNER);
    await tx.practiceMember.delete({ where: { userId: memberId } });
    await recordAudit(tx, user, {
      action: leaving ? "practice.leave" : "practice.remove",
      entityType: "practice",
      entityId: practiceId,
      summary: leaving ? `${member.user.email} left the practice` : `Removed ${member.user.email} from the practice`,
    });
  });
}

/** An owner hands the practice to another member, who becomes owner; the caller stays as manager. */
export async function transferOwnership(user: Actor, practiceId: string, toUserId: string) {
  await prisma.$transaction(async (tx) => {
    await lockAs(tx, user, practiceId, "owner");
    if (toUserId === user.id) throw new ServiceError("Choose another member to become the owner.", 400, "userId");
    const member = await requireMember(tx, practiceId, toUserId);
    await tx.practiceMember.update({ where: { userId: toUserId }, data: { role: "owner" } });
    await tx.practiceMember.update({ where: { userId: user.id }, data: { role: "manager" } });
    await recordAudit(tx, user, {
      action: "practice.transfer",
      entityType: "practice",
      entityId: practiceId,
      summary: `Transferred ownership to ${member.user.email}; ${user.email} is now a manager`,
    });
  });
}

// ---- reading ----

/** The practice page's and GET /api/practices/{id}'s data: details, members, open invitations, seats. */
export async function getPractice(user: Actor, practiceId: string, now = new Date()) {
  const membership = await getMembership(user.id);
  if (!membership || membership.practiceId !== practiceId) throw notFound(PRACTICE_NOT_FOUND);
  const [practice, members, invitations, limit, licences] = await Promise.all([
    prisma.practice.findUniqueOrThrow({
      where: { id: practiceId },
      select: { id: true, legalName: true, address: true, country: true, taxId: true, billingEmail: true, logo: true, createdAt: true },
    }),
    prisma.practiceMember.findMany({
      where: { practiceId },
      orderBy: [{ role: "asc" }, { createdAt: "asc" }],
      take: 200,
      select: { userId: true, role: true, createdAt: true, user: { select: { firstName: true, lastName: true, email: true } } },
    }),
    membership.role === "owner"
      ? prisma.practiceInvitation.findMany({
          where: openInvitationWhere(practiceId, now),
          orderBy: { createdAt: "desc" },
          take: 200,
          select: { id: true, email: true, role: true, expiresAt: true, createdAt: true },
        })
      : Promise.resolve([]),
    seatLimit(prisma, practiceId, now),
    prisma.subscription.count({ where: { practiceId, status: "active", endDate: { gt: now } } }),
  ]);
  const taken =
    members.length +
    (membership.role === "owner" ? invitations.length : await prisma.practiceInvitation.count({ where: openInvitationWhere(practiceId, now) }));
  return {
    practice,
    role: membership.role,
    members: members.map((m) => ({
      userId: m.userId,
      role: m.role,
      since: m.createdAt,
      name: `${m.user.firstName} ${m.user.lastName}`.trim(),
      email: m.user.email,
    })),
    invitations,
    seats: { limit, taken },
    activeLicences: licences,
  };
}

// ---- the back office ----

/** The practice and role of each of these users (one query for an admin list's page). */
export async function practicesOf(userIds: string[]) {
  const rows = await prisma.practiceMember.findMany({
    where: { userId: { in: userIds } },
    select: { userId: true, role: true, practice: { select: { legalName: true } } },
  });
  return new Map(rows.map((r) => [r.userId, { name: r.practice.legalName, role: r.role }]));
}

export const ADMIN_PRACTICES_PAGE_SIZE = 25;

/** /admin/practices: newest first, by name, tax id or a member's e-mail; bounded per page. */
export async function listPracticesForAdmin(options: { q?: string; page?: number }, now = new Date()) {
  const q = options.q?.trim();
  const page = Math.max(1, options.page ?? 1);
  const where: Prisma.PracticeWhereInput = q
    ? {
        OR: [
          { legalName: { contains: q, mode: "insensitive" } },
          { taxId: { contains: q, mode: "insensitive" } },
          { members: { some: { user: { email: { contains: q, mode: "insensitive" } } } } },
        ],
      }
    : {};
  const rows = await prisma.practice.findMany({
    where,
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    skip: (page - 1) * ADMIN_PRACTICES_PAGE_SIZE,
    // One more than a page says whether there is a next one, without counting the table.
    take: ADMIN_PRACTICES_PAGE_SIZE + 1,
    select: {
      id: true,
      legalName: true,
      country: true,
      taxId: true,
      createdAt: true,
      members: { orderBy: [{ role: "asc" }, { createdAt: "asc" }], take: 50, select: { role: true, user: { select: { id: true, email: true } } } },
      subscriptions: {
        where: { status: "active", endDate: { gt: now } },
        take: 50,
        select: { id: true, type: true, seats: true, endDate: true, category: { select: { name: true } }, animation: { select: { title: true } } },
      },
      invoices: {
        orderBy: { issuedAt: "desc" },
        take: 5,
        select: { id: true, kind: true, series: true, number: true, totalAmount: true, currency: true, issuedAt: true },
      },
    },
  });
  return { practices: rows.slice(0, ADMIN_PRACTICES_PAGE_SIZE), page, hasNext: rows.length > ADMIN_PRACTICES_PAGE_SIZE };
}
