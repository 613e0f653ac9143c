import { prisma } from "~/lib/db.server.ts";
import { notFound, ServiceError } from "~/lib/errors.server.ts";
import { deliver, htmlToText } from "~/lib/mail.server.ts";
import { escapeHtml } from "~/lib/sanitize.server.ts";
import { logger } from "~/lib/logger.server.ts";
import { sanitizeHtml } from "~/lib/sanitize.server.ts";
import type { Prisma, Role } from "~/generated/prisma/client.ts";
import { UUID_RE } from "~/validation/account.ts";
import type { UserEmailInput, UserListQuery } from "~/validation/admin-users.ts";
import { type Actor, recordAudit } from "./audit.server.ts";
import { endAllSessions, publicUserSelect, type PublicUser } from "../auth/credentials.server.ts";

// The people side of the back office (/admin/users and its /api calls): the list, promote and
// demote, block and unblock, and an e-mail to one user. Every change is audited in its own
// transaction. An admin cannot (docs/architecture.md, "Product decisions") block or demote their
// own account, and the last admin cannot be demoted.

export const USERS_PAGE_SIZE = 20;

export const CANNOT_BLOCK_SELF = "You cannot block your own account";
export const CANNOT_DEMOTE_SELF = "You cannot demote your own account";
export const LAST_ADMIN = "The last admin cannot be demoted";
export const USER_NOT_FOUND = "User not found";
export const ADMIN_ONLY = "Admin access required";

/** The admin list shows the user as the app does everywhere: never the password hash. */
export type AdminUser = PublicUser;

/**
 * Users whose e-mail, username or name contains the term (case-insensitive). The admin lists of
 * users, subscriptions and refunds search their member with it.
 */
export function memberMatches(term: string): Prisma.UserWhereInput {
  const contains = { contains: term, mode: "insensitive" as const };
  return { OR: [{ email: contains }, { username: contains }, { firstName: contains }, { lastName: contains }] };
}

/**
 * One page of users, newest first, with the total the /api contract answers (`users and total`).
 * The HTML screen pages with Previous/Next only, so it asks for no total.
 */
export async function listUsers({ search, page = 1, limit = USERS_PAGE_SIZE }: UserListQuery, { withTotal = true } = {}) {
  const term = search?.trim();
  const where = term ? memberMatches(term) : {};
  const [rows, total] = await Promise.all([
    prisma.user.findMany({
      where,
      select: publicUserSelect,
      orderBy: [{ createdAt: "desc" }, { id: "desc" }],
      skip: (page - 1) * limit,
      take: limit + 1,
    }),
    // Without a search, the total is the counter kept by triggers (no count of the whole table).
    !withTotal ? null : term ? prisma.user.count({ where }) : countUsers(),
  ]);
  return { users: rows.slice(0, limit), total, page, limit, hasNext: rows.length > limit };
}

async function countUsers() {
  const row = await prisma.rowCount.findUnique({ where: { table: "User" } });
  return Number(row?.count ?? 0);
}

export async function getAdminUser(id: string) {
  if (!UUID_RE.test(id)) return null;
  return prisma.user.findUnique({ where: { id }, select: publicUserSelect });
}

/**
 * The acting admin is still an admin when the change commits: a request authorised a moment
 * ago loses to a demotion that committed since (two admins demoting each other at once).
 */
async function requireActingAdmin(tx: Prisma.TransactionClient, actor: Actor) {
  const row = await tx.user.findUnique({ where: { id: actor.id }, select: { role: true, isActive: true } });
  if (row?.role !== "admin" || !row.isActive) throw new ServiceError(ADMIN_ONLY, 403);
}

async function lockedUser(tx: Prisma.TransactionClient, id: string) {
  if (!UUID_RE.test(id)) throw notFound(USER_NOT_FOUND);
  // Row locks: two admins demoting the last two admins at once must not both succeed.
  await tx.$queryRaw`SELECT id FROM "User" WHERE id = ${id}::uuid FOR UPDATE`;
  const user = await tx.user.findUnique({ where: { id }, select: publicUserSelect });
  if (!user) throw notFound(USER_NOT_FOUND);
  return user;
}

const displayName = (user: Pick<AdminUser, "username" | "email">) => `${user.username} (${user.email})`;

/** Promote to admin or demote to user. */
export async function setUserRole(actor: Actor, id: string, role: Role) {
  return prisma.$transaction(async (tx) => {
    if (role === "user") {
      // Every admin row locked in one order, so concurrent demotions see each other.
      await tx.$queryRaw`SELECT id FROM "User" WHERE role = 'admin' ORDER BY id FOR UPDATE`;
    }
    const user = await lockedUser(tx, id);
    await requireActingAdmin(tx, actor);
    if (user.role === role) return user;
    if (role === "user") {
      if (user.id === actor.id) throw new ServiceError(CANNOT_DEMOTE_SELF, 409);
      const admins = await tx.user.count({ where: { role: "admin", isActive: true } });
      if (admins <= 1 && user.isActive) throw new ServiceError(LAST_ADMIN, 409);
    }
    const updated = await tx.user.update({ where: { id }, data: { role }, select: publicUserSelect });
    await recordAudit(tx, actor, {
      action: role === "admin" ? "user.promote" : "user.demote",
      entityType: "user",
      entityId: id,
      summary: role === "admin" ? `Promoted ${displayName(user)} to admin` : `Demoted ${displayName(user)} to user`,
      before: { role: user.role },
      after: { role },
    });
    return updated;
  });
}

/**
 * Blocks or unblocks an account. A blocked account cannot sign in, and every session and refresh
 * token it holds ends in the same transaction, so its next page or call is refused at once.
 */
export async function setUserBlocked(actor: Actor, id: string, blocked: boolean) {
  return prisma.$transaction(async (tx) => {
    // The admins locked first, in one order, as for a demotion: two admins blocking each other
    // at once must leave one of them able to sign in.
    if (blocked) await tx.$queryRaw`SELECT id FROM "User" WHERE role = 'admin' ORDER BY id FOR UPDATE`;
    const user = await lockedUser(tx, id);
    await requireActingAdmin(tx, actor);
    if (blocked && user.id === actor.id) throw new ServiceError(CANNOT_BLOCK_SELF, 409);
    if (user.isActive === !blocked) return user;
    if (blocked && user.role === "admin" && (await tx.user.count({ where: { role: "admin", isActive: true } })) <= 1) {
      throw new ServiceError(LAST_ADMIN, 409);
    }
    const updated = await tx.user.update({ where: { id }, data: { isActive: !blocked }, select: publicUserSelect });
    if (blocked) await endAllSessions(id, tx);
    await recordAudit(tx, actor, {
      action: blocked ? "user.block" : "user.unblock",
      entityType: "user",
      entityId: id,
      summary: `${blocked ? "Blocked" : "Unblocked"} ${displayName(user)}`,
      before: { isActive: user.isActive },
      after: { isActive: !blocked },
    });
    return updated;
  });
}

export const EMAIL_SEND_FAILED = "Failed to send email";

/**
 * The "Send Email" menu item: one message to one user, written by the admin (plain text, or
 * HTML that is sanitised), logged in the e-mail log and the audit log. A failed delivery is
 * logged as failed and answered with 502.
 */
export async function sendUserEmail(actor: Actor, id: string, input: UserEmailInput) {
  const user = await getAdminUser(id);
  if (!user) throw notFound(USER_NOT_FOUND);
  const looksHtml = /<[a-z][\s\S]*>/i.test(input.message);
  const html = looksHtml ? sanitizeHtml(input.message) : `<p>${escapeHtml(input.message).replace(/\n/g, "<br>")}</p>`;
  const text = looksHtml ? htmlToText(html) : input.message;
  let status: "sent" | "failed" = "sent";
  let errorMessage: string | null = null;
  try {
    await deliver({ to: user.email, subject: input.subject, html, text });
  } catch (error) {
    status = "failed";
    errorMessage = error instanceof Error ? error.message : String(error);
    logger.error({ err: error, userId: id }, "admin e-mail to a user failed");
  }
  await prisma.$transaction(async (tx) => {
    await tx.emailLog.create({ data: { toEmail: user.email, subject: input.subject, status, errorMessage, userId: id } });
    await recordAudit(tx, actor, {
      action: "user.email",
      entityType: "user",
      entityId: id,
      summary: `${status === "sent" ? "E-mailed" : "Failed to e-mail"} ${displayName(user)}: “${input.subject}”`,
    });
  });
  if (status === "failed") throw new ServiceError(EMAIL_SEND_FAILED, 502);
  return { user, status };
}
