import { createOpaqueToken, hashPassword, hashToken } from "~/lib/crypto.server.ts";
import { prisma } from "~/lib/db.server.ts";
import { ServiceError, tooManyRequests } from "~/lib/errors.server.ts";
import { logger } from "~/lib/logger.server.ts";
import { appUrl, sendTemplatedEmail } from "~/lib/mail.server.ts";
import { consumeRateLimit, tooManyAttemptsMessage, type RateLimitRule } from "~/lib/rate-limit.server.ts";
import { Prisma } from "~/generated/prisma/client.ts";
import type { PreferenceKey, ProfileInput } from "~/validation/account.ts";
import { endAllSessions, publicUserSelect, type PublicUser } from "./credentials.server.ts";
import { sendVerificationEmail, VERIFY_TTL_MS } from "./verification.server.ts";

// Accounts: e-mail verification, password reset, profile and notification preferences
// (decision 004).

// Both contain 'Invalid or expired': the reset screen switches to its error view on that text.
export const INVALID_VERIFY_LINK = "Invalid or expired verification link";
export const INVALID_RESET_TOKEN = "Invalid or expired reset token";
export const ALREADY_VERIFIED = "Your email is already verified";
export const ALREADY_VERIFIED_MESSAGE = "Your email address is already verified. You can sign in and carry on.";
export const VERIFICATION_MAIL_FAILED = "Failed to send verification email";

/** A password reset link is valid for 1 hour. */
export const RESET_TTL_MS = 60 * 60 * 1000;
const HOUR_MS = 60 * 60 * 1000;

// Mail that goes out on a visitor's say-so is capped, so the app cannot be used to flood an
// inbox. Counters are database rows (rate-limit.server.ts): they hold across instances.
const RESET_MAILS_PER_ADDRESS: RateLimitRule = { limit: 3, windowMs: HOUR_MS };
const RESET_REQUESTS_PER_CLIENT: RateLimitRule = { limit: 20, windowMs: HOUR_MS };
const VERIFICATION_MAILS_PER_USER: RateLimitRule = { limit: 5, windowMs: HOUR_MS };

function sameAddress(a: string | null | undefined, b: string | null | undefined) {
  return Boolean(a && b && a.trim().toLowerCase() === b.trim().toLowerCase());
}

// ---------------------------------------------------------------------------------------------
// E-mail verification

/**
 * Marks the address verified. The token is single use (claimed in the same transaction as the
 * change) and only confirms the address it was issued for: after an e-mail change, links sent to
 * the old address no longer verify anything. Opening the same link again (a second click, a mail
 * client's preview) answers "already verified" rather than "invalid" while that address is still
 * the account's and verified; a used link in any other state stays invalid.
 */
export async function verifyEmail(token: string, now = new Date()): Promise<PublicUser & { alreadyVerified: boolean }> {
  const tokenHash = hashToken(token);
  const outcome = await prisma.$transaction(async (tx) => {
    const row = await tx.oneTimeToken.findUnique({
      where: { tokenHash },
      select: {
        id: true,
        purpose: true,
        email: true,
        expiresAt: true,
        usedAt: true,
        user: { select: { id: true, email: true, isEmailVerified: true } },
      },
    });
    if (!row || row.purpose !== "verify_email" || !sameAddress(row.email, row.user.email)) return null;
    if (row.usedAt) {
      if (!row.user.isEmailVerified) return null;
      const user = await tx.user.findUniqueOrThrow({ where: { id: row.user.id }, select: publicUserSelect });
      return { ...user, alreadyVerified: true };
    }
    if (row.expiresAt <= now) return null;
    const claimed = await tx.oneTimeToken.updateMany({ where: { id: row.id, usedAt: null }, data: { usedAt: now } });
    if (claimed.count !== 1) return null;
    const user = await tx.user.update({ where: { id: row.user.id }, data: { isEmailVerified: true }, select: publicUserSelect });
    return { ...user, alreadyVerified: false };
  });
  if (!outcome) throw new ServiceError(INVALID_VERIFY_LINK, 400);
  if (!outcome.alreadyVerified) await sendWelcomeOnce(outcome);
  return outcome;
}

/** The welcome mail after the first verification only, not after each e-mail change. */
async function sendWelcomeOnce(user: PublicUser) {
  const already = await prisma.emailLog.count({ where: { userId: user.id, template: { name: "welcome" } } });
  if (already === 0) {
    await sendTemplatedEmail({ template: "welcome", to: user.email, userId: user.id, variables: { firstName: user.firstName } });
  }
}

/** A fresh verification link for a signed-in, unverified user ('Verification Email Sent'). */
export async function resendVerification(user: PublicUser) {
  if (user.isEmailVerified) throw new ServiceError(ALREADY_VERIFIED, 400);
  const limit = await consumeRateLimit(`verify-mail:${user.id}`, VERIFICATION_MAILS_PER_USER);
  if (!limit.allowed) throw tooManyRequests(tooManyAttemptsMessage(limit.retryAfterSeconds), limit.retryAfterSeconds);
  const sent = await sendVerificationEmail(user);
  if (!sent) throw new ServiceError(VERIFICATION_MAIL_FAILED, 503);
}

// ---------------------------------------------------------------------------------------------
// Password reset

/**
 * Sends a reset link when the address belongs to an active account. The caller answers the same
 * in every case (no account enumeration): unknown addresses and addresses over their hourly mail
 * cap return quietly. Only the per-client cap is reported (429), as it says nothing about the
 * address. The mail is sent without being awaited so the answer takes as long for a known
 * address as for an unknown one.
 */
export async function requestPasswordReset(emailInput: string, clientIp: string, now = new Date()) {
  const email = emailInput.trim().toLowerCase();
  const perClient = await consumeRateLimit(`forgot:client:${clientIp}`, RESET_REQUESTS_PER_CLIENT, now);
  if (!perClient.allowed) throw tooManyRequests(tooManyAttemptsMessage(perClient.retryAfterSeconds), perClient.retryAfterSeconds);
  const perAddress = await consumeRateLimit(`forgot:address:${email}`, RESET_MAILS_PER_ADDRESS, now);
  if (!perAddress.allowed) return;

  const user = await prisma.user.findUnique({ where: { email }, select: { id: true, email: true, firstName: true, isActive: true } });
  if (!user || !user.isActive) return;
  const { token, tokenHash } = createOpaqueToken();
  await prisma.oneTimeToken.create({
    data: { userId: user.id, purpose: "reset_password", tokenHash, email: user.email, expiresAt: new Date(now.getTime() + RESET_TTL_MS) },
  });
  void sendTemplatedEmail({
    template: "password_reset",
    to: user.email,
    userId: user.id,
    variables: { firstName: user.firstName, resetUrl: `${appUrl()}/reset-password?token=${encodeURIComponent(token)}` },
  }).catch((error) => logger.error({ err: error }, "password reset mail failed"));
}

async function findUsableResetToken(token: string, now: Date) {
  const row = await prisma.oneTimeToken.findUnique({
    where: { tokenHash: hashToken(token) },
    select: { id: true, purpose: true, email: true, expiresAt: true, usedAt: true, user: { select: { id: true, email: true, firstName: true } } },
  });
  // A link sent before an e-mail change belongs to the old address: it no longer counts.
  if (!row || row.purpose !== "reset_password" || row.usedAt || row.expiresAt <= now || !sameAddress(row.email, row.user.email)) {
    return null;
  }
  return row;
}

/** Whether the reset screen should show the form (true) or the invalid-link view. Reads only. */
export async function isResetTokenUsable(token: string, now = new Date()) {
  return (await findUsableResetToken(token, now)) !== null;
}

/**
 * Sets the new password, uses up the token and every other reset link of the user, and ends all
 * of the user's sessions and refresh tokens, all in one transaction.
 */
export async function resetPassword(token: string, password: string, now = new Date()) {
  const row = await findUsableResetToken(token, now);
  if (!row) throw new ServiceError(INVALID_RESET_TOKEN, 400);
  const hashed = await hashPassword(password);
  await prisma.$transaction(async (tx) => {
    // Conditional claim: of two concurrent resets with the same link only one wins.
    const claimed = await tx.oneTimeToken.updateMany({
      where: { id: row.id, usedAt: null, expiresAt: { gt: now } },
      data: { usedAt: now },
    });
    if (claimed.count !== 1) throw new ServiceError(INVALID_RESET_TOKEN, 400);
    await tx.user.update({ where: { id: row.user.id }, data: { password: hashed } });
    await tx.oneTimeToken.updateMany({ where: { userId: row.user.id, purpose: "reset_password", usedAt: null }, data: { usedAt: now } });
    await endAllSessions(row.user.id, tx);
  });
  await sendSecurityAlert(
    { id: row.user.id, email: row.user.email, firstName: row.user.firstName },
    "Your password was just changed with a reset link, and every device was signed out. If this was not you, reset your password again and contact support.",
  );
}

// ---------------------------------------------------------------------------------------------
// Profile

export const USERNAME_TAKEN = "This username is already taken";
export const EMAIL_TAKEN = "An account with this email already exists";

/**
 * Updates names, username and e-mail. A new e-mail is unverified until the link sent to it (the
 * `email_change` template) is opened; the token is created in the same transaction as the change,
 * and earlier verification links stop working.
 */
export async function updateProfile(user: PublicUser, input: ProfileInput) {
  const email = input.email.trim().toLowerCase();
  const username = input.username.trim();
  const clash = await prisma.user.findFirst({
    where: { id: { not: user.id }, OR: [{ email }, { username: { equals: username, mode: "insensitive" } }] },
    select: { email: true },
  });
  if (clash) {
    throw clash.email === email ? new ServiceError(EMAIL_TAKEN, 409, "email") : new ServiceError(USERNAME_TAKEN, 409, "username");
  }
  const emailChanged = email !== user.email.toLowerCase();
  const { token, tokenHash } = createOpaqueToken();
  let updated: PublicUser;
  try {
    updated = await prisma.$transaction(async (tx) => {
      const row = await tx.user.update({
        where: { id: user.id },
        data: {
          firstName: input.firstName.trim(),
          lastName: input.lastName.trim(),
          username,
          ...(emailChanged ? { email, isEmailVerified: false } : {}),
        },
        select: publicUserSelect,
      });
      if (emailChanged) {
        await tx.oneTimeToken.deleteMany({ where: { userId: user.id, purpose: "verify_email", usedAt: null } });
        await tx.oneTimeToken.create({
          data: { userId: user.id, purpose: "verify_email", tokenHash, email, expiresAt: new Date(Date.now() + VERIFY_TTL_MS) },
        });
      }
      return row;
    });
  } catch (error) {
    // Another account took the name or address between the check and the update.
    if (error instanceof Prisma.PrismaClientKnownRequestError && error.code === "P2002") {
      const target = String((error.meta as { target?: unknown } | undefined)?.target ?? "");
      throw target.includes("username") ? new ServiceError(USERNAME_TAKEN, 409, "username") : new ServiceError(EMAIL_TAKEN, 409, "email");
    }
    throw error;
  }
  if (emailChanged) {
    await sendTemplatedEmail({
      template: "email_change",
      to: email,
      userId: user.id,
      variables: { firstName: updated.firstName, verificationUrl: `${appUrl()}/verify-email?token=${encodeURIComponent(token)}` },
    });
    // The old address hears about it, so a hijacked session cannot quietly move the account.
    await sendSecurityAlert(
      { id: user.id, email: user.email, firstName: updated.firstName },
      `The email address of your account was changed to ${email}. If this was not you, contact support.`,
    );
  }
  return { user: updated, emailChanged };
}

// ---------------------------------------------------------------------------------------------
// Notification preferences

const preferenceSelect = {
  emailNewAnimations: true,
  emailPromotions: true,
  emailSubscriptionUpdates: true,
  emailSecurityAlerts: true,
  emailNewsletter: true,
  emailRenewalReminders: true,
} satisfies Prisma.NotificationPreferencesSelect;

export type Preferences = Prisma.NotificationPreferencesGetPayload<{ select: typeof preferenceSelect }>;

/** The user's preferences; the row is created with the defaults when missing. */
export function getPreferences(userId: string): Promise<Preferences> {
  return prisma.notificationPreferences.upsert({ where: { userId }, create: { userId }, update: {}, select: preferenceSelect });
}

export function updatePreferences(userId: string, changes: Partial<Record<PreferenceKey, boolean | undefined>>): Promise<Preferences> {
  const data = Object.fromEntries(Object.entries(changes).filter(([, v]) => typeof v === "boolean"));
  return prisma.notificationPreferences.upsert({
    where: { userId },
    create: { userId, ...data },
    update: data,
    select: preferenceSelect,
  });
}

/** Whether optional mail of this kind may go to the user (defaults apply when no row exists). */
export async function wantsEmail(userId: string, key: PreferenceKey) {
  const row = await prisma.notificationPreferences.findUnique({ where: { userId }, select: { [key]: true } });
  if (!row) return key !== "emailPromotions";
  return Boolean((row as Record<string, boolean>)[key]);
}

/**
 * An optional security notice (password changed, e-mail changed), sent only when the user keeps
 * emailSecurityAlerts on (the default) and the `security_alert` template exists: without the
 * template nothing is sent, rather than logging a failed mail for every change.
 */
export async function sendSecurityAlert(user: { id: string; email: string; firstName: string }, message: string) {
  if (!(await wantsEmail(user.id, "emailSecurityAlerts"))) return false;
  const template = await prisma.emailTemplate.findUnique({ where: { name: "security_alert" }, select: { isActive: true } });
  if (!template?.isActive) return false;
  return sendTemplatedEmail({ template: "security_alert", to: user.email, userId: user.id, variables: { firstName: user.firstName, message } });
}
