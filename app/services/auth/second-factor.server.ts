import crypto from "node:crypto";
import { generateSecret, generateURI, verify as verifyTotp } from "otplib";
import { prisma } from "~/lib/db.server.ts";
import { getEnv } from "~/lib/env.server.ts";
import { ServiceError, tooManyRequests } from "~/lib/errors.server.ts";
import { consumeRateLimit, refundRateLimit, tooManyAttemptsMessage, type RateLimitRule } from "~/lib/rate-limit.server.ts";
import { openSecret, sealSecret } from "~/lib/secret-box.server.ts";
import type { Prisma } from "~/generated/prisma/client.ts";
import type { PublicUser } from "./credentials.server.ts";
import type { Credential } from "./guards.server.ts";
import { endPasswordOnlySignIns } from "./sessions.server.ts";

// Second factors (decision 019): an authenticator app (TOTP, RFC 6238) with ten
// single-use recovery codes. Passkeys are in passkeys.server.ts; both count as "a factor".
// Every check here is the one sign-in, the /api MFA call and step-up share.

export const TOTP_ISSUER = "Medanim";
export const RECOVERY_CODE_COUNT = 10;
const TOTP_PERIOD_SECONDS = 30;

export const INVALID_CODE = "That code is not valid. Check your authenticator app and try again.";
export const NO_AUTHENTICATOR = "Set up an authenticator app first.";

/** Code guesses per account from everywhere together, and per client address. */
export const CODE_ACCOUNT_RULE: RateLimitRule = { limit: 10, windowMs: 15 * 60 * 1000 };
export const CODE_CLIENT_RULE: RateLimitRule = { limit: 20, windowMs: 15 * 60 * 1000 };

type Tx = Prisma.TransactionClient;

/** What the account has enrolled: any confirmed authenticator or passkey is a second factor. */
export async function factorSummary(userId: string, tx: Tx = prisma) {
  const [totp, passkeys, recoveryCodes] = await Promise.all([
    tx.totpFactor.findUnique({ where: { userId }, select: { confirmedAt: true } }),
    tx.passkey.count({ where: { userId } }),
    // At most RECOVERY_CODE_COUNT rows.
    tx.recoveryCode.findMany({ where: { userId }, select: { usedAt: true } }),
  ]);
  const recoveryCodesLeft = recoveryCodes.filter((code) => !code.usedAt).length;
  const totpEnabled = Boolean(totp?.confirmedAt);
  return {
    totpEnabled,
    totpPending: Boolean(totp && !totp.confirmedAt),
    passkeys,
    recoveryCodesLeft,
    recoveryCodesIssued: recoveryCodes.length,
    any: totpEnabled || passkeys > 0,
    // Whether a typed code can answer (the /api and pages without JavaScript have only that).
    acceptsCodes: totpEnabled || recoveryCodesLeft > 0,
  };
}

/** One query: the admin guard asks it on every admin request. */
export async function hasSecondFactor(userId: string) {
  const user = await prisma.user.findFirst({
    where: { id: userId, OR: [{ totpFactor: { confirmedAt: { not: null } } }, { passkeys: { some: {} } }] },
    select: { id: true },
  });
  return user !== null;
}

// ---- enrolment ----

/**
 * A new authenticator secret, kept unconfirmed until a code from the app proves it was copied.
 * Starting again replaces an unconfirmed one; a confirmed one must be removed first.
 */
export async function startTotpEnrolment(user: { id: string; email: string }) {
  const existing = await prisma.totpFactor.findUnique({ where: { userId: user.id }, select: { confirmedAt: true } });
  if (existing?.confirmedAt) throw new ServiceError("An authenticator app is already set up. Remove it first to set up another.", 409);
  const secret = generateSecret();
  await prisma.totpFactor.upsert({
    where: { userId: user.id },
    create: { userId: user.id, secret: sealSecret(secret) },
    update: { secret: sealSecret(secret), lastTimeStep: null, createdAt: new Date() },
  });
  return totpSetup(user.email, secret);
}

/** The pending enrolment's secret and otpauth:// address, to show again (a reload, a wrong code). */
export async function pendingTotpSetup(user: { id: string; email: string }) {
  const row = await prisma.totpFactor.findUnique({ where: { userId: user.id } });
  if (!row || row.confirmedAt) return null;
  const secret = openSecret(row.secret);
  return secret ? totpSetup(user.email, secret) : null;
}

function totpSetup(email: string, secret: string) {
  return { secret, uri: generateURI({ issuer: TOTP_ISSUER, label: email, secret }) };
}

/**
 * Confirms the pending authenticator with a code from it and issues fresh recovery codes,
 * returned once in clear (only their hashes are kept). The account's sign-ins that used only
 * the password end, and `current` (the caller's) counts as confirmed (sessions.server.ts). In one
 * transaction with `after`, which records the audit entry.
 */
export async function confirmTotpEnrolment(user: PublicUser, current: Credential | null, code: string, after?: (tx: Tx) => Promise<void>) {
  const row = await prisma.totpFactor.findUnique({ where: { userId: user.id } });
  if (!row || row.confirmedAt) throw new ServiceError(NO_AUTHENTICATOR, 409);
  const secret = openSecret(row.secret);
  const step = secret ? await matchingTimeStep(secret, code, null) : null;
  if (step === null) throw new ServiceError(INVALID_CODE, 400, "code");
  return prisma.$transaction(async (tx) => {
    const claimed = await tx.totpFactor.updateMany({ where: { userId: user.id, confirmedAt: null }, data: { confirmedAt: new Date(), lastTimeStep: step } });
    if (claimed.count !== 1) throw new ServiceError(NO_AUTHENTICATOR, 409);
    const codes = await replaceRecoveryCodes(tx, user.id);
    await after?.(tx);
    const endedSignIns = await endPasswordOnlySignIns(tx, user, current);
    return { codes, endedSignIns };
  });
}

/** Removes the authenticator; the recovery codes go with it unless a passkey remains. */
export async function removeTotp(userId: string, after?: (tx: Tx) => Promise<void>) {
  return prisma.$transaction(async (tx) => {
    const { count } = await tx.totpFactor.deleteMany({ where: { userId } });
    if (count === 0) throw new ServiceError("No authenticator app is set up.", 404);
    if ((await tx.passkey.count({ where: { userId } })) === 0) await tx.recoveryCode.deleteMany({ where: { userId } });
    await after?.(tx);
  });
}

/** Ten new recovery codes in place of the old ones (used or not), in clear this once. */
export async function regenerateRecoveryCodes(userId: string, after?: (tx: Tx) => Promise<void>) {
  return prisma.$transaction(async (tx) => {
    if (!(await factorSummary(userId, tx)).any) throw new ServiceError("Set up an authenticator app or a passkey first.", 409);
    const codes = await replaceRecoveryCodes(tx, userId);
    await after?.(tx);
    return codes;
  });
}

// Without 0/o, 1/l/i: a code copied from paper reads one way.
const CODE_ALPHABET = "23456789abcdefghjkmnpqrstuvwxyz";

function newRecoveryCode() {
  const bytes = crypto.randomBytes(10);
  const chars = Array.from(bytes, (byte) => CODE_ALPHABET[byte % CODE_ALPHABET.length]).join("");
  return `${chars.slice(0, 5)}-${chars.slice(5)}`;
}

export function normaliseRecoveryCode(code: string) {
  return code.toLowerCase().replace(/[\s-]/g, "");
}

/**
 * Keyed with the encryption key, not a plain hash: each code has ~50 bits, which a stolen
 * table alone could be searched for; without the key it cannot.
 */
function recoveryCodeHash(userId: string, code: string) {
  return crypto
    .createHmac("sha256", getEnv().MFA_ENCRYPTION_KEY)
    .update(`${userId}:${normaliseRecoveryCode(code)}`)
    .digest("hex");
}

async function replaceRecoveryCodes(tx: Tx, userId: string) {
  const codes = Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode);
  await tx.recoveryCode.deleteMany({ where: { userId } });
  await tx.recoveryCode.createMany({ data: codes.map((code) => ({ userId, codeHash: recoveryCodeHash(userId, code) })) });
  return codes;
}

/** The text file of recovery codes offered for download. */
export function recoveryCodesText(email: string, codes: string[], now = new Date()) {
  return [
    `Medanim recovery codes for ${email}`,
    `Created ${now.toISOString().slice(0, 10)}. Each code works once. Keep them somewhere safe.`,
    "",
    ...codes,
    "",
  ].join("\n");
}

// ---- verification ----

async function matchingTimeStep(secret: string, code: string, lastTimeStep: number | null) {
  if (!/^\d{6}$/.test(code)) return null;
  const epoch = Math.floor(Date.now() / 1000);
  try {
    const result = await verifyTotp({
      secret,
      token: code,
      epoch,
      // One step either side: a phone's clock a little off still works.
      epochTolerance: 30,
      ...(lastTimeStep !== null ? { afterTimeStep: lastTimeStep } : {}),
    });
    return result.valid ? Math.floor(epoch / TOTP_PERIOD_SECONDS) + result.delta : null;
  } catch {
    return null;
  }
}

export type CodeKind = "totp" | "recovery";

/**
 * Checks a code typed by the user: six digits from the authenticator, or a recovery code.
 * A TOTP code is accepted once (its time step must be later than the last accepted one), a
 * recovery code once ever. Wrong codes count per account and per client address (429 past
 * either, right codes included, until the window ends). Each attempt is counted before the check,
 * so parallel guesses cannot slip past the limit, and a right code takes its own count back:
 * an office behind one address signing in all day is never held up, and a right code clears
 * nobody's failures, not even its own account's. Returns which kind matched; throws INVALID_CODE
 * otherwise.
 */
export async function verifySecondFactorCode(userId: string, input: string, client: string): Promise<CodeKind> {
  const keys = [
    [`mfa-client:${client}`, CODE_CLIENT_RULE],
    [`mfa-account:${userId}`, CODE_ACCOUNT_RULE],
  ] as const;
  const counted: string[] = [];
  try {
    for (const [key, rule] of keys) {
      const limit = await consumeRateLimit(key, rule);
      counted.push(key);
      if (!limit.allowed) throw tooManyRequests(tooManyAttemptsMessage(limit.retryAfterSeconds), limit.retryAfterSeconds);
    }
    const code = input.trim().replace(/\s/g, "");
    const kind = /^\d{6}$/.test(code) ? await acceptTotp(userId, code) : await acceptRecoveryCode(userId, code);
    if (!kind) throw new ServiceError(INVALID_CODE, 400, "code");
    for (const key of counted) await refundRateLimit(key);
    return kind;
  } catch (error) {
    // A refused attempt (429) was never checked: it is not a wrong code either.
    if (error instanceof ServiceError && error.status === 429) for (const key of counted) await refundRateLimit(key);
    throw error;
  }
}

async function acceptTotp(userId: string, code: string): Promise<CodeKind | null> {
  const row = await prisma.totpFactor.findUnique({ where: { userId } });
  if (!row?.confirmedAt) return null;
  const secret = openSecret(row.secret);
  const step = secret ? await matchingTimeStep(secret, code, row.lastTimeStep) : null;
  if (step === null) return null;
  // Conditional: of two requests with the same code only one moves the step forward.
  const { count } = await prisma.totpFactor.updateMany({
    where: { userId, OR: [{ lastTimeStep: null }, { lastTimeStep: { lt: step } }] },
    data: { lastTimeStep: step },
  });
  return count === 1 ? "totp" : null;
}

async function acceptRecoveryCode(userId: string, code: string): Promise<CodeKind | null> {
  if (normaliseRecoveryCode(code).length !== 10) return null;
  const { count } = await prisma.recoveryCode.updateMany({
    where: { userId, codeHash: recoveryCodeHash(userId, code), usedAt: null },
    data: { usedAt: new Date() },
  });
  return count === 1 ? "recovery" : null;
}
